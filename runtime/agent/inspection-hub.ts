// Live machine inspection: XState's `inspect` records of every task / action / page-prep actor,
// made JSON-safe and handed to the listeners of that task (web clients that subscribed), and,
// with MIMO_INSPECT=stately, to the Stately Inspector (runtime/stately-bridge.ts). Records are
// redacted (`redact`, runtime/redaction) before they reach a listener; the forwarded raw events
// are redacted by their sinks (the bridge, the recorder).
// Records are built lazily: an event nobody watches is kept as a light note (the ids read off
// its actor, a reference to its snapshot and event, the time) in the task's bounded ring, and
// only becomes a record (context summary, bounded redacted copy of the event) when a subscriber
// asks for the recent ones. Most events of most tasks are never looked at.
import type { InspectionEvent } from 'xstate';
import { redactedPayload, redactedScalars } from './inspection-redact.ts';

export interface InspectionRecordJson {
  type: '@xstate.actor' | '@xstate.snapshot' | '@xstate.event';
  actorId: string;
  machineId?: string;
  parentId?: string;
  value?: unknown;
  status?: string;
  /** The event, JSON-safe, bounded, with secrets redacted (inspection-redact.ts). */
  event?: { type: string } & Record<string, unknown>;
  /** The actor's own id (`task:01M8…`, `act-…`), readable where actorId is a session id. */
  name?: string;
  sourceId?: string;
  context?: unknown;
  timestamp: number;
}

type Listener = (record: InspectionRecordJson) => void;

/** The inspection events that become records (microsteps and actions are not drawn). */
type RecordedEvent = Extract<InspectionEvent, { type: InspectionRecordJson['type'] }>;
const RECORDED = new Set<string>([
  '@xstate.actor',
  '@xstate.snapshot',
  '@xstate.event',
] satisfies InspectionRecordJson['type'][]);
const isRecorded = (event: InspectionEvent): event is RecordedEvent => RECORDED.has(event.type);

/** What an inspection event leaves until someone looks: cheap reads only, no copies. */
class InspectionNote {
  machineId?: string;
  parentId?: string;
  name?: string;
  sourceId?: string;
  /** The actor's snapshot at the time (@xstate.snapshot, @xstate.actor). */
  snapshot?: { value?: unknown; status?: string; context?: Record<string, unknown> };
  /** The event (@xstate.event, @xstate.snapshot). */
  event?: unknown;
  constructor(
    readonly type: RecordedEvent['type'],
    readonly actorId: string,
    readonly timestamp: number,
  ) {}
}

function noteOf(event: RecordedEvent, now: number): InspectionNote {
  const actorRef = event.actorRef as unknown as {
    id: string;
    getSnapshot?: () => unknown;
    sessionId: string;
    logic?: { id?: string; config?: { id?: string } };
    _parent?: { sessionId: string };
  };
  const note = new InspectionNote(event.type, actorRef.sessionId, now);
  const machineId = actorRef.logic?.id ?? actorRef.logic?.config?.id;
  if (machineId) note.machineId = machineId;
  if (actorRef._parent) note.parentId = actorRef._parent.sessionId;
  if (actorRef.id && actorRef.id !== actorRef.sessionId) note.name = actorRef.id;
  if (event.type === '@xstate.snapshot') note.snapshot = event.snapshot as InspectionNote['snapshot'];
  else if (event.type === '@xstate.actor') note.snapshot = actorRef.getSnapshot?.() as InspectionNote['snapshot'];
  if (event.type === '@xstate.event' || event.type === '@xstate.snapshot') note.event = event.event;
  if (event.type === '@xstate.event' && event.sourceRef) note.sourceId = event.sourceRef.sessionId;
  return note;
}

/**
 * The context a record summarises (its scalar fields). The action slot (the task actor's `action`
 * region, or an actionMachine actor) keeps the action in flight under `current` (else the last
 * settled one under `last`): their fields (actionId, actionName, attempts, ...) are summarised as
 * its own, as they were when each action had an actor.
 */
function contextSummaryOf(machineId: string | undefined, context: Record<string, unknown>): Record<string, unknown> {
  if (machineId !== 'action' && machineId !== 'task') return context;
  const action = context.current ?? context.last;
  return typeof action === 'object' && action !== null && !Array.isArray(action)
    ? { ...context, ...(action as Record<string, unknown>) }
    : context;
}

