import type { ConnectionModel } from '../models/connection-model.ts';

export function ConnectionIndicator({ connection }: { connection: ConnectionModel }) {
  const status = connection.status.value;
  return (
    <div class={`conn conn-${status}`} role="status" aria-live="polite" data-testid="connection" data-status={status}>
      <span class="conn-dot" aria-hidden="true" />
      <span class="conn-label">{connection.label}</span>
    </div>
  );
}
