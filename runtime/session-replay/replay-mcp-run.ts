// Replays one recorded template run (a run's file: its client's calls and every frame of the tabs
// that served it, each with its `task`; runtime/mcp/mcp-run-recording.ts) against a fresh server:
// the session runtime with /mcp mounted and its own recorder, a fake plugin with the recording's
// clientId answering each tab from the recorded tab it stands for, and the real MCP SDK client
// making the recorded calls, event-driven as replayMcpSession makes them (mcp-replay.ts: each once
// as many calls had arrived, plugin frames been exchanged, frontend events been emitted, calls
// returned and the run's status or progress changed as before it when recorded). The recorded run id in a later call's arguments is the
// live one's. A live tab stands for the recorded tab whose first action was the same (name and
// parameters, the tab id aside), else for the next recorded tab not yet taken.
// Compared: the tool results (run ids, session ids, times and artifact ids left out) and each
// tab's frontend events in seq order, tab by tab in recorded order.
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
import { describeMcpCall, describeMismatch, mcpReplayInputs, recordedMcpCalls } from '../recorder/mcp-replay.ts';
import {
  createReplayAnswerer,
  pluginClientIdOf,
  recordedExchanges,
  type ReplayAnswerer,
  type ReplayAnswererOptions,
} from '../recorder/replay.ts';
import { createSessionRecorder, parseRecording, type RecordedLine } from '../recorder/session-recorder.ts';
import { startFakePlugin, type FakePlugin } from '../test-util/fake-plugin.ts';
import type { UrlPolicy } from '../url-policy/index.ts';
import { fixtureUrlPolicy, startSessionRuntime, type SessionTimings } from './session-runtime.ts';
import { createWokenWait } from './woken-wait.ts';

export interface McpRunReplayOptions {
  timings?: SessionTimings;
  urlPolicy?: UrlPolicy;
  answerer?: ReplayAnswererOptions;
  /** Give up waiting for the recorded calls and events after this long (default 20 s). */
  timeoutMs?: number;
  /** After the last expected event, wait this long for extra ones (default 150 ms). */
  settleMs?: number;
}

export interface McpRunReplayParts {
  /** One line per call (describeMcpCall, with the run's ids and times left out). */
  results: string[];
  /** Each tab's frontend events in seq order, tab by tab (`<tab n>` heads each). */
  events: string[];
}

