import type { TaskStatus } from '../../../transport/contracts/task-status.ts';
import { statusLabel } from '../text/format.ts';

export function StatusBadge({ status }: { status: TaskStatus | null }) {
  return (
    <span class={`badge badge-${status ?? 'new'}`} data-testid="status-badge" data-status={status ?? 'new'}>
      {status ? statusLabel[status] : 'New'}
    </span>
  );
}
