import type { TaskStatusModel } from '../models/task-status-model.ts';

export function TakeoverBanner({ status, onShowTab }: { status: TaskStatusModel; onShowTab?: () => void }) {
  const error = status.error.value;
  if (!status.inTakeover.value) {
    return error ? (
      <p class="control-error" role="alert">
        {error.code}: {error.message}
      </p>
    ) : null;
  }
  const pending = status.pending.value;
  return (
    <section class="takeover" role="alert" aria-label="Takeover" data-testid="takeover-banner">
      <div>
        <strong>You have control of the tab.</strong>{' '}
        <span>
          The agent waits{status.reason.value ? ` (${status.reason.value})` : ''}. Resume to hand it back, or stop the
          task.
        </span>
        {error && (
          <p class="control-error">
            {error.code}: {error.message}
          </p>
        )}
      </div>
      <div class="takeover-actions">
        {onShowTab && (
          <button type="button" class="btn" onClick={onShowTab}>
            Show the tab
          </button>
        )}
        <button type="button" class="btn btn-primary" disabled={pending !== null} onClick={() => void status.resume()}>
          {pending === 'resume' ? 'Resuming…' : 'Resume'}
        </button>
        <button type="button" class="btn btn-danger" disabled={pending !== null} onClick={() => void status.stop()}>
          {pending === 'stop' ? 'Stopping…' : 'Stop'}
        </button>
      </div>
    </section>
  );
}
