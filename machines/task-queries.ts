// Pure reads of a task actor's snapshot, for the runtime, the HTTP API and the UI mirror. The
// task machine is parallel: its `status` region is the task's status (seed 000 §2.1), its
// `action` region the action in flight, its `pluginUi` region the overlay's mirror.
import type { SnapshotFrom, StateValue } from 'xstate';
import type { taskMachine } from './task.machine.ts';
import type { TaskStatus } from './task-types.ts';
import { uiStateForTask, type PluginUiState } from './plugin-ui.machine.ts';

export type TaskSnapshot = SnapshotFrom<typeof taskMachine>;

type StatusValue = string | { running?: string; ongoing?: string };
const statusValueOf = (snapshot: { value: unknown }): StatusValue => (snapshot.value as { status: StatusValue }).status;

/** The seed 000 §2.1 status: both takeover substates read as 'takeover'. */
export function taskStatusOf(snapshot: { value: unknown }): TaskStatus {
  const status = statusValueOf(snapshot);
  if (typeof status === 'string') return status as TaskStatus;
  if (status.running !== undefined) return status.running === 'takeover' ? 'takeover' : 'running';
  return status.ongoing === 'takeover' ? 'takeover' : 'ongoing';
}

/** True when a turn is running (its turn invoked), takeover or not. */
export function turnRunningOf(snapshot: { value: unknown }): boolean {
  const status = statusValueOf(snapshot);
  return typeof status === 'object' && status.running !== undefined;
}

/** True when a turn is running, no takeover is active and no action is in flight. */
export function canDispatchAction(snapshot: TaskSnapshot): boolean {
  return snapshot.status === 'active' && taskStatusOf(snapshot) === 'running' && actionInFlightOf(snapshot) === null;
}

export function actionInFlightOf(snapshot: TaskSnapshot): string | null {
  return snapshot.context.current?.actionId ?? null;
}

/** True when the task was stopped (completed) or failed: no turn runs until a new message. */
export function taskEnded(snapshot: TaskSnapshot): boolean {
  if (snapshot.status !== 'active') return true;
  const status = taskStatusOf(snapshot);
  return status === 'completed' || status === 'error';
}

/** The state of the task's action slot (its `action` region): idle, awaitingAck, executing or retryWait. */
export function actionStateOf(snapshot: { value: unknown }): string {
  return (snapshot.value as { action: string }).action;
}

/** The plugin-UI mirror's state (the task machine's `pluginUi` region). */
export function pluginUiOf(snapshot: { value: unknown }): PluginUiState {
  return (snapshot.value as { pluginUi: PluginUiState }).pluginUi;
}

/** The task machine's state value for a task at rest in `status` (a restore: nothing in flight). */
export function taskValueOf(status: TaskStatus): StateValue {
  const statusValue =
    status === 'takeover'
      ? { ongoing: 'takeover' }
      : status === 'ongoing'
        ? { ongoing: 'idle' }
        : status === 'running'
          ? { running: 'active' }
          : status;
  return { status: statusValue, action: 'idle', pluginUi: uiStateForTask(status, false) };
}
