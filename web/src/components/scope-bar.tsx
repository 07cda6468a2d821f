// The task's scope, shown under the task header and editable: the sites the agent may
// act on without asking (links within their registrable domain included). Also "Show the tab",
// the one way Mimo brings the agent's tab forward.
import { useState } from 'preact/hooks';
import type { PersonGuardModel } from '../models/person-guard-model.ts';
import { SecretForm } from './secret-form.tsx';

export function ScopeBar({ person, hasTask }: { person: PersonGuardModel; hasTask: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (!hasTask) return null;
  const sites = person.scope.value;
  const busy = person.pending.value !== null;
  return (
    <section class="scope-bar" aria-label="Task scope" data-testid="scope-bar">
      {editing === null ? (
        <p>
          <span class="muted">Acts without asking on: </span>
          {sites.length ? sites.map((s) => s.site).join(', ') : <em>no site yet (every site asks first)</em>}{' '}
          <button type="button" class="btn btn-small" onClick={() => setEditing(sites.map((s) => s.site).join(', '))}>
            Edit scope
          </button>{' '}
          <button
            type="button"
            class="btn btn-small"
            disabled={busy}
            onClick={() => void person.showTab()}
            data-testid="show-tab"
          >
            Show the tab
          </button>{' '}
          <SecretForm person={person} />
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void person.setScope(editing).then((r) => r?.ok && setEditing(null));
          }}
        >
          <label>
            Sites (comma separated){' '}
            <input
              value={editing}
              onInput={(e) => setEditing((e.target as HTMLInputElement).value)}
              aria-label="Sites in scope"
            />
          </label>{' '}
          <button type="submit" class="btn btn-small btn-primary" disabled={busy}>
            Save
          </button>{' '}
          <button type="button" class="btn btn-small" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {person.error.value && (
        <p class="control-error" role="alert">
          {person.error.value.code}: {person.error.value.message}
        </p>
      )}
    </section>
  );
}
