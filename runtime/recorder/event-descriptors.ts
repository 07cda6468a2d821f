// Comparable descriptors of a task's frontend events (what a replay must reproduce), and the
// task's final state as a recording implies it. Ids, timestamps, durations and chunk boundaries
// are left out: chatDelta text is joined per targetEventId (one descriptor where its first delta
// was), so the same answer streamed in other pieces still compares equal.
import type { RecordedLine } from './session-recorder.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export type EventDescriptor =
  | { type: 'chatDelta'; text: string; finished: boolean }
  | { type: 'toolUsed'; actionName: string; phase: string; code?: string }
  | { type: 'taskStatus'; status: string; previous?: string }
  | { type: 'structuredOutput'; status: string; code?: string; message?: string }
  | { type: 'usage'; promptTokens: number; completionTokens: number; totalTokens: number }
  | { type: 'userMessage'; content: string }
  | { type: string };

/** The frontend_event envelopes a recording emitted, in order. */
export function recordedFrontendEvents(lines: RecordedLine[]): Obj[] {
  return lines
    .filter((l) => l.kind === 'frame' && l.channel === 'frontend_event' && l.direction === 'out' && isObj(l.payload))
    .map((l) => (l as { payload: Obj }).payload);
}

/** A recording made before envelopes carried a seq (and before the userMessage event). */
export function isLegacyRecording(envelopes: readonly Obj[]): boolean {
  return envelopes.length > 0 && envelopes.every((e) => e.seq === undefined);
}

/**
 * The task's envelopes in the task's one order: by seq (stable; an envelope without one stays
 * after the one before it). For a legacy recording's comparison, `dropUserMessages` leaves out
 * the userMessage events it could not have.
 */
export function inTaskOrder<T extends Obj>(envelopes: readonly T[], options: { dropUserMessages?: boolean } = {}): T[] {
  const kept = options.dropUserMessages
    ? envelopes.filter((e) => !(isObj(e.event) && e.event.type === 'userMessage'))
    : [...envelopes];
  let last = 0;
  const keyed = kept.map((envelope, index) => {
    if (typeof envelope.seq === 'number') last = envelope.seq;
    return { envelope, key: last, index };
  });
  return keyed.sort((a, b) => a.key - b.key || a.index - b.index).map((k) => k.envelope);
}

/**
 * (d) Envelopes -> descriptors; with `taskId`, only that task's envelopes count. With `segments`
 * (recordings in the task's seq order), text is joined per run of deltas between other events,
 * so where each piece of text was shown among the steps is compared too.
 */
export function describeFrontendEvents(
  envelopes: readonly unknown[],
  options: { taskId?: string; segments?: boolean } = {},
): EventDescriptor[] {
  const out: EventDescriptor[] = [];
  const chats = new Map<string, { type: 'chatDelta'; text: string; finished: boolean }>();
  let run: { type: 'chatDelta'; text: string; finished: boolean } | null = null;
  for (const envelope of envelopes) {
    if (!isObj(envelope) || !isObj(envelope.event)) continue;
    if (options.taskId !== undefined && envelope.taskId !== options.taskId) continue;
    const event = envelope.event;
    const type = String(event.type);
    const errorCode = isObj(event.error) && typeof event.error.code === 'string' ? event.error.code : undefined;
    if (options.segments) {
      if (type !== 'chatDelta') run = null;
      else {
        if (!run) out.push((run = { type: 'chatDelta', text: '', finished: false }));
        run.text += isObj(event.delta) ? String(event.delta.content ?? '') : '';
        if (event.finished === true) run.finished = true;
        continue;
      }
    }
    switch (type) {
      case 'chatDelta': {
        const target = String(event.targetEventId);
        let chat = chats.get(target);
        if (!chat) {
          chat = { type: 'chatDelta', text: '', finished: false };
          chats.set(target, chat);
          out.push(chat);
        }
        chat.text += isObj(event.delta) ? String(event.delta.content ?? '') : '';
        if (event.finished === true) chat.finished = true;
        break;
      }
      case 'toolUsed':
        out.push({
          type,
          actionName: String(event.actionName),
          phase: String(event.phase),
          ...(errorCode ? { code: errorCode } : {}),
        });
        break;
      case 'taskStatus':
        out.push({
          type,
          status: String(event.status),
          ...(typeof event.previous === 'string' ? { previous: event.previous } : {}),
        });
        break;
      case 'structuredOutput':
        out.push({
          type,
          status: String(event.status),
          ...(errorCode ? { code: errorCode } : {}),
          ...(typeof event.message === 'string' ? { message: event.message } : {}),
        });
        break;
      case 'userMessage':
        out.push({ type, content: String(event.content) });
        break;
      case 'usage':
        out.push({
          type,
          promptTokens: Number(event.promptTokens),
          completionTokens: Number(event.completionTokens),
          totalTokens: Number(event.totalTokens),
        });
        break;
      default:
        out.push({ type });
    }
  }
  return out;
}

