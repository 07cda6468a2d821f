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

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8') + 1;

/** The largest string or array under `value` (by JSON size), with a way to shrink it. */
function largest(value: unknown, path: string): { path: string; size: number; shrink(): void } | null {
  let best: { path: string; size: number; shrink(): void } | null = null;
  const consider = (holder: Record<string, unknown> | unknown[], key: string | number, where: string) => {
    const v = (holder as Record<string, unknown>)[key as string];
    if (typeof v === 'string' || Array.isArray(v)) {
      const size = jsonBytes(v);
      if (!best || size > best.size) {
        best = {
          path: where,
          size,
          shrink: () => {
            (holder as Record<string, unknown>)[key as string] =
              typeof v === 'string' ? v.slice(0, Math.floor(v.length / 2)) : v.slice(0, Math.floor(v.length / 2));
          },
        };
      }
    }
    if (v && typeof v === 'object') {
      const inner = largest(v, where);
      if (inner && (!best || inner.size > best.size)) best = inner;
    }
  };
  if (Array.isArray(value)) value.forEach((_, i) => consider(value, i, `${path}[${i}]`));
  else if (value && typeof value === 'object')
    for (const key of Object.keys(value))
      consider(value as Record<string, unknown>, key, path ? `${path}.${key}` : key);
  return best;
}

/**
 * Fits JSON data into `maxBytes` without ever cutting inside it: the largest strings and arrays
 * are halved until it fits, and `truncated` (on an object) lists what was cut. Callers with
 * their own priorities (snapshot) fit first; this is the net under every reply.
 */
export function fitJson(data: unknown, maxBytes: number): unknown {
  if (jsonBytes(data) <= maxBytes) return data;
  const copy = JSON.parse(JSON.stringify(data)) as unknown;
  const cut = new Set<string>();
  for (let round = 0; round < 200 && jsonBytes(copy) > maxBytes - 400; round++) {
    const target = largest(copy, '');
    if (!target || target.size < 16) break;
    target.shrink();
    cut.add(target.path);
  }
  if (jsonBytes(copy) > maxBytes - 400 || !copy || typeof copy !== 'object' || Array.isArray(copy)) {
    return {
      truncated: {
        reason: `the output was ${jsonBytes(data)} bytes, above the ${maxBytes}-byte limit`,
        cut: 'everything',
      },
    };
  }
  const note = {
    reason: `the output was ${jsonBytes(data)} bytes, above the ${maxBytes}-byte limit`,
    cut: [...cut].slice(0, 20),
  };
  return { ...(copy as Record<string, unknown>), truncated: note };
}

export function shellReply(sessionId: string, exitCode: number, data: unknown, stderr: string): ShellReply {
  const stdout =
    exitCode === 0 || data !== undefined
      ? `${JSON.stringify(fitJson(redact(data ?? null), SHELL_MAX_STDOUT_BYTES))}\n`
      : '';
  return {
    session_id: sessionId,
    exit_code: exitCode,
    // Always valid JSON: fitJson keeps it under the limit, so this never cuts it.
    stdout: truncateBytes(stdout, SHELL_MAX_STDOUT_BYTES),
    stderr: truncateBytes(stderr, SHELL_MAX_STDERR_BYTES),
  };
}
