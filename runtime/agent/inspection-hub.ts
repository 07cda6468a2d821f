// Live machine inspection: XState's `inspect` records of every task / action / page-prep actor,
// made JSON-safe and handed to the listeners of that task (web clients that subscribed), and,
// with MIMO_INSPECT=stately, to the Stately Inspector (runtime/stately-bridge.ts). Records are
// redacted (`redact`, runtime/redaction) before they reach a listener; the forwarded raw events
// are redacted by their sinks (the bridge, the recorder).
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
const RECORDED = new Set<string>(['@xstate.actor', '@xstate.snapshot', '@xstate.event'] satisfies InspectionRecordJson['type'][]);
const isRecorded = (event: InspectionEvent): event is RecordedEvent => RECORDED.has(event.type);

/** Keeps only JSON-safe, small fields: the value, status, event type, a context summary. */
export function toInspectionRecord(event: InspectionEvent, now: number): InspectionRecordJson | null {
  if (!isRecorded(event)) return null;
  const actorRef = event.actorRef as unknown as { id: string; getSnapshot?: () => unknown; sessionId: string; logic?: { id?: string; config?: { id?: string } }; _parent?: { sessionId: string } };
  const machineId = actorRef.logic?.id ?? actorRef.logic?.config?.id;
  // Fields are set one by one (no conditional spreads): this runs for every recorded event.
  const record: InspectionRecordJson = { type: event.type, actorId: actorRef.sessionId, timestamp: now };
  if (machineId) record.machineId = machineId;
  if (actorRef._parent) record.parentId = actorRef._parent.sessionId;
  if (actorRef.id && actorRef.id !== actorRef.sessionId) record.name = actorRef.id;
  if (event.type === '@xstate.snapshot' || event.type === '@xstate.actor') {
    const snapshot = (event.type === '@xstate.snapshot' ? event.snapshot : actorRef.getSnapshot?.()) as
      | { value?: unknown; status?: string; context?: Record<string, unknown> }
      | undefined;
    if (snapshot?.value !== undefined) record.value = snapshot.value;
    if (snapshot?.status !== undefined) record.status = snapshot.status;
    if (snapshot?.context) record.context = redactedScalars(snapshot.context);
  }
  if (event.type === '@xstate.event' || event.type === '@xstate.snapshot') {
    const type = (event.event as { type?: unknown })?.type;
    if (typeof type === 'string') record.event = event.type === '@xstate.event' ? { ...redactedPayload(event.event), type } : { type };
    if (event.type === '@xstate.event' && event.sourceRef) record.sourceId = event.sourceRef.sessionId;
  }
  return record;
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

  function ringOf(taskId: string): RecordRing {
    let ring = history.get(taskId);
    if (ring && newest === taskId) return ring;
    if (ring) history.delete(taskId); // re-inserted last: most recently active
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
        const raw = toInspectionRecord(event, options.clock.now());
        if (!raw) return;
        const record = options.redact ? options.redact(raw) : raw;
        ringOf(taskId).push(record);
        const watching = listeners.get(taskId);
        if (watching) for (const listener of watching) listener(record);
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
    recent: (taskId) => history.get(taskId)?.items() ?? [],
  };
}

interface RecordRing {
  push(record: InspectionRecordJson): void;
  /** Oldest first. */
  items(): InspectionRecordJson[];
}

/** The last `size` records of a task: a fixed array written round, so a push never moves the rest. */
function createRecordRing(capacity: number): RecordRing {
  const size = Math.max(1, capacity);
  const slots: InspectionRecordJson[] = [];
  let next = 0;
  return {
    push(record) {
      if (slots.length < size) slots.push(record);
      else slots[next] = record;
      next = (next + 1) % size;
    },
    items: () => (slots.length < size ? [...slots] : [...slots.slice(next), ...slots.slice(0, next)]),
  };
}
