// Replays one recorded template run (a run's file: its client's calls, its status changes and
// every frame of the tabs that served it, each with its `task`; runtime/mcp/mcp-run-recording.ts)
// against a fresh server, driven as replayMcpSession is (mcp-replay-driver.ts: each call and
// cancel once as much had happened as before it when recorded, here also as many run changes).
// The recorded run id in a later call's arguments is the live one's. A fake plugin answers each
// live tab from the recorded tab it stands for: the one whose first action was the same (name and
// parameters, the tab id aside), else the next recorded tab not yet taken.
// Compared: the tool results (run ids, session ids, times and artifact ids left out) and each
// tab's frontend events in seq order, tab by tab in recorded order.
import {
  describeFrontendEvents,
  formatDescriptor,
  inTaskOrder,
  recordedFrontendEvents,
} from '../recorder/event-descriptors.ts';
import { describeMcpCall, describeMismatch, recordedMcpCalls } from '../recorder/mcp-replay.ts';
import { createReplayAnswerer, recordedExchanges, type ReplayAnswerer } from '../recorder/replay.ts';
import type { RecordedLine } from '../recorder/session-recorder.ts';
import { driveMcpReplay, progressOf, type McpReplayOptions } from './mcp-replay-driver.ts';

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
  options: McpReplayOptions = {},
): Promise<McpRunReplayOutcome> {
  const recordedRunId = runIdOf(lines);
  if (!recordedRunId) throw new Error('the recording has no run_task_template result with a runId');
  const recordedTabs = tabsOf(lines);

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

  let liveRunId: string | undefined;
  const linkedTabs = new Set<string>();
  const driven = await driveMcpReplay({
    lines,
    label: 'mcp-run-replay',
    ...options,
    timeoutMs: options.timeoutMs ?? 20_000,
    answer: (name, params, frame) => {
      const task = recordedTabOf(frame.taskId, name, params);
      const answerer = task ? answerers.get(task) : undefined;
      if (answerer) return answerer.answer(name, params, frame);
      unexpected.push(`${name} (no recorded tab left)`);
      return { ack: false, result: null };
    },
    // The run's file counts its calls and changes; the tabs linked to it, their frames and events.
    counts(key, entry) {
      if (entry.kind === 'mcp_call' && key.startsWith('run_')) liveRunId ??= key;
      if (key === liveRunId) return progressOf(entry);
      return entry.kind === 'frame' && linkedTabs.has(key) ? progressOf(entry) : undefined;
    },
    linked(taskId, into, on) {
      if (into !== liveRunId) return;
      if (on) linkedTabs.add(taskId);
      else linkedTabs.delete(taskId);
    },
    /** The recorded run id and tab ids, as the live ones. */
    toLive(value) {
      let text = JSON.stringify(value);
      if (liveRunId) text = text.split(recordedRunId).join(liveRunId);
      for (const [recorded, liveTask] of tabs) text = text.split(recorded).join(liveTask);
      return JSON.parse(text) as Obj;
    },
    liveFile: () => liveRunId,
  });
  const runIds = liveRunId ? [recordedRunId, liveRunId] : [recordedRunId];
  const expected: McpRunReplayParts = {
    results: recordedMcpCalls(lines).map((call) => describeRunCall(call, runIds)),
    events: tabEvents(lines, recordedTabs),
  };
  const actual: McpRunReplayParts = {
    results: driven.made.map((call) => describeRunCall(call, runIds)),
    events: tabEvents(
      driven.lines,
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
    lines: driven.lines,
    unexpectedActions: [...unexpected, ...[...answerers.values()].flatMap((a) => a.unexpected)],
    unusedActions: [...answerers.values()].flatMap((a) => a.unused().map((e) => `${e.actionName} ${e.actionId}`)),
    timedOut: driven.timedOut,
  };
}