export interface McpRunReplayOutcome {
  recordedRunId: string;
  liveRunId: string | undefined;
  /** Recorded tab task id -> the live one that stood for it. */
  tabs: Map<string, string>;
  expected: McpRunReplayParts;
  actual: McpRunReplayParts;
  mismatches: string[];
  /** The replay's own recording of the run (its file). */
  lines: RecordedLine[];
  unexpectedActions: string[];
  unusedActions: string[];
  timedOut: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The run id run_task_template answered in the recording. */
function runIdOf(lines: readonly RecordedLine[]): string | undefined {
  for (const line of lines) {
    if (line.kind !== 'mcp_result' || line.tool !== 'run_task_template' || !isObj(line.result)) continue;
    const structured = line.result.structuredContent;
    if (isObj(structured) && typeof structured.runId === 'string') return structured.runId;
  }
  return undefined;
}

/** The tabs (tasks) of a run's file in the order their first line came. */
const tabsOf = (lines: readonly RecordedLine[]) => [
  ...new Set(lines.map((line) => line.task).filter((task): task is string => typeof task === 'string')),
];

const linesOfTab = (lines: readonly RecordedLine[], task: string) =>
  lines.filter((line) => line.task === task).map(({ task: _task, ...line }) => line as RecordedLine);

/** Ids, session ids, times: what differs from run to run in a run view. */
function describeRunCall(call: Parameters<typeof describeMcpCall>[0], runIds: readonly string[]): string {
  let text = describeMcpCall(call);
  for (const id of runIds) text = text.split(id).join('<run>');
  return text
    .replace(/sess_[0-9A-HJKMNP-TV-Z]{26}/g, 'sess_*')
    .replace(/"(createdAt|updatedAt|startedAt|endedAt|elapsedMs|expiresAt)":\d+(\.\d+)?/g, '"$1":0');
}

function tabEvents(lines: readonly RecordedLine[], order: readonly (string | undefined)[]): string[] {
  return order.flatMap((task, index) => [
    `<tab ${index + 1}>`,
    ...(task
      ? describeFrontendEvents(inTaskOrder(recordedFrontendEvents(linesOfTab(lines, task))), {
          taskId: task,
          segments: true,
        }).map(formatDescriptor)
      : []),
  ]);
}

export async function replayMcpRun(
  lines: RecordedLine[],
  options: McpRunReplayOptions = {},
): Promise<McpRunReplayOutcome> {
  const recordedRunId = runIdOf(lines);
  if (!recordedRunId) throw new Error('the recording has no run_task_template result with a runId');
  const inputs = mcpReplayInputs(lines);
  const unsupported = inputs.find((input) => input.channel === 'frontend_message');
  if (unsupported) throw new Error(`replayMcpRun does not replay a message from the web UI (at ${unsupported.t} ms)`);
  const recordedTabs = tabsOf(lines);
  const expectedEvents = recordedFrontendEvents(lines).length;
  const expectedCalls = inputs.filter((input) => input.channel === 'mcp_call').length;

  // One answerer per recorded tab; a live tab takes the recorded one whose first action it repeats.
  const answerers = new Map<string, ReplayAnswerer>();
  const firstAction = new Map<string, string>();
  const withoutTab = (name: string, params: Obj) => {
    const { tabId: _tabId, ...rest } = params;
    return `${name} ${JSON.stringify(rest)}`;
  };
  for (const task of recordedTabs) {
    const own = linesOfTab(lines, task);
    answerers.set(task, createReplayAnswerer(own, options.answerer));
    const first = recordedExchanges(own)[0];
    if (first) firstAction.set(task, withoutTab(first.actionName, first.frame.action[first.actionName] ?? {}));
  }
  const tabs = new Map<string, string>();
  const standsFor = new Map<string, string>();
  const unexpected: string[] = [];
  const recordedTabOf = (liveTask: string, name: string, params: Obj): string | undefined => {
    const known = standsFor.get(liveTask);
    if (known) return known;
    const free = recordedTabs.filter((task) => !tabs.has(task));
    const key = withoutTab(name, params);
    const chosen = free.find((task) => firstAction.get(task) === key) ?? free[0];
    if (chosen) {
      tabs.set(chosen, liveTask);
      standsFor.set(liveTask, chosen);
    }
    return chosen;
  };

  const recordDir = mkdtempSync(join(tmpdir(), 'mimo-mcp-run-replay-'));
  const files = createSessionRecorder({ dir: recordDir, clock: { now: () => Date.now() } });
  let liveRunId: string | undefined;
  const linkedTabs = new Set<string>();
  const live = { calls: 0, pluginFrames: 0, events: 0, returned: 0, runChanges: 0 };
  const waiting = createWokenWait();
  const recorder = {
    dir: files.dir,
    close: () => files.close(),
    link(taskId: string, into: string) {
      files.link(taskId, into);
      if (into === liveRunId) linkedTabs.add(taskId);
    },
    unlink(taskId: string, into: string) {
      files.unlink(taskId, into);
      if (into === liveRunId) linkedTabs.delete(taskId);
    },
    record(key: string, entry: Parameters<typeof files.record>[1]) {
      files.record(key, entry);
      if (entry.kind === 'mcp_call' && key.startsWith('run_')) liveRunId ??= key;
      if (key === liveRunId && entry.kind === 'mcp_call') live.calls++;
      else if (key === liveRunId && entry.kind === 'mcp_result') live.returned++;
      else if (key === liveRunId && entry.kind === 'run_change') live.runChanges++;
      else if (entry.kind === 'frame' && linkedTabs.has(key)) {
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
  const client = new Client({ name: 'mimo-mcp-run-replay', version: '0.0.0' });
  const results: Array<{ tool: string; arguments: Obj; result: unknown; canceled?: boolean }> = [];
  const aborts = new Map<string, AbortController>();
  let timedOut = false;
  /** The recorded run id and tab ids, as the live ones. */
  const toLive = (value: unknown): unknown => {
    let text = JSON.stringify(value);
    if (liveRunId) text = text.split(recordedRunId).join(liveRunId);
    for (const [recorded, liveTask] of tabs) text = text.split(recorded).join(liveTask);
    return JSON.parse(text);
  };
  try {
    const clientId = pluginClientIdOf(lines);
    if (clientId)
      plugin = await startFakePlugin({
        url: runtime.url,
        clientId,
        answer: (name, params, frame) => {
          const task = recordedTabOf(frame.taskId, name, params);
          const answerer = task ? answerers.get(task) : undefined;
          if (!answerer) {
            unexpected.push(`${name} (no recorded tab left)`);
            return { ack: false, result: null };
          }
          return answerer.answer(name, params, frame);
        },
      });
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
            input.afterResults > live.returned ||
            input.afterRunChanges > live.runChanges
          )
            return;
          next++;
          if (input.channel === 'mcp_call') {
            const { tool, callId } = input.call;
            const args = toLive(input.call.arguments) as Obj;
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
          } else if (input.channel === 'plugin_message' && plugin) {
            await plugin.send(toLive(input.payload) as Obj).catch(() => {});
          }
        }
      });
    };
    timedOut = await waiting.until(
      () => live.events >= expectedEvents && next >= inputs.length && live.returned >= expectedCalls,
      options.timeoutMs ?? 20_000,
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
    if (liveRunId) replayed = parseRecording(readFileSync(join(recordDir, `${liveRunId}.jsonl`), 'utf8'));
  } finally {
    rmSync(recordDir, { recursive: true, force: true });
  }
  const runIds = liveRunId ? [recordedRunId, liveRunId] : [recordedRunId];
  const expected: McpRunReplayParts = {
    results: recordedMcpCalls(lines).map((call) => describeRunCall(call, runIds)),
    events: tabEvents(lines, recordedTabs),
  };
  const actual: McpRunReplayParts = {
    results: results.map((call) => describeRunCall(call, runIds)),
    events: tabEvents(
      replayed,
      recordedTabs.map((task) => tabs.get(task)),
    ),
  };
  const mismatches = (['results', 'events'] as const)
    .map((part) => describeMismatch(part, expected[part], actual[part]))
    .filter(Boolean);
  return {
    recordedRunId,
    liveRunId,
    tabs,
    expected,
    actual,
    mismatches,
    lines: replayed,
    unexpectedActions: [...unexpected, ...[...answerers.values()].flatMap((a) => a.unexpected)],
    unusedActions: [...answerers.values()].flatMap((a) => a.unused().map((e) => `${e.actionName} ${e.actionId}`)),
    timedOut,
  };
}
