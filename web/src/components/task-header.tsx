import type { AppState } from '../app-state.ts';
import { formatCost } from '../models/usage-model.ts';
import { formatTokens } from '../text/format.ts';
import { readableTitle } from '../text/task-title.ts';
import { StatusBadge } from './status-badge.tsx';

export function TaskHeader({ app }: { app: AppState }) {
  const { status, chat } = app;
  const outcome = app.outcome.outcome.value;
  const usage = chat.usage.totals.value;
  const pricing = chat.usage.pricing;
  const raw = app.currentTask.value?.title;
  const title = raw ? readableTitle(raw) : app.currentTaskId.value ? 'New task' : 'Mimo';
  return (
    <header class="task-header">
      <div class="task-heading">
        <h1 class="task-name" title={raw ?? title}>
          {title}
        </h1>
        <StatusBadge status={status.status.value} outcome={outcome?.outcome ?? null} />
      </div>
      {status.canRetry.value && outcome && (
        <p
          class={`task-outcome outcome-${outcome.outcome}`}
          role="status"
          data-testid="task-outcome"
          data-outcome={outcome.outcome}
          data-code={outcome.error.code}
        >
          <span class="task-outcome-cause">
            {outcome.outcome === 'interrupted' ? 'Interrupted: ' : 'Failed: '}
            {outcome.error.message}
          </span>
          <button
            type="button"
            class="btn btn-small"
            disabled={status.pending.value !== null}
            onClick={() => void status.retry()}
          >
            {status.pending.value === 'retry' ? 'Starting…' : outcome.outcome === 'interrupted' ? 'Resume' : 'Retry'}
          </button>
        </p>
      )}
      <div class="task-actions">
        {usage.calls > 0 && (
          <span
            class="usage"
            data-testid="usage"
            title={`${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens over ${usage.calls} calls; estimated at $${pricing.promptPerMillion} / $${pricing.completionPerMillion} per million tokens`}
          >
            {formatTokens(usage.totalTokens)} tokens · ≈{formatCost(chat.usage.cost.value)}
          </span>
        )}
        {status.canTakeover.value && (
          <button
            type="button"
            class="btn"
            disabled={status.pending.value !== null}
            onClick={() => void status.takeover()}
          >
            Take over
          </button>
        )}
        {status.canStop.value && !status.inTakeover.value && (
          <button
            type="button"
            class="btn btn-danger"
            disabled={status.pending.value !== null}
            onClick={() => void status.stop()}
          >
            {status.pending.value === 'stop' ? 'Stopping…' : 'Stop'}
          </button>
        )}
      </div>
    </header>
  );
}
