import type { TaskStatus, TurnOutcome } from '../../../transport/contracts/task-status.ts';
import { taskStateHint, taskStateLabel, taskStateOf } from '../models/task-state.ts';

export function StatusBadge({ status, outcome }: { status: TaskStatus | null; outcome?: TurnOutcome | null }) {
  const state = taskStateOf(status, outcome);
  return (
    <span
      class={`badge state-${state}`}
      data-testid="status-badge"
      data-status={status ?? 'new'}
      data-state={state}
      title={taskStateHint[state]}
    >
      <span class="badge-icon" aria-hidden="true" />
      {taskStateLabel[state]}
    </span>
  );
}
