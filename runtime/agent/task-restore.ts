// The restore of a task from what is stored, after a restart (or, in cluster mode, on another
// node): a pure function of the stored task. A task is restored by hand, not from a persisted
// XState snapshot: the turn is an LLM stream and its browser actions act on the user's live tab,
// so re-running what was in flight (which is what restoring an invoked actor does) could repeat
// a click or a typed text. A task that was running therefore comes back idle (`ongoing`) with a
// note, and waits for the user; everything else comes back as it was.
import type { StateValue } from 'xstate';
import type { TaskContext, TaskStatus } from '../../machines/index.ts';

export interface RestoredTask {
  /** The status the task has after the restore (persisted when it differs from the stored one). */
  status: TaskStatus;
  /** Where the task actor starts. */
  value: StateValue;
  /** What the user is told (a system message and a structuredOutput), when something was cut short. */
  note: string | null;
}

export function restoredTaskOf(task: { status: TaskStatus }): RestoredTask {
  switch (task.status) {
    case 'running':
      return { status: 'ongoing', value: { ongoing: 'idle' }, note: 'The server restarted while this task was running. It is waiting for your next message.' };
    case 'takeover':
      return { status: 'takeover', value: { ongoing: 'takeover' }, note: 'The server restarted while you had control of the tab. Resume when you are done; the agent then waits for your next message.' };
    case 'ongoing':
      return { status: 'ongoing', value: { ongoing: 'idle' }, note: null };
    case 'completed':
    case 'error':
      return { status: task.status, value: task.status, note: null };
    default:
      return { status: 'created', value: 'created', note: null };
  }
}

/** The task actor's context at the restored state: nothing in flight, nothing queued. */
export function restoredContextOf(taskId: string, restored: RestoredTask): TaskContext {
  return { taskId, currentMessage: null, queue: [], inFlightActionId: null, pendingActions: [], pagePreps: [], turns: 0, error: null, reportedStatus: restored.status };
}
