// The open task's status (seed 000 §2.1) and the person's controls over it: Stop while it runs,
// Take over, and in takeover the banner's Resume and Stop. The server stays authoritative: a
// control only sends its message; the status changes when the taskStatus event says so.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { TaskStatusEvent } from '../../../transport/contracts/frontend-event.ts';
import type { TaskStatus } from '../../../transport/contracts/task-status.ts';
import type { AckError, AckResult } from '../io/ack.ts';

export type TaskControlName = 'resume' | 'stop' | 'takeover' | 'retry';
export type ControlMessageType = 'resume_task' | 'stop_task' | 'takeover_task';

// Retry (a failed task) and Resume (an interrupted one) are resume_task on an `error` task: the server runs its last message again.
const messageOf: Record<TaskControlName, ControlMessageType> = {
  resume: 'resume_task',
  stop: 'stop_task',
  takeover: 'takeover_task',
  retry: 'resume_task',
};

export interface TaskStatusModel {
  status: ReadonlySignal<TaskStatus | null>;
  previous: ReadonlySignal<TaskStatus | null>;
  reason: ReadonlySignal<string | null>;
  pending: ReadonlySignal<TaskControlName | null>;
  error: ReadonlySignal<AckError | null>;
  inTakeover: ReadonlySignal<boolean>;
  canStop: ReadonlySignal<boolean>;
  canTakeover: ReadonlySignal<boolean>;
  canResume: ReadonlySignal<boolean>;
  /** A failed or interrupted task: Retry / Resume runs its last message again. */
  canRetry: ReadonlySignal<boolean>;
  /** A task that reached completed or error. */
  finished: ReadonlySignal<boolean>;
  reset(status?: TaskStatus | null, updatedAt?: number): void;
  /** From GET /api/task/:taskId; ignored when a newer status event already arrived. */
  setFromSummary(status: TaskStatus, updatedAt: number): void;
  applyEvent(event: TaskStatusEvent): boolean;
  resume(): Promise<AckResult | null>;
  stop(): Promise<AckResult | null>;
  takeover(): Promise<AckResult | null>;
  retry(): Promise<AckResult | null>;
}

export function createTaskStatusModel(deps: {
  send: (type: ControlMessageType) => Promise<AckResult>;
}): TaskStatusModel {
  const status = signal<TaskStatus | null>(null);
  const previous = signal<TaskStatus | null>(null);
  const reason = signal<string | null>(null);
  const pending = signal<TaskControlName | null>(null);
  const error = signal<AckError | null>(null);
  let statusAt = -Infinity;
  let generation = 0;

  const is = (...list: TaskStatus[]) => computed(() => status.value !== null && list.includes(status.value));
  // Only a task that is working can be stopped (a takeover pauses a working task); a task whose
  // turn finished (ongoing) can still be taken over to use its tab, but has nothing to stop.
  const canStop = is('created', 'running', 'takeover');
  const canTakeover = is('created', 'running', 'ongoing');
  const canResume = is('takeover');
  const canRetry = is('error');

  function set(next: TaskStatus, at: number, why: string | null, prev?: TaskStatus) {
    if (status.value !== next) previous.value = prev ?? status.value;
    else if (prev) previous.value = prev;
    status.value = next;
    reason.value = why;
    statusAt = at;
  }

  async function control(name: TaskControlName, allowed: ReadonlySignal<boolean>): Promise<AckResult | null> {
    if (!allowed.value || pending.value !== null) return null;
    const mine = generation;
    pending.value = name;
    error.value = null;
    const result = await deps.send(messageOf[name]);
    if (mine !== generation) return result; // another task was opened meanwhile
    pending.value = null;
    if (!result.ok) error.value = result.error;
    return result;
  }

  return {
    status,
    previous,
    reason,
    pending,
    error,
    inTakeover: canResume,
    canStop,
    canTakeover,
    canResume,
    canRetry,
    finished: is('completed', 'error'),
    reset(initial = null, updatedAt = -Infinity) {
      generation += 1;
      status.value = initial;
      previous.value = null;
      reason.value = null;
      pending.value = null;
      error.value = null;
      statusAt = updatedAt;
    },
    setFromSummary(next, updatedAt) {
      if (updatedAt < statusAt) return;
      set(next, updatedAt, next === status.value ? reason.value : null);
    },
    applyEvent(event) {
      if (event.timestamp < statusAt) return false;
      set(event.status, event.timestamp, event.reason ?? null, event.previous);
      if (pending.value !== null) pending.value = null;
      return true;
    },
    resume: () => control('resume', canResume),
    stop: () => control('stop', canStop),
    takeover: () => control('takeover', canTakeover),
    retry: () => control('retry', canRetry),
  };
}
