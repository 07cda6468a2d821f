// The restore of a task from what is stored, after a restart (or, in cluster mode, on another
// node): a pure function of the stored task. A task is restored by hand, not from a persisted
// XState snapshot: the turn is an LLM stream and its browser actions act on the user's live tab,
// so re-running what was in flight (which is what restoring an invoked actor does) could repeat
// a click or a typed text. A task that was running therefore comes back in `error` with an
// "interrupted" note (web: Interrupted, with Resume, which runs its last message again; never
// Done), and waits for the user; everything else comes back as it was.
import type { StateValue } from 'xstate';
import { errorValue, taskValueOf, type TaskContext, type TaskStatus } from '../../machines/index.ts';

export interface RestoredTask {
  /** The status the task has after the restore (persisted when it differs from the stored one). */
  status: TaskStatus;
  /** Where the task actor starts. */
  value: StateValue;
  /** What the user is told (a system message and a structuredOutput), when something was cut short. */
  note: string | null;
  /** The turn in flight was cut short by the restart: the note is stored as its outcome (TASK_INTERRUPTED). */
  interrupted?: boolean;
}

export const interruptedMessage =
  'The server restarted while this task was running; its last step was cut short. Resume runs your last message again.';

/** The store patch that records a restore's status (and, for a turn cut short, its outcome). */
export const restoredPatchOf = (restored: RestoredTask): { status: TaskStatus; outcome?: 'interrupted' } =>
  restored.interrupted ? { status: restored.status, outcome: 'interrupted' } : { status: restored.status };

export function restoredTaskOf(task: { status: TaskStatus }): RestoredTask {
  switch (task.status) {
    case 'running':
      return { status: 'error', value: taskValueOf('error'), note: interruptedMessage, interrupted: true };
    case 'takeover':
      return {
        status: 'takeover',
        value: taskValueOf('takeover'),
        note: 'The server restarted while you had control of the tab. Resume when you are done; the agent then waits for your next message.',
      };
    case 'ongoing':
      return { status: 'ongoing', value: taskValueOf('ongoing'), note: null };
    case 'completed':
    case 'error':
      return { status: task.status, value: taskValueOf(task.status), note: null };
    default:
      return { status: 'created', value: taskValueOf('created'), note: null };
  }
}

/** The task actor's context at the restored state: nothing in flight, nothing queued. */
export function restoredContextOf(taskId: string, restored: RestoredTask): TaskContext {
  const error = restored.interrupted ? errorValue('TASK_INTERRUPTED', interruptedMessage, { retryable: true }) : null;
  return {
    taskId,
    currentMessage: null,
    queue: [],
    pendingActions: [],
    pagePreps: [],
    turns: 0,
    error,
    reportedStatus: restored.status,
    current: null,
    waitId: 0,
    waitMs: 0,
    last: null,
    settled: 0,
  };
}
