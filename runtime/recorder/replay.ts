// Replaying a recorded session (session-recorder.ts) in tests: (a) a fake-plugin Answerer that
// answers each browser_action as the recorded plugin did, (b) the mock OpenAI server script from
// the recorded LLM chunks, (c) the inputs to send (web messages, plugin-originated messages) keyed
// by how many frontend events came before each, so a replay is event-driven, not clock-driven.
// (d) the frontend event normalizer and the expected final task state are in event-descriptors.ts.
import type { MockChunk, MockResponse } from '../llm/mock-openai-server.ts';
import type { Answerer, BrowserActionFrame, FakeAnswer } from '../test-util/fake-plugin.ts';
import type { RecordedLine } from './session-recorder.ts';

export {
  describeFrontendEvents,
  formatDescriptor,
  recordedFrontendEvents,
  expectedTaskOutcome,
  describeTaskMessages,
  inTaskOrder,
  isLegacyRecording,
} from './event-descriptors.ts';
export type { EventDescriptor, TaskOutcome } from './event-descriptors.ts';

type FrameLine = Extract<RecordedLine, { kind: 'frame' }>;
type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const frames = (lines: RecordedLine[]) => lines.filter((l): l is FrameLine => l.kind === 'frame');

/** A plugin_message from the plugin that answers an action (new format or legacy). */
export function isActionResult(payload: unknown): payload is Obj & { actionId: string } {
  if (!isObj(payload) || typeof payload.actionId !== 'string') return false;
  return payload.type === 'browser_action_result' || (payload.type === undefined && typeof payload.status === 'string');
}

/** The task a recording belongs to (every recorded frame carries it). */
export function taskIdOf(lines: RecordedLine[]): string | undefined {
  for (const line of frames(lines)) {
    const payload = line.payload as Obj;
    if (isObj(payload) && typeof payload.taskId === 'string') return payload.taskId;
  }
  return undefined;
}

/** The clientId of the extension that served the task (from its browser_action frames). */
export function pluginClientIdOf(lines: RecordedLine[]): string | undefined {
  for (const line of frames(lines)) {
    if (
      line.channel === 'plugin_message' &&
      line.direction === 'out' &&
      isObj(line.payload) &&
      typeof line.payload.clientId === 'string'
    )
      return line.payload.clientId;
  }
  return undefined;
}

/** One emission of a browser_action (a retry is a second emission with the same actionId). */
export interface RecordedExchange {
  actionId: string;
  actionName: string;
  frame: BrowserActionFrame;
  t: number;
  ack?: { t: number; response: unknown };
  results: Array<{ t: number; payload: Obj }>;
}

export function recordedExchanges(lines: RecordedLine[]): RecordedExchange[] {
  const out: RecordedExchange[] = [];
  const latest = (actionId: string, wantsAck: boolean) => {
    for (let i = out.length - 1; i >= 0; i--) {
      const exchange = out[i]!;
      if (exchange.actionId === actionId && (!wantsAck || !exchange.ack)) return exchange;
    }
    return undefined;
  };
  for (const line of frames(lines)) {
    const payload = line.payload;
    if (
      line.channel === 'plugin_message' &&
      line.direction === 'out' &&
      isObj(payload) &&
      payload.type === 'browser_action' &&
      isObj(payload.action)
    ) {
      const [actionName] = Object.keys(payload.action);
      if (actionName)
        out.push({
          actionId: String(payload.id),
          actionName,
          frame: payload as unknown as BrowserActionFrame,
          t: line.t,
          results: [],
        });
    } else if (line.channel === 'plugin_ack' && isObj(payload) && typeof payload.actionId === 'string') {
      const exchange = latest(payload.actionId, true);
      if (exchange) exchange.ack = { t: line.t, response: payload.response };
    } else if (line.channel === 'plugin_message' && line.direction === 'in' && isActionResult(payload)) {
      latest(payload.actionId, false)?.results.push({ t: line.t, payload });
    }
  }
  return out;
}

export interface ReplayAnswerer {
  /** For startFakePlugin({ answer }). */
  answer: Answerer;
  /** Live actions the recording had no (more) answer for: "name #n". */
  unexpected: string[];
  /** Recorded emissions not asked for (yet). */
  unused(): RecordedExchange[];
}

export interface ReplayAnswererOptions {
  /** Waits (default setTimeout); recorded ack delays are waited here, result delays by the plugin. */
  wait?: (ms: number) => Promise<void>;
  /** Scale recorded delays (default 1). */
  timeScale?: number;
  /** Cap one recorded delay (default 10 s). */
  maxDelayMs?: number;
}

/**
 * (a) Answers each live browser_action with the recorded answer of the same action, in order per
 * action name: the recorded ack (or none), the recorded result(s) (none, one, a duplicate; new or
 * legacy format) after the recorded delays. Screenshot artifact ids and URLs are rewritten to the
 * live frame's presigned artifact.
 */
