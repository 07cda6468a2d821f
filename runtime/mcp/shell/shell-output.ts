// The browser-shell reply (seed 004 §3.3): `{ session_id, exit_code, stdout, stderr }` and
// nothing else (no echo of the request). stdout is the data-only JSON (`JSON.stringify(data)
// + "\n"`), stderr the error text; both cut at a byte limit with a visible marker. Token-like
// fields are redacted before anything is written.

export const SHELL_MAX_STDOUT_BYTES = 64 * 1024;
export const SHELL_MAX_STDERR_BYTES = 8 * 1024;

export interface ShellReply {
  session_id: string;
  exit_code: number;
  stdout: string;
  stderr: string;
}

const SECRET_KEY = /token|secret|password|passwd|authorization|cookie|api[-_]?key|credential/i;

/** Deep copy with token-like keys replaced by "[redacted]". */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes (marker included), never inside a character. */
export function truncateBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  const buf = Buffer.from(text, 'utf8');
  const marker = (kept: number) => `\n...[truncated: ${bytes - kept} of ${bytes} bytes omitted]\n`;
  let keep = Math.max(0, maxBytes - Buffer.byteLength(marker(maxBytes)));
  while (keep > 0 && (buf[keep]! & 0xc0) === 0x80) keep--; // back off a continuation byte
  return buf.subarray(0, keep).toString('utf8') + marker(keep);
}

export function shellReply(sessionId: string, exitCode: number, data: unknown, stderr: string): ShellReply {
  const stdout = exitCode === 0 || data !== undefined ? `${JSON.stringify(redact(data ?? null))}\n` : '';
  return {
    session_id: sessionId,
    exit_code: exitCode,
    stdout: truncateBytes(exitCode === 0 || data !== undefined ? stdout : '', SHELL_MAX_STDOUT_BYTES),
    stderr: truncateBytes(stderr, SHELL_MAX_STDERR_BYTES),
  };
}
