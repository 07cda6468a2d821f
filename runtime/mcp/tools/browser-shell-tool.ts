// The seed 004 `browser-shell` tool: structured argv only, validated before anything runs; each
// session_id gets its own task tab, whose actions run in the tab's task actor; commands of one
// session run one at a time; timeout_sec bounds the wait for a reply (exit code 124); the
// client's cancel stops the command and the action in flight. The reply is the JSON dict of
// §3.3 in content[0].text (and as structuredContent); exit_code != 0 also sets isError.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createKeyedQueue } from '../../store/keyed-queue.ts';
import type { BrowserSessions } from '../browser/browser-sessions.ts';
import { parseShellCommand } from '../shell/shell-command.ts';
import { P0_SUBCOMMANDS, P1_SUBCOMMANDS, parseShellInput, shellInputSchema } from '../shell/shell-input.ts';
import { shellReply, type ShellReply } from '../shell/shell-output.ts';
import { runShellCommand } from '../shell/shell-runner.ts';
import { jsonSchemaOf } from '../templates/template-catalog.ts';
import type { McpTool } from './tool-definition.ts';
import type { Clock } from '../../clock/index.ts';

/** The timer half of the runtime's clock (runtime/clock). */
export type ShellTimers = Pick<Clock, 'setTimeout' | 'clearTimeout'>;

export interface BrowserShellDeps {
  sessions: BrowserSessions;
  rememberArtifact(artifactId: string): void;
  timers?: ShellTimers;
}

const outputSchema = z.object({
  session_id: z.string(),
  exit_code: z.number().int(),
  stdout: z.string().describe('data-only JSON plus a newline (may end with a truncation marker)'),
  stderr: z.string(),
});

const description = [
  'Drives a background tab of the connected browser with agent-browser style commands, given as a structured argv (never a command string).',
  `Allowed: ${P0_SUBCOMMANDS.join(', ')}; also ${P1_SUBCOMMANDS.join(', ')} (only select is served by this runtime). Denied: eval, evaluate, upload, download, route, unroute. Global options (--cdp, --json, --session, ...) are set by the server and refused.`,
  'Flow: ["open","https://example.com"] -> ["snapshot","-i"] (refs @e1...) -> ["fill","@e3","text"] / ["click","@e4"] / ["press","Enter"] / ["wait","--load"] -> ["close"].',
  'Reply: content[0].text is JSON {session_id, exit_code, stdout, stderr}; stdout is the data as JSON. URLs pass the server URL policy (http/https only, no private or loopback addresses unless the policy file allows them).',
].join(' ');

function toResult(reply: ShellReply): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(reply) }],
    structuredContent: { ...reply },
    ...(reply.exit_code !== 0 ? { isError: true } : {}),
  };
}

export function createBrowserShellTool(deps: BrowserShellDeps): McpTool {
  const queue = createKeyedQueue();
  const timers: ShellTimers = deps.timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  };

  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const handle = timers.setTimeout(() => {
        signal.removeEventListener('abort', done);
        resolve();
      }, ms);
      const done = () => {
        timers.clearTimeout(handle);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
    });

  return {
    name: 'browser-shell',
    title: 'Browser shell',
    description,
    inputSchema: jsonSchemaOf(shellInputSchema, 'input'),
    outputSchema: jsonSchemaOf(outputSchema, 'output'),
    annotations: { openWorldHint: true, destructiveHint: false },
    async call(args, ctx) {
      const input = parseShellInput(args);
      if (!input.ok) return toResult(shellReply(input.sessionId, 2, undefined, input.message));
      const { sessionId, subcommand, args: rest, timeoutSec } = input.value;
      const parsed = parseShellCommand(subcommand, rest);
      if (!parsed.ok) return toResult(shellReply(sessionId, 2, undefined, parsed.usage));

      const deadline = new AbortController();
      // The client canceled the call (extra.signal): the command stops now, and the action its
      // session's tab has in flight is stopped on the plugin (its task actor gets STOP).
      const canceled = () => {
        deadline.abort(new Error('canceled'));
        deps.sessions.get(sessionId)?.main?.cancel();
      };
      if (ctx?.signal.aborted) canceled();
      else ctx?.signal.addEventListener('abort', canceled, { once: true });
      let handle: unknown;
      const timedOut = new Promise<'timeout'>((resolve) => {
        handle = timers.setTimeout(() => {
          deadline.abort(new Error('timeout'));
          resolve('timeout');
        }, timeoutSec * 1000);
      });
      const work = queue.run(sessionId, async () => {
        if (deadline.signal.aborted)
          return {
            exitCode: 124,
            stderr: `timed out after ${timeoutSec} s waiting for earlier commands of this session`,
          };
        // A session belongs to the MCP client (MCP session id) that first drove it: another client
        // cannot read or steer its tab by guessing or reusing its session_id.
        const owner = ctx?.clientSessionId;
        const existing = deps.sessions.get(sessionId);
        if (existing?.owner !== undefined && existing.owner !== owner) {
          return {
            exitCode: 1,
            stderr: `session_id "${sessionId}" belongs to another MCP client: choose another session_id`,
          };
        }
        const session = deps.sessions.ensure(sessionId);
        if (session.owner === undefined && owner !== undefined) session.owner = owner;
        return runShellCommand(
          { sessions: deps.sessions, sleep, rememberArtifact: deps.rememberArtifact },
          session,
          parsed.command,
          deadline.signal,
        );
      });
      try {
        const outcome = await Promise.race([work, timedOut]);
        if (outcome === 'timeout')
          return toResult(
            shellReply(
              sessionId,
              124,
              undefined,
              `timed out after ${timeoutSec} s (the command may still finish in the background)`,
            ),
          );
        return toResult(
          shellReply(sessionId, outcome.exitCode, outcome.exitCode === 0 ? outcome.data : undefined, outcome.stderr),
        );
      } catch (error) {
        return toResult(
          shellReply(
            sessionId,
            1,
            undefined,
            `internal error: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      } finally {
        timers.clearTimeout(handle);
        ctx?.signal.removeEventListener('abort', canceled);
      }
    },
  };
}