/** The record of a note: JSON-safe, small fields: the value, status, event type, a context summary. */
function recordOf(note: InspectionNote): InspectionRecordJson {
  const record: InspectionRecordJson = { type: note.type, actorId: note.actorId, timestamp: note.timestamp };
  if (note.machineId) record.machineId = note.machineId;
  if (note.parentId) record.parentId = note.parentId;
  if (note.name) record.name = note.name;
  const snapshot = note.snapshot;
  if (snapshot?.value !== undefined) record.value = snapshot.value;
  if (snapshot?.status !== undefined) record.status = snapshot.status;
  if (snapshot?.context) record.context = redactedScalars(contextSummaryOf(note.machineId, snapshot.context));
  if (note.event !== undefined) {
    const type = (note.event as { type?: unknown })?.type;
    if (typeof type === 'string')
      record.event = note.type === '@xstate.event' ? { ...redactedPayload(note.event), type } : { type };
  }
  if (note.sourceId) record.sourceId = note.sourceId;
  return record;
}

/** Keeps only JSON-safe, small fields: the value, status, event type, a context summary. */
export function toInspectionRecord(event: InspectionEvent, now: number): InspectionRecordJson | null {
  return isRecorded(event) ? recordOf(noteOf(event, now)) : null;
}

export interface InspectionHub {
  /** The `inspect` option for actors of this task. */
  observerFor(taskId: string): (event: InspectionEvent) => void;
  subscribe(taskId: string, listener: Listener): () => void;
  /** The recent records of a task (replayed to a new subscriber so it can draw the current state). */
  recent(taskId: string): InspectionRecordJson[];
}

export function createInspectionHub(options: {
  clock: { now(): number };
  /** Records kept per task for late subscribers (default 200). */
  keep?: number;
  /**
   * Tasks whose records are kept (default 500): the ones with the most recent records. A task
   * past that loses its history (as after a restart) unless someone is watching it.
   */
  keepTasks?: number;
  forward?: (taskId: string, event: InspectionEvent) => void;
  /** Applied to each record before anyone sees it (runtime/redaction: secret-named fields, typed passwords). */
  redact?: <T>(record: T) => T;
}): InspectionHub {
  const listeners = new Map<string, Set<Listener>>();
  /** In order of the last record: the least recently active task first. */
  const history = new Map<string, RecordRing>();
  const keep = options.keep ?? 200;
  const keepTasks = Math.max(1, options.keepTasks ?? 500);
  let newest: string | null = null;
  const build = (note: InspectionNote): InspectionRecordJson => {
    const raw = recordOf(note);
    return options.redact ? options.redact(raw) : raw;
  };

  function ringOf(taskId: string): RecordRing {
    let ring = history.get(taskId);
    if (ring && newest === taskId) return ring;
    if (ring)
      history.delete(taskId); // re-inserted last: most recently active
    else ring = createRecordRing(keep);
    history.set(taskId, ring);
    newest = taskId;
    if (history.size > keepTasks) {
      for (const oldest of history.keys()) {
        if (history.size <= keepTasks) break;
        if (!listeners.has(oldest)) history.delete(oldest);
      }
    }
    return ring;
  }

  return {
    observerFor(taskId) {
      return (event) => {
        options.forward?.(taskId, event);
        if (!isRecorded(event)) return; // before reading the clock
        const note = noteOf(event, options.clock.now());
        const watching = listeners.get(taskId);
        if (!watching) {
          ringOf(taskId).push(note);
          return;
        }
        const record = build(note);
        ringOf(taskId).push(record);
        for (const listener of watching) listener(record);
      };
    },
    subscribe(taskId, listener) {
      const set = listeners.get(taskId) ?? new Set();
      set.add(listener);
      listeners.set(taskId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(taskId);
      };
    },
    recent: (taskId) => history.get(taskId)?.items(build) ?? [],
  };
}

interface RecordRing {
  push(item: InspectionNote | InspectionRecordJson): void;
  /** Oldest first; notes are built into records (once) on the way out. */
  items(build: (note: InspectionNote) => InspectionRecordJson): InspectionRecordJson[];
}

/** The last `size` notes or records of a task: a fixed array written round, so a push never moves the rest. */
function createRecordRing(capacity: number): RecordRing {
  const size = Math.max(1, capacity);
  const slots: Array<InspectionNote | InspectionRecordJson> = [];
  let next = 0;
  return {
    push(item) {
      if (slots.length < size) slots.push(item);
      else slots[next] = item;
      next = (next + 1) % size;
    },
    items(build) {
      const out: InspectionRecordJson[] = [];
      const start = slots.length < size ? 0 : next;
      for (let n = 0; n < slots.length; n++) {
        const i = (start + n) % slots.length;
        const slot = slots[i]!;
        const record = slot instanceof InspectionNote ? build(slot) : slot;
        slots[i] = record;
        out.push(record);
      }
      return out;
    },
  };
}
