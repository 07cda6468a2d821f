// Replays one recorded MCP session (an MCP session's task file) against a fresh server
// (mcp-replay-driver.ts: the session runtime with /mcp and its own recorder, a fake plugin with the
// recording's clientId answering from the recording, the real MCP SDK client making the recorded
// calls, each call and each plugin-originated message such as a takeover_report sent once as many
// calls had arrived, frames been exchanged with the plugin, frontend events been emitted and calls
// returned as before it when recorded). The live session's own recording is then compared with
// the recorded one: the tool results the client got, the frontend events (in the task's seq
// order) and the task's machine snapshots (in order); `mismatches` holds a readable diff of each
// part that differs.
import {
  describeFrontendEvents,
  formatDescriptor,
  inTaskOrder,
  recordedFrontendEvents,
} from '../recorder/event-descriptors.ts';
import { describeInspection, describeMcpCall, describeMismatch, recordedMcpCalls } from '../recorder/mcp-replay.ts';
import { createReplayAnswerer, taskIdOf } from '../recorder/replay.ts';
import type { RecordedLine } from '../recorder/session-recorder.ts';
import type { BrowserActionFrame } from '../test-util/fake-plugin.ts';
import { driveMcpReplay, progressOf, type McpReplayOptions } from './mcp-replay-driver.ts';

export type { McpReplayOptions };

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
  if (!lines.some((line) => line.kind === 'mcp_call')) throw new Error('the recording has no MCP call');
  const answerer = createReplayAnswerer(lines, options.answerer);
  let liveTaskId: string | undefined;
  const driven = await driveMcpReplay({
    lines,
    label: 'mcp-replay',
    ...options,
    timeoutMs: options.timeoutMs ?? 15_000,
    answer: answerer.answer,
    // The first call names the session's task; its calls, plugin frames and events are counted.
    counts(taskId, entry) {
      if (entry.kind === 'mcp_call') liveTaskId ??= taskId;
      return taskId === liveTaskId ? progressOf(entry) : undefined;
    },
    // The recorded task id is the live one's in this replay.
    toLive: (value) =>
      liveTaskId ? (JSON.parse(JSON.stringify(value).split(recordedTaskId).join(liveTaskId)) as typeof value) : value,
    liveFile: () => liveTaskId,
  });
  const expected = partsOf(lines, recordedTaskId);
  const actual = {
    ...(liveTaskId ? partsOf(driven.lines, liveTaskId) : { events: [], inspection: [] }),
    results: driven.made.map(describeMcpCall),
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
    lines: driven.lines,
    unexpectedActions: [...answerer.unexpected],
    unusedActions: answerer.unused().map((e) => `${e.actionName} ${e.actionId}`),
    pluginFrames: driven.pluginFrames,
    inputAcks: driven.pluginAcks,
    timedOut: driven.timedOut,
  };
}