export function createReplayAnswerer(lines: RecordedLine[], options: ReplayAnswererOptions = {}): ReplayAnswerer {
  const queues = new Map<string, RecordedExchange[]>();
  for (const exchange of recordedExchanges(lines))
    queues.set(exchange.actionName, [...(queues.get(exchange.actionName) ?? []), exchange]);
  const seen = new Map<string, number>();
  const unexpected: string[] = [];
  const scale = options.timeScale ?? 1;
  const cap = options.maxDelayMs ?? 10_000;
  const delay = (ms: number) => Math.max(0, Math.min(cap, Math.round(ms * scale)));
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const answer: Answerer = async (name, _params, frame) => {
    const nth = (seen.get(name) ?? 0) + 1;
    seen.set(name, nth);
    const exchange = queues.get(name)?.shift();
    if (!exchange) {
      unexpected.push(`${name} #${nth}`);
      return { ack: false, result: null };
    }
    const ackDelay = exchange.ack ? delay(exchange.ack.t - exchange.t) : 0;
    if (ackDelay > 1) await wait(ackDelay);
    const first = exchange.results[0];
    const reply: FakeAnswer = { ack: exchange.ack !== undefined, result: null };
    if (first) {
      const rewritten = rewriteArtifact(first.payload, exchange.frame, frame);
      reply.result = resultOf(rewritten);
      reply.legacy = rewritten.type === undefined;
      reply.duplicate = exchange.results.length > 1;
      const resultDelay = delay(first.t - (exchange.ack?.t ?? exchange.t));
      if (resultDelay > 0) reply.delayMs = resultDelay;
    }
    return reply;
  };
  return { answer, unexpected, unused: () => [...queues.values()].flat() };
}

function resultOf(payload: Obj): NonNullable<FakeAnswer['result']> {
  const status = payload.status === 'partial' || payload.status === 'error' ? payload.status : 'success';
  const out: NonNullable<FakeAnswer['result']> = { status };
  if (isObj(payload.result)) out.result = payload.result;
  if (isObj(payload.error)) out.error = payload.error as { code: string; message: string; retryable?: boolean };
  else if (typeof payload.error === 'string') out.error = { code: payload.error, message: payload.error };
  return out;
}

/** The recorded screenshot answer names the recorded artifact; point it at the live one. */
function rewriteArtifact(payload: Obj, recorded: BrowserActionFrame, live: BrowserActionFrame): Obj {
  const before = artifactBase(recorded.screenshotPresignedUrl);
  const after = artifactBase(live.screenshotPresignedUrl);
  if (!before || !after) return payload;
  const text = JSON.stringify(payload).split(before.url).join(after.url).split(before.id).join(after.id);
  return JSON.parse(text) as Obj;
}

function artifactBase(uploadUrl: unknown): { url: string; id: string } | null {
  if (typeof uploadUrl !== 'string') return null;
  const url = uploadUrl.replace(/\/upload\?.*$/, '');
  const id = url.slice(url.lastIndexOf('/') + 1);
  return id ? { url, id } : null;
}

/**
 * (b) One mock response per recorded completion: chunks grouped by (attempt, chunk id) in order.
 * An attempt-1 stream followed by attempt 2 broke after its chunks, and is replayed so.
 */
export function llmScriptOf(lines: RecordedLine[]): MockResponse[] {
  const groups: Array<{ attempt: number; id: unknown; chunks: MockChunk[] }> = [];
  for (const line of lines) {
    if (line.kind !== 'llm_chunk' || !isObj(line.chunk)) continue;
    const last = groups[groups.length - 1];
    if (last && last.attempt === line.attempt && last.id === line.chunk.id) last.chunks.push(line.chunk);
    else groups.push({ attempt: line.attempt, id: line.chunk.id, chunks: [line.chunk] });
  }
  return groups.map((group, i) =>
    group.attempt === 1 && groups[i + 1]?.attempt === 2
      ? { chunks: group.chunks, breakAfterChunks: group.chunks.length }
      : group.chunks,
  );
}

/** (c) Something to send during a replay, once `afterEvents` frontend events of the task were seen. */
export interface ReplayInput {
  channel: 'frontend_message' | 'plugin_message';
  payload: Obj;
  afterEvents: number;
  /** When it came in the recording (ms after the session's first entry), for reference. */
  t: number;
}

export function replayInputs(lines: RecordedLine[]): ReplayInput[] {
  const inputs: ReplayInput[] = [];
  let events = 0;
  for (const line of frames(lines)) {
    if (line.channel === 'frontend_event' && line.direction === 'out') events++;
    else if (line.direction === 'in' && isObj(line.payload)) {
      if (line.channel === 'frontend_message')
        inputs.push({ channel: 'frontend_message', payload: line.payload, afterEvents: events, t: line.t });
      else if (line.channel === 'plugin_message' && !isActionResult(line.payload))
        inputs.push({ channel: 'plugin_message', payload: line.payload, afterEvents: events, t: line.t });
    }
  }
  return inputs;
}
