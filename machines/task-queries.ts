// Pure reads of a task actor's snapshot, for the runtime, the HTTP API and the UI mirror.
import type { SnapshotFrom } from 'xstate';
import type { taskMachine } from './task.machine.ts';
import type { TaskStatus } from './task-types.ts';

export type TaskSnapshot = SnapshotFrom<typeof taskMachine>;

/** The seed 000 §2.1 status: both takeover substates read as 'takeover'. */
export function taskStatusOf(snapshot: TaskSnapshot): TaskStatus {
  if (snapshot.matches('completed')) return 'completed';
  if (snapshot.matches('error')) return 'error';
  if (snapshot.matches({ running: 'takeover' }) || snapshot.matches({ ongoing: 'takeover' })) return 'takeover';
  if (snapshot.matches('running')) return 'running';
  if (snapshot.matches('ongoing')) return 'ongoing';
  return 'created';
}

/** True when a turn is running, no takeover is active and no action is in flight. */
export function canDispatchAction(snapshot: TaskSnapshot): boolean {
  return (
    snapshot.status === 'active' &&
    snapshot.matches({ running: 'active' }) &&
    snapshot.context.inFlightActionId === null
  );
}

export function actionInFlightOf(snapshot: TaskSnapshot): string | null {
  return snapshot.context.inFlightActionId;
}

/** True when the task was stopped (completed) or failed: no turn runs until a new message. */
export function taskEnded(snapshot: TaskSnapshot): boolean {
  return snapshot.status !== 'active' || snapshot.matches('completed') || snapshot.matches('error');
}
