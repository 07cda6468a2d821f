// The arguments of each browser-shell subcommand (agent-browser syntax, the subset this runtime
// can serve through the extension's action catalog). Usage errors are values (exit code 2).
import { SHELL_MAX_ARG_CHARS, SHELL_MAX_TIMEOUT_SEC, type Subcommand } from './shell-input.ts';

/** `wait <ms>` waits at most this long: the longest timeout_sec. */
export const MAX_WAIT_MS = SHELL_MAX_TIMEOUT_SEC * 1000;
/** `wait --url` patterns: as long as an argv element may be. */
export const MAX_URL_PATTERN_CHARS = SHELL_MAX_ARG_CHARS;

export type ShellCommand =
  | { kind: 'open'; url: string }
  | { kind: 'snapshot'; interactive: boolean }
  | { kind: 'click'; ref: string }
  | { kind: 'fill'; ref: string; text: string }
  | { kind: 'type'; ref: string; text: string }
  | { kind: 'select'; ref: string; values: string[] }
  | { kind: 'press'; key: string }
  | { kind: 'pointer'; action: 'dblclick' | 'hover' | 'focus'; ref: string }
  | { kind: 'check'; ref: string; checked: boolean }
  | { kind: 'wait'; ms: number }
  | { kind: 'wait'; load: true }
  | { kind: 'wait'; text: string }
  | { kind: 'wait'; urlPattern: string }
  | { kind: 'screenshot'; fullPage: boolean }
  | { kind: 'close' }
  | { kind: 'unsupported'; subcommand: Subcommand; reason: string };

export type ParsedCommand = { ok: true; command: ShellCommand } | { ok: false; usage: string };

const REF = /^@?(e\d{1,9})$/;

/** `@e12` / `e12` -> `e12`; anything else (CSS selectors, text) is not a ref. */
export function refOf(token: string | undefined): string | null {
  const match = token === undefined ? null : REF.exec(token.trim());
  return match ? match[1]! : null;
}

const usage = (text: string): ParsedCommand => ({ ok: false, usage: text });

function withRef(sub: string, args: string[], extra: number): { ref: string; rest: string[] } | ParsedCommand {
  if (args.length !== 1 + extra)
    return usage(
      `usage: ${sub} @ref${extra ? ' <text>' : ''} (got ${args.length} argument${args.length === 1 ? '' : 's'})`,
    );
  const ref = refOf(args[0]);
  if (!ref)
    return usage(
      `${sub}: "${args[0]!.slice(0, 60)}" is not an element ref; take "snapshot -i" and use a ref such as @e3 (CSS selectors are not supported)`,
    );
  return { ref, rest: args.slice(1) };
}

export function parseShellCommand(subcommand: Subcommand, args: string[]): ParsedCommand {
  switch (subcommand) {
    case 'open': {
      if (args.length !== 1) return usage('usage: open <url>');
      const raw = args[0]!.trim();
      // agent-browser adds https:// to a bare host; anything with a scheme is left to the URL policy.
      const url = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
      return { ok: true, command: { kind: 'open', url } };
    }
    case 'snapshot': {
      let interactive = false;
      for (const arg of args) {
        if (arg === '-i' || arg === '--interactive') interactive = true;
        else if (arg === '-c' || arg === '--compact')
          continue; // our snapshot is always compact
        else return usage(`snapshot: unsupported option "${arg.slice(0, 40)}" (supported: -i, -c)`);
      }
      return { ok: true, command: { kind: 'snapshot', interactive } };
    }
    case 'click': {
      const r = withRef('click', args, 0);
      return 'ref' in r ? { ok: true, command: { kind: 'click', ref: r.ref } } : r;
    }
    case 'fill':
    case 'type': {
      const r = withRef(subcommand, args, 1);
      return 'ref' in r ? { ok: true, command: { kind: subcommand, ref: r.ref, text: r.rest[0]! } } : r;
    }
    case 'select': {
      // agent-browser: select <ref> <value>; several values choose several options of a multiple select.
      if (args.length < 2) return usage('usage: select @ref <value|label> [more values for a multiple select]');
      const ref = refOf(args[0]);
      if (!ref)
        return usage(
          `select: "${args[0]!.slice(0, 60)}" is not an element ref; take "snapshot -i" and use a ref such as @e3 (CSS selectors are not supported)`,
        );
      return { ok: true, command: { kind: 'select', ref, values: args.slice(1) } };
    }
    case 'press': {
      if (args.length !== 1 || args[0]!.trim() === '') return usage('usage: press <key> (e.g. press Enter)');
      return { ok: true, command: { kind: 'press', key: args[0]!.trim() } };
    }
    case 'wait': {
      if (args.length === 1 && /^\d+$/.test(args[0]!)) {
        // Bounded: never more than the longest timeout_sec (and no setTimeout overflow to 1 ms).
        const ms = Number(args[0]);
        if (args[0]!.length > 9 || ms > MAX_WAIT_MS)
          return usage(
            `wait <ms>: at most ${MAX_WAIT_MS} ms (timeout_sec bounds every command), got ${args[0]!.slice(0, 20)}`,
          );
        return { ok: true, command: { kind: 'wait', ms } };
      }
      if (args[0] === '--load' && args.length <= 2) return { ok: true, command: { kind: 'wait', load: true } };
      if ((args[0] === '--text' || args[0] === '-t') && args.length === 2 && args[1]!.length > 0)
        return { ok: true, command: { kind: 'wait', text: args[1]! } };
      if ((args[0] === '--url' || args[0] === '-u') && args.length === 2 && args[1]!.length > MAX_URL_PATTERN_CHARS)
        return usage(`wait --url: the pattern is longer than ${MAX_URL_PATTERN_CHARS} characters`);
      if ((args[0] === '--url' || args[0] === '-u') && args.length === 2 && args[1]!.length > 0)
        return { ok: true, command: { kind: 'wait', urlPattern: args[1]! } };
      return usage('usage: wait <ms> | wait --load [state] | wait --text <text> | wait --url <pattern>');
    }
    case 'screenshot': {
      let fullPage = false;
      for (const arg of args) {
        if (arg === '--full' || arg === '-f') fullPage = true;
        else
          return usage(
            `screenshot: "${arg.slice(0, 60)}" is not supported; screenshots are stored as artifacts, not written to paths (options: --full)`,
          );
      }
      return { ok: true, command: { kind: 'screenshot', fullPage } };
    }
    case 'close':
      if (args.length > 0) return usage('usage: close');
      return { ok: true, command: { kind: 'close' } };
    case 'dblclick':
    case 'hover':
    case 'focus': {
      const r = withRef(subcommand, args, 0);
      return 'ref' in r ? { ok: true, command: { kind: 'pointer', action: subcommand, ref: r.ref } } : r;
    }
    case 'check':
    case 'uncheck': {
      const r = withRef(subcommand, args, 0);
      return 'ref' in r ? { ok: true, command: { kind: 'check', ref: r.ref, checked: subcommand === 'check' } } : r;
    }
  }
}
