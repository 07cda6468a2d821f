import type { TaskStatus } from '../../../transport/contracts/task-status.ts';
import { taskStateHint, taskStateLabel, taskStateOf } from '../models/task-state.ts';

export function StatusBadge({ status }: { status: TaskStatus | null }) {
  const state = taskStateOf(status);
  return (
    <span class={`badge state-${state}`} data-testid="status-badge" data-status={status ?? 'new'} data-state={state} title={taskStateHint[state]}>
      <span class="badge-icon" aria-hidden="true" />
      {taskStateLabel[state]}
    </span>
  );
}
