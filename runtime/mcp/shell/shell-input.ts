// browser-shell input (seed 004 §3.2), checked before anything runs: the object shape (no
// string command, no unknown fields), session_id, argv element types, count and length,
// timeout_sec (<= 120, default 30), the subcommand allowlist (P0 + P1) and denylist, and global
// flags (--cdp, --json, --session, ...) in any spelling: `--cdp=1`, `-cdp`, `—cdp`, `--CDP`,
// full-width dashes, surrounding spaces. Every refusal is a message for stderr.
import { z } from 'zod';

export const SHELL_MAX_ARGV = 64;
export const SHELL_MAX_ARG_CHARS = 4096;
export const SHELL_DEFAULT_TIMEOUT_SEC = 30;
export const SHELL_MAX_TIMEOUT_SEC = 120;

export const P0_SUBCOMMANDS = [
  'open',
  'snapshot',
  'click',
  'fill',
  'type',
  'press',
  'wait',
  'screenshot',
  'close',
] as const;
export const P1_SUBCOMMANDS = ['dblclick', 'hover', 'focus', 'check', 'uncheck', 'select'] as const;
export const DENIED_SUBCOMMANDS = ['eval', 'evaluate', 'upload', 'download', 'route', 'unroute'] as const;
export type Subcommand = (typeof P0_SUBCOMMANDS)[number] | (typeof P1_SUBCOMMANDS)[number];

/** agent-browser's global options: the server decides these, a caller never does. */
export const FORBIDDEN_FLAGS: ReadonlySet<string> = new Set([
  'cdp',
  'cdp-url',
  'json',
  'session',
  'session-name',
  'headed',
  'headless',
  'debug',
  'executable-path',
  'extension',
  'extensions',
  'headers',
  'proxy',
  'proxy-bypass',
  'profile',
  'state',
  'user-agent',
  'ignore-https-errors',
  'allow-file-access',
  'args',
  'provider',
  'p',
  'device',
  'config',
  'port',
  'ws-endpoint',
]);

export const shellInputSchema = z
  .object({
    session_id: z.string().regex(/^[a-zA-Z0-9._-]{1,64}$/, 'session_id must match [a-zA-Z0-9._-]{1,64}'),
    argv: z
      .array(
        z.union([
          z.string().max(SHELL_MAX_ARG_CHARS, `each argv element is at most ${SHELL_MAX_ARG_CHARS} characters`),
          z.number(),
          z.boolean(),
        ]),
      )
      .min(1, 'argv must name a subcommand')
      .max(SHELL_MAX_ARGV, `argv has at most ${SHELL_MAX_ARGV} elements`),
    timeout_sec: z
      .number()
      .gt(0, 'timeout_sec must be positive')
      .max(SHELL_MAX_TIMEOUT_SEC, `timeout_sec is at most ${SHELL_MAX_TIMEOUT_SEC}`)
      .optional(),
  })
  .strict();

export interface ShellInput {
  sessionId: string;
  subcommand: Subcommand;
  args: string[];
  timeoutSec: number;
}

export type ShellInputResult = { ok: true; value: ShellInput } | { ok: false; sessionId: string; message: string };

const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;

/** The option name a token would set, or null when it is not an option (`--cdp=1` -> "cdp"). */
export function optionNameOf(token: string): string | null {
  const normal = token.normalize('NFKC').replace(DASHES, '-').trim().toLowerCase();
  if (!normal.startsWith('-')) return null;
  const name = normal.replace(/^-+/, '').split(/[=\s:]/, 1)[0]!;
  return name;
}

function argText(value: string | number | boolean): string {
  return typeof value === 'string' ? value : String(value);
}

export function parseShellInput(raw: unknown): ShellInputResult {
  const parsed = shellInputSchema.safeParse(raw);
  const sessionId =
    typeof (raw as { session_id?: unknown })?.session_id === 'string' &&
    /^[a-zA-Z0-9._-]{1,64}$/.test((raw as { session_id: string }).session_id)
      ? (raw as { session_id: string }).session_id
      : '';
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: the input is { session_id, argv, timeout_sec } (argv is an array, never a command string)`
        : `${where}: ${issue.message}`;
    return { ok: false, sessionId, message };
  }
  const { argv } = parsed.data;
  for (const [i, value] of argv.entries()) {
    if (typeof value === 'number' && !Number.isFinite(value))
      return { ok: false, sessionId, message: `argv.${i}: numbers must be finite` };
    if (typeof value === 'string' && /[\u0000]/.test(value))
      return { ok: false, sessionId, message: `argv.${i}: NUL characters are not allowed` };
  }
  const head = argv[0]!;
  if (typeof head !== 'string')
    return { ok: false, sessionId, message: 'argv[0] must be a subcommand name (a string)' };
  const folded = head.normalize('NFKC').trim().toLowerCase();
  if ((DENIED_SUBCOMMANDS as readonly string[]).includes(folded))
    return {
      ok: false,
      sessionId,
      message: `subcommand "${folded}" is denied by policy (eval/evaluate/upload/download/route/unroute are never available)`,
    };
  if (optionNameOf(head) !== null && FORBIDDEN_FLAGS.has(optionNameOf(head)!))
    return {
      ok: false,
      sessionId,
      message: `argv[0]: global option "${head}" is set by the server and cannot be passed`,
    };
  if (!(P0_SUBCOMMANDS as readonly string[]).includes(head) && !(P1_SUBCOMMANDS as readonly string[]).includes(head)) {
    return {
      ok: false,
      sessionId,
      message: `subcommand "${head.slice(0, 40)}" is not allowed; allowed: ${[...P0_SUBCOMMANDS, ...P1_SUBCOMMANDS].join(', ')}`,
    };
  }
  const args = argv.slice(1).map(argText);
  for (const [i, arg] of args.entries()) {
    const name = optionNameOf(arg);
    if (name !== null && FORBIDDEN_FLAGS.has(name))
      return {
        ok: false,
        sessionId,
        message: `argv[${i + 1}]: global option "${arg.slice(0, 40)}" is set by the server and cannot be passed`,
      };
  }
  return {
    ok: true,
    value: {
      sessionId: parsed.data.session_id,
      subcommand: head as Subcommand,
      args,
      timeoutSec: parsed.data.timeout_sec ?? SHELL_DEFAULT_TIMEOUT_SEC,
    },
  };
}
