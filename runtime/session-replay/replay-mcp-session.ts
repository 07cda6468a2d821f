// Replays one recorded MCP session (an MCP session's task file) against a fresh server: the
// session runtime with /mcp mounted and its own recorder, a fake plugin with the recording's
// clientId answering from the recording, and the real MCP SDK client making the recorded calls,
// event-driven (each call, and each plugin-originated message such as a takeover_report, once as
// many calls had arrived, frames been exchanged with the plugin, frontend events been emitted and calls
// returned as before it when recorded: mcp-replay.ts). The live session's own recording is then compared with the recorded
// one: the tool results the client got, the frontend events (in the task's seq order) and the
// task's machine snapshots (in order); `mismatches` holds a readable diff of each part that differs.
import { createWokenWait } from './woken-wait.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createOfflinePlanner } from '../llm/offline-planner/index.ts';
import {
  describeFrontendEvents,
  formatDescriptor,
  inTaskOrder,
  recordedFrontendEvents,
} from '../recorder/event-descriptors.ts';
import {
  describeInspection,
  describeMcpCall,
  describeMismatch,
  mcpReplayInputs,
  recordedMcpCalls,
} from '../recorder/mcp-replay.ts';
import { createReplayAnswerer, pluginClientIdOf, taskIdOf, type ReplayAnswererOptions } from '../recorder/replay.ts';
import {
  createSessionRecorder,
  parseRecording,
  type RecordedLine,
  type SessionRecorder,
} from '../recorder/session-recorder.ts';
import { startFakePlugin, type BrowserActionFrame, type FakePlugin } from '../test-util/fake-plugin.ts';
import type { UrlPolicy } from '../url-policy/index.ts';
import { fixtureUrlPolicy, startSessionRuntime, type SessionTimings } from './session-runtime.ts';

export interface McpReplayOptions {
  /** The timings the session was recorded with (FIXTURE_TIMINGS for fixtures/sessions). */
  timings?: SessionTimings;
  /** The URL policy it was recorded under (default fixtureUrlPolicy: loopback allowed, no DNS). */
  urlPolicy?: UrlPolicy;
  answerer?: ReplayAnswererOptions;
  /** Give up waiting for the recorded calls and events after this long (default 15 s). */
  timeoutMs?: number;
  /** After the last expected event, wait this long for extra ones (default 150 ms). */
  settleMs?: number;
}

export interface McpReplayParts {
  /** One line per tool call: tool, arguments, the result the client got (describeMcpCall; live: the SDK client's). */
  results: string[];
  /** The task's frontend events in seq order (formatDescriptor). */
  events: string[];
  /** The task's machine snapshots in order (describeInspection). */
  inspection: string[];
}

export interface McpReplayOutcome {
  recordedTaskId: string;
  /** The MCP session's task in the replay (a fresh id). */
  liveTaskId: string | undefined;
  expected: McpReplayParts;
  actual: McpReplayParts;
  /** A readable diff per part that differs (empty: the replay gave what was recorded). */
  mismatches: string[];
  /** The replay's own recording of the task. */
  lines: RecordedLine[];
  unexpectedActions: string[];
  unusedActions: string[];
  pluginFrames: BrowserActionFrame[];
  /** Acks of the plugin-originated messages sent. */
  inputAcks: unknown[];
  timedOut: boolean;
}

function partsOf(lines: readonly RecordedLine[], taskId: string): McpReplayParts {
  return {
    results: recordedMcpCalls(lines).map(describeMcpCall),
    events: describeFrontendEvents(inTaskOrder(recordedFrontendEvents([...lines])), { taskId, segments: true }).map(
      formatDescriptor,
    ),
    inspection: describeInspection(lines),
  };
}

