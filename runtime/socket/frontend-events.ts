// Builds `frontend_event` envelopes (seed 001 §3.4) and emits them to a task's room, or to
// every frontend for events that belong to no task (snapshotSync). Every event emitted to a task
// takes the task's next `seq` here, at the one place it leaves the server, so the seq order is the
// emit order (task-seq.ts).
import { nanoid } from 'nanoid';
import { rooms, type FrontendEvent, type FrontendEventPayload } from '../../transport/contracts/index.ts';
import type { Namespace } from '../../transport/server/index.ts';
import { createTaskSeq, type TaskSeq } from './task-seq.ts';

/** A payload without the fields the emitter fills in. */
export type FrontendEventInput = FrontendEventPayload extends infer P
  ? P extends FrontendEventPayload
    ? Omit<P, 'id' | 'timestamp'> & { id?: string; timestamp?: number }
    : never
  : never;

export interface FrontendEventSink {
  /** Builds an envelope without emitting it (for a reply to one socket). */
  envelope(event: FrontendEventInput, taskId?: string): FrontendEvent;
  /**
   * Emits to `task:{taskId}` with the task's next seq, or with `seq` taken earlier from
   * `seq.next` (an event whose stored message needed its seq first); returns the envelope.
   */
  toTask(taskId: string, event: FrontendEventInput, traceId?: string, seq?: number): FrontendEvent;
  /** What `toTask` emits, built (its seq taken) but not emitted yet: `send` emits it (held events, cluster mode). */
  prepare(taskId: string, event: FrontendEventInput, traceId?: string, seq?: number): FrontendEvent;
  /** Emits an envelope from `prepare` to its task's room. */
  send(envelope: FrontendEvent): FrontendEvent;
  /** Emits to the `frontend` room. */
  toAllFrontends(event: FrontendEventInput, taskId?: string): FrontendEvent;
  /** The per-task seq counters (seeded from the store when a task is restored). */
  readonly seq: TaskSeq;
}

export function createFrontendEventSink(deps: {
  nsp: Namespace;
  clock: { now(): number };
  /** Called for every envelope emitted (recorder, tests). */
  onEmit?: (envelope: FrontendEvent, room: string) => void;
}): FrontendEventSink {
  const seq = createTaskSeq();
  function envelope(
    event: FrontendEventInput,
    taskId: string | undefined,
    traceId?: string,
    order?: number,
  ): FrontendEvent {
    const timestamp = deps.clock.now();
    const payload = {
      ...event,
      id: event.id ?? `evt-${nanoid(12)}`,
      timestamp: event.timestamp ?? timestamp,
    } as FrontendEventPayload;
    return {
      type: 'event',
      id: `env-${nanoid(12)}`,
      ...(taskId ? { taskId } : {}),
      timestamp,
      ...(traceId ? { traceId } : {}),
      ...(order !== undefined ? { seq: order } : {}),
      event: payload,
    };
  }
  function emit(room: string, env: FrontendEvent): FrontendEvent {
    deps.nsp.to(room).emit('frontend_event', env);
    deps.onEmit?.(env, room);
    return env;
  }
  const prepare = (taskId: string, event: FrontendEventInput, traceId?: string, order?: number) =>
    envelope(event, taskId, traceId, order ?? seq.next(taskId));
  const send = (env: FrontendEvent) => emit(rooms.task(env.taskId!), env);
  return {
    envelope: (event, taskId) => envelope(event, taskId),
    toTask: (taskId, event, traceId, order) => send(prepare(taskId, event, traceId, order)),
    prepare,
    send,
    toAllFrontends: (event, taskId) => emit(rooms.frontend, envelope(event, taskId)),
    seq,
  };
}
