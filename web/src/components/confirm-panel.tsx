// "Needs you: confirm": the step the agent wants to take, exactly (site, element,
// value with secrets masked, why it waits), with Allow once / Always for this site / Deny.
import type { PersonGuardModel } from '../models/person-guard-model.ts';
import { stepWords } from '../models/person-guard-model.ts';

export function ConfirmPanel({ person }: { person: PersonGuardModel }) {
  const current = person.current.value;
  if (!current) return null;
  const { step, requestId } = current;
  const busy = person.pending.value !== null;
  const more = person.waiting.value.length - 1;
  const error = person.error.value;
  return (
    <section class="confirm" role="alert" aria-label="Needs you: confirm" data-testid="confirm-panel">
      <div>
        <strong>Needs you: confirm</strong>
        <p class="confirm-step">{stepWords(step)}</p>
        <p class="muted">
          Why it waits: {step.reason}.{more > 0 ? ` ${more} more step${more > 1 ? 's' : ''} wait after this one.` : ''}
        </p>
        {error && (
          <p class="control-error">
            {error.code}: {error.message}
          </p>
        )}
      </div>
      <div class="confirm-actions">
        <button
          type="button"
          class="btn btn-primary"
          disabled={busy}
          onClick={() => void person.answer(requestId, 'allow_once')}
        >
          Allow once
        </button>
        <button type="button" class="btn" disabled={busy} onClick={() => void person.answer(requestId, 'allow_site')}>
          Always for {step.site}
        </button>
        <button
          type="button"
          class="btn btn-danger"
          disabled={busy}
          onClick={() => void person.answer(requestId, 'deny')}
        >
          Deny
        </button>
      </div>
    </section>
  );
}
