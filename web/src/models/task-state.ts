// What a person needs to know about a task at a glance, derived from the server's status
// (seed 000 §2.1). The task machine has no "done" state of its own: a turn that finished leaves
// the task `ongoing` (it takes another message), and `completed` is reached only through STOP.
//
//   status     -> state      label       filter
//   created    -> running    Running     running   (a listed task has a message: its turn starts)
//   running    -> running    Running     running
//   takeover   -> needs-you  Needs you   needs-you
//   ongoing    -> done       Done        done
//   completed  -> stopped    Stopped     done      (a follow-up message reopens it)
//   error      -> failed     Failed      failed
//   error, its turn cut by a server restart (outcome note `interrupted`)
//              -> interrupted Interrupted failed (Resume runs its last message again)
//   (none yet) -> new        New         -
import type { TaskStatus, TurnOutcome } from '../../../transport/contracts/task-status.ts';

export type TaskState = 'new' | 'running' | 'needs-you' | 'done' | 'stopped' | 'failed' | 'interrupted';
export type TaskFilter = 'all' | 'running' | 'needs-you' | 'done' | 'failed';

const stateByStatus: Record<TaskStatus, TaskState> = {
  created: 'running',
  running: 'running',
  takeover: 'needs-you',
  ongoing: 'done',
  completed: 'stopped',
  error: 'failed',
};

export const taskStateLabel: Record<TaskState, string> = {
  new: 'New',
  running: 'Running',
  'needs-you': 'Needs you',
  done: 'Done',
  stopped: 'Stopped',
  failed: 'Failed',
  interrupted: 'Interrupted',
};

/** A sentence for screen readers and tooltips: what the state means for the person. */
export const taskStateHint: Record<TaskState, string> = {
  new: 'No message sent yet.',
  running: 'The agent is working on it.',
  'needs-you': 'You have control of the tab; the agent waits for you to resume.',
  done: 'The agent finished; send another message to continue.',
  stopped: 'Stopped by you; a new message continues it.',
  failed: 'The task ended with an error; Retry runs your last message again.',
  interrupted: 'The server restarted while the agent worked; Resume runs your last message again.',
};

export const taskFilters: { id: TaskFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'running', label: 'Running' },
  { id: 'needs-you', label: 'Needs you' },
  { id: 'done', label: 'Done' },
  { id: 'failed', label: 'Failed' },
];

export function taskStateOf(status: TaskStatus | null, outcome?: TurnOutcome | null): TaskState {
  if (status === 'error' && outcome === 'interrupted') return 'interrupted';
  return status === null ? 'new' : stateByStatus[status];
}

export function matchesFilter(state: TaskState, filter: TaskFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'done') return state === 'done' || state === 'stopped';
  if (filter === 'failed') return state === 'failed' || state === 'interrupted';
  return state === filter;
}