export async function replayMcpSession(
  lines: RecordedLine[],
  options: McpReplayOptions = {},
): Promise<McpReplayOutcome> {
  const recordedTaskId = taskIdOf(lines);
  if (!recordedTaskId) throw new Error('the recording has no frame with a taskId');
  const inputs = mcpReplayInputs(lines);
  if (!inputs.some((input) => input.channel === 'mcp_call')) throw new Error('the recording has no MCP call');
  const unsupported = inputs.find((input) => input.channel === 'frontend_message');
  if (unsupported)
    throw new Error(`replayMcpSession does not replay a message from the web UI (at ${unsupported.t} ms)`);
  const expectedEvents = recordedFrontendEvents(lines).length;
  const expectedCalls = inputs.filter((input) => input.channel === 'mcp_call').length;
  const answerer = createReplayAnswerer(lines, options.answerer);

  const recordDir = mkdtempSync(join(tmpdir(), 'mimo-mcp-replay-'));
  const files = createSessionRecorder({ dir: recordDir, clock: { now: () => Date.now() } });
  let liveTaskId: string | undefined;
  /** How far the live session got (as McpReplayProgress counts it in the recording). */
  const live = { calls: 0, pluginFrames: 0, events: 0, returned: 0 };
  const waiting = createWokenWait();
  // The replay's recorder, watched: the first call names the session's task; its calls, plugin frames and events are counted.
  const recorder: SessionRecorder = {
    dir: files.dir,
    close: () => files.close(),
    link: (taskId, into) => files.link(taskId, into),
    unlink: (taskId, into) => files.unlink(taskId, into),
    record(taskId, entry) {
      files.record(taskId, entry);
      if (entry.kind === 'mcp_call') {
        liveTaskId ??= taskId;
        if (taskId === liveTaskId) live.calls++;
      } else if (entry.kind === 'mcp_result') {
        // Returned on the server (as the recording counts it), whether or not the client still waited.
        if (taskId === liveTaskId) live.returned++;
      } else if (entry.kind === 'frame' && taskId === liveTaskId) {
        if (entry.channel === 'frontend_event') live.events++;
        else if (entry.channel === 'plugin_message' || entry.channel === 'plugin_ack') live.pluginFrames++;
        else return;
      } else return;
      waiting.wake();
    },
  };
  const runtime = await startSessionRuntime({
    llm: createOfflinePlanner(),
    recorder,
    ...(options.timings ? { timings: options.timings } : {}),
    mcp: { urlPolicy: options.urlPolicy ?? fixtureUrlPolicy() },
  });
  let plugin: FakePlugin | undefined;
  const client = new Client({ name: 'mimo-mcp-replay', version: '0.0.0' });
  /** What the client got for each call, in the order the calls were made. */
  const results: Array<{ tool: string; arguments: Record<string, unknown>; result: unknown; canceled?: boolean }> = [];
  const aborts = new Map<string, AbortController>();
  const inputAcks: unknown[] = [];
  let timedOut = false;
  try {
    const clientId = pluginClientIdOf(lines);
    if (clientId) plugin = await startFakePlugin({ url: runtime.url, clientId, answer: answerer.answer });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${runtime.url}/mcp`)));

    let next = 0;
    let sending: Promise<void> = Promise.resolve();
    const calls: Array<Promise<void>> = [];
    const flush = () => {
      sending = sending.then(async () => {
        while (next < inputs.length) {
          const input = inputs[next]!;
          if (
            input.afterCalls > live.calls ||
            input.afterPluginFrames > live.pluginFrames ||
            input.afterEvents > live.events ||
            input.afterResults > live.returned
          )
            return;
          next++;
          if (input.channel === 'mcp_call') {
            const { tool, arguments: args, callId } = input.call;
            const made: (typeof results)[number] = { tool, arguments: args, result: undefined };
            results.push(made);
            const abort = new AbortController();
            aborts.set(callId, abort);
            calls.push(
              client.callTool({ name: tool, arguments: args }, undefined, { signal: abort.signal }).then(
                (result) => void (made.result = result),
                (error: Error) => {
                  if (abort.signal.aborted) made.canceled = true;
                  else made.result = { error: error.message };
                },
              ),
            );
          } else if (input.channel === 'mcp_cancel') {
            aborts.get(input.callId)?.abort();
          } else if (input.channel === 'plugin_message') {
            // The recorded task id is the live one's in this replay.
            const payload = liveTaskId
              ? (JSON.parse(JSON.stringify(input.payload).split(recordedTaskId).join(liveTaskId)) as object)
              : input.payload;
            inputAcks.push(
              await (plugin
                ? plugin.send(payload as Record<string, unknown>).catch((error: Error) => ({ error: error.message }))
                : { error: 'no plugin in this recording' }),
            );
          }
        }
      });
    };

    const timeoutMs = options.timeoutMs ?? 15_000;
    timedOut = await waiting.until(
      () => live.events >= expectedEvents && next >= inputs.length && live.returned >= expectedCalls,
      timeoutMs,
      flush,
    );
    await sending;
    if (!timedOut) await Promise.all(calls);
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 150));
  } finally {
    await client.close().catch(() => {});
    plugin?.close();
    await runtime.close();
    await recorder.close();
  }
  let replayed: RecordedLine[] = [];
  try {
    if (liveTaskId) replayed = parseRecording(readFileSync(join(recordDir, `${liveTaskId}.jsonl`), 'utf8'));
  } finally {
    rmSync(recordDir, { recursive: true, force: true });
  }
  const expected = partsOf(lines, recordedTaskId);
  const actual = {
    ...(liveTaskId ? partsOf(replayed, liveTaskId) : { events: [], inspection: [] }),
    results: results.map(describeMcpCall),
  };
  const mismatches = (['results', 'events', 'inspection'] as const)
    .map((part) => describeMismatch(part, expected[part], actual[part]))
    .filter(Boolean);
  return {
    recordedTaskId,
    liveTaskId,
    expected,
    actual,
    mismatches,
    lines: replayed,
    unexpectedActions: [...answerer.unexpected],
    unusedActions: answerer.unused().map((e) => `${e.actionName} ${e.actionId}`),
    pluginFrames: [...(plugin?.received ?? [])],
    inputAcks,
    timedOut,
  };
}