/** One line per descriptor, for readable assertions and diffs. */
export function formatDescriptor(d: EventDescriptor): string {
  const x = d as Obj;
  switch (d.type) {
    case 'chatDelta':
      return `chatDelta${x.finished ? ' (finished)' : ''}: ${JSON.stringify(x.text)}`;
    case 'toolUsed':
      return `toolUsed ${x.actionName} ${x.phase}${x.code ? ` ${x.code}` : ''}`;
    case 'taskStatus':
      return `taskStatus ${x.previous ? `${x.previous} -> ` : ''}${x.status}`;
    case 'structuredOutput':
      return `structuredOutput ${x.status}${x.code ? ` ${x.code}` : ''}${x.message ? `: ${x.message}` : ''}`;
    case 'usage':
      return `usage ${x.promptTokens}+${x.completionTokens}=${x.totalTokens}`;
    case 'userMessage':
      return `userMessage: ${JSON.stringify(x.content)}`;
    default:
      return d.type;
  }
}

export interface TaskOutcome {
  /** The last taskStatus the recording emitted. */
  status: string | undefined;
  /** The persisted messages as describeTaskMessages writes them. */
  messages: string[];
}

/**
 * The final task state a recording implies: its last status, and the messages the orchestrator
 * persists: each user_message, a tool message per finished browser action (one a Stop cut short
 * mid-action only once the browser's late answer came), an assistant message
 * per turn that ended normally with text, a system note per info structuredOutput.
 */
export function expectedTaskOutcome(lines: RecordedLine[]): TaskOutcome {
  const messages: string[] = [];
  const seenUserIds = new Set<string>();
  let status: string | undefined;
  const turns = new Map<string, { text: string; failed: boolean }>();
  /** Actions whose `start` was seen and that have not settled yet. */
  const started = new Set<string>();
  let previous: Obj | undefined;
  for (const line of lines) {
    if (line.kind !== 'frame' || !isObj(line.payload)) continue;
    const payload = line.payload;
    if (line.channel === 'frontend_message' && payload.type === 'user_message') {
      if (seenUserIds.has(String(payload.id))) continue;
      seenUserIds.add(String(payload.id));
      turns.set(String(payload.id), { text: '', failed: false });
      messages.push(`user: ${String(payload.content)}`);
    }
    if (line.channel !== 'frontend_event' || !isObj(payload.event)) continue;
    const event = payload.event;
    if (event.type === 'taskStatus') {
      status = String(event.status);
      // A turn cut short by stop (or an error) keeps its text out of the history.
      if (status === 'completed' || status === 'error') for (const turn of turns.values()) turn.failed = true;
    } else if (event.type === 'toolUsed' && event.phase === 'start') {
      started.add(String(event.actionId));
    } else if (event.type === 'toolUsed') {
      const actionId = String(event.actionId);
      const stoppedMidAction =
        started.has(actionId) && event.phase === 'error' && isObj(event.error) && event.error.code === 'TASK_STOPPED';
      started.delete(actionId);
      // A step a Stop cut short after it was sent is held back from the history until the
      // browser's late answer (a second settle of the same action) says what happened, or a grace
      // passes (runtime/agent/stopped-steps.ts); the sessions here end before that grace.
      if (!stoppedMidAction)
        messages.push(`tool: ${String(event.actionName)} ${event.phase === 'error' ? 'error' : 'ok'}`);
    } else if (event.type === 'structuredOutput' && event.status === 'info' && typeof event.message === 'string') {
      messages.push(`system: ${event.message}`);
    } else if (
      event.type === 'structuredOutput' &&
      event.status === 'error' &&
      event.message === undefined &&
      isObj(event.error)
    ) {
      // A failed turn's cause (task-session.ts reportFailure) is stored as its outcome note.
      messages.push(`system: The task failed: ${String(event.error.message)}`);
    } else if (event.type === 'chatDelta') {
      const turn = turns.get(String(event.targetEventId));
      if (turn && isObj(event.delta)) turn.text += String(event.delta.content ?? '');
      if (turn && event.finished === true) {
        const failedNow = isObj(previous) && previous.type === 'structuredOutput' && previous.status === 'error';
        if (turn.text && !turn.failed && !failedNow) messages.push(`assistant: ${turn.text}`);
        turns.delete(String(event.targetEventId));
      }
    }
    previous = event;
  }
  return { status, messages };
}

/** Persisted messages (GET /api/task/:id `messages`) in the form expectedTaskOutcome uses. */
export function describeTaskMessages(messages: ReadonlyArray<{ role: string; content: string; meta?: Obj }>): string[] {
  return messages.map((m) => {
    if (m.role !== 'tool') return `${m.role}: ${m.content}`;
    let parsed: Obj = {};
    try {
      parsed = JSON.parse(m.content) as Obj;
    } catch {
      // not JSON: fall back to the meta
    }
    const name = m.meta?.actionName ?? parsed.name;
    const ok = m.meta?.ok ?? parsed.ok;
    return `tool: ${String(name)} ${ok ? 'ok' : 'error'}`;
  });
}
