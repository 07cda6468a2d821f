// Replaying a recorded MCP session (an MCP session's task file: `mcp_call` / `mcp_result` entries
// beside its frames and inspection records, session-recorder.ts): the calls to make again and the
// plugin-originated messages to send, each keyed by what came before it in the recording (so a
// replay is event-driven, not clock-driven); the tool results, normalized as compared; the
// inspection records, as compared; and a readable diff of two descriptor lists.
import { isActionResult } from './replay.ts';
import type { RecordedLine } from './session-recorder.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface RecordedMcpCall {
  callId: string;
  tool: string;
  arguments: Obj;
  /** The CallToolResult the client got. */
  result: unknown;
  canceled: boolean;
  /** When the call arrived (ms after the session's first entry). */
  t: number;
}

/** The recorded calls in the order they arrived, with their results (a call without one is left out). */
export function recordedMcpCalls(lines: readonly RecordedLine[]): RecordedMcpCall[] {
  const results = new Map<string, Extract<RecordedLine, { kind: 'mcp_result' }>>();
  for (const line of lines) if (line.kind === 'mcp_result') results.set(line.callId, line);
  const calls: RecordedMcpCall[] = [];
  for (const line of lines) {
    const done = line.kind === 'mcp_call' ? results.get(line.callId) : undefined;
    if (done)
      calls.push({
        callId: done.callId,
        tool: done.tool,
        arguments: isObj(done.arguments) ? done.arguments : {},
        result: done.result,
        canceled: done.canceled === true,
        t: line.t,
      });
  }
  return calls;
}

/**
 * Something to do during the replay once as much had happened as before it in the recording:
 * `afterCalls` calls had reached the server, `afterPluginFrames` frames of the task had been
 * exchanged with the plugin (actions, acks, results, its own messages),
 * `afterEvents` frontend events of the task were emitted and `afterResults` calls had returned.
 * (An MCP session's steps tell the web only when they settle: the calls and the plugin frames
 * order a plugin's takeover_report or resume among the calls and the steps.)
 */
export interface McpReplayProgress {
  afterCalls: number;
  afterPluginFrames: number;
  afterEvents: number;
  afterResults: number;
  /** A template run's file: as many changes of the run's status or progress had been recorded. */
  afterRunChanges: number;
}

export type McpReplayInput = McpReplayProgress & { t: number } & (
    | { channel: 'mcp_call'; call: RecordedMcpCall }
    /** The client cancels that call (made earlier in the replay). */
    | { channel: 'mcp_cancel'; callId: string }
    | { channel: 'plugin_message'; payload: Obj }
    | { channel: 'frontend_message'; payload: Obj }
  );

export function mcpReplayInputs(lines: readonly RecordedLine[]): McpReplayInput[] {
  const calls = new Map(recordedMcpCalls(lines).map((call) => [call.callId, call]));
  const inputs: McpReplayInput[] = [];
  const seen = { afterCalls: 0, afterPluginFrames: 0, afterEvents: 0, afterResults: 0, afterRunChanges: 0 };
  for (const line of lines) {
    const at = { ...seen, t: line.t };
    if (line.kind === 'mcp_call') {
      const call = calls.get(line.callId);
      if (call) inputs.push({ ...at, channel: 'mcp_call', call });
      seen.afterCalls++;
    } else if (line.kind === 'mcp_cancel') {
      if (calls.has(line.callId)) inputs.push({ ...at, channel: 'mcp_cancel', callId: line.callId });
    } else if (line.kind === 'mcp_result') seen.afterResults++;
    else if (line.kind === 'run_change') seen.afterRunChanges++;
    else if (line.kind === 'frame') {
      if (line.channel === 'frontend_event' && line.direction === 'out') seen.afterEvents++;
      else if (line.direction === 'in' && isObj(line.payload)) {
        if (line.channel === 'frontend_message')
          inputs.push({ ...at, channel: 'frontend_message', payload: line.payload });
        else if (line.channel === 'plugin_message' && !isActionResult(line.payload))
          inputs.push({ ...at, channel: 'plugin_message', payload: line.payload });
      }
      if (line.channel === 'plugin_message' || line.channel === 'plugin_ack') seen.afterPluginFrames++;
    }
  }
  return inputs;
}

/** Artifact ids and the server's own URLs differ from run to run; the rest of a result must not. */
function normalized(text: string): string {
  return text
    .replace(/art-[A-Za-z0-9_-]{21}/g, 'art-*')
    .replace(/https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/api\//g, '<server>/api/');
}

/**
 * One line per call: the tool, its arguments, and the result as the client got it (normalized):
 * `isError` when set, the content's text, and the structured content only where it is not that
 * text's JSON (browser-shell and the seed 003 tools send the same JSON both ways); a call the
 * client canceled got no result.
 */
export function describeMcpCall(
  call: Pick<RecordedMcpCall, 'tool' | 'arguments' | 'result'> & { canceled?: boolean },
): string {
  if (call.canceled) return normalized(`${call.tool} ${JSON.stringify(call.arguments)} -> canceled by the client`);
  const result = isObj(call.result) ? call.result : { unexpected: call.result };
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.map((part) => (isObj(part) && part.type === 'text' ? String(part.text) : JSON.stringify(part)));
  const structured = result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  const shown = [
    ...(result.isError === true ? ['isError'] : []),
    ...texts,
    ...(structured !== undefined && !texts.includes(structured) ? [`structured ${structured}`] : []),
    ...(!Array.isArray(result.content) ? [JSON.stringify(result)] : []),
  ];
  return normalized(`${call.tool} ${JSON.stringify(call.arguments)} -> ${shown.join(' | ')}`);
}

/** Machines whose snapshots are compared (the anonymous promise actors are not). */
const COMPARED_MACHINES = new Set(['task', 'action', 'pagePrep']);

/**
 * The task's machine snapshots in recorded order: machine, state value, status and the event that
 * caused it (ids, timestamps and context are left out). Works on compacted fixtures too.
 */
export function describeInspection(lines: readonly RecordedLine[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.kind !== 'inspection' || !isObj(line.record)) continue;
    const record = line.record;
    if (record.type !== '@xstate.snapshot' || !COMPARED_MACHINES.has(String(record.machineId))) continue;
    const event = isObj(record.event) ? ` <- ${String(record.event.type)}` : '';
    out.push(`${String(record.machineId)} ${JSON.stringify(record.value)} ${String(record.status)}${event}`);
  }
  return out;
}

/**
 * A readable diff of two lists ('' when equal): the first line that differs with a few lines of
 * context on each side, and the lengths.
 */
export function describeMismatch(label: string, expected: readonly string[], actual: readonly string[]): string {
  let first = 0;
  while (first < expected.length && first < actual.length && expected[first] === actual[first]) first++;
  if (first === expected.length && first === actual.length) return '';
  const from = Math.max(0, first - 3);
  const show = (list: readonly string[]) =>
    list
      .slice(from, first + 4)
      .map((line, i) => `${from + i === first ? '>' : ' '} ${from + i}: ${line}`)
      .join('\n');
  return [
    `${label}: the replay differs at #${first} (recorded ${expected.length}, replayed ${actual.length})`,
    'recorded:',
    show(expected) || '  (nothing)',
    'replayed:',
    show(actual) || '  (nothing)',
  ].join('\n');
}
