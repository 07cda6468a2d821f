// "Add a secret": the person gives the task a credential under a name, and writes
// `{{secret:name}}` in their message. The value goes to the server once (kept in memory for this
// task), is typed by the runtime, and is never shown to the model, the steps or the history.
import { useState } from 'preact/hooks';
import type { PersonGuardModel } from '../models/person-guard-model.ts';

export function SecretForm({ person }: { person: PersonGuardModel }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const names = person.secretNames.value;
  if (!open) {
    return (
      <span class="secret-form">
        {names.length > 0 && <span class="muted">Secrets: {names.map((n) => `{{secret:${n}}}`).join(', ')} </span>}
        <button type="button" class="btn btn-small" onClick={() => setOpen(true)}>
          Add a secret
        </button>
      </span>
    );
  }
  return (
    <form
      class="secret-form"
      onSubmit={(e) => {
        e.preventDefault();
        void person.setSecret(name, value).then((r) => {
          if (!r?.ok) return;
          setValue('');
          setOpen(false);
        });
      }}
    >
      <label>
        Name{' '}
        <input
          value={name}
          pattern="[A-Za-z0-9_-]{1,40}"
          required
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          aria-label="Secret name"
        />
      </label>{' '}
      <label>
        Value{' '}
        <input
          type="password"
          autoComplete="off"
          value={value}
          required
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          aria-label="Secret value"
        />
      </label>{' '}
      <button type="submit" class="btn btn-small btn-primary" disabled={person.pending.value !== null}>
        Give to this task
      </button>{' '}
      <button type="button" class="btn btn-small" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <span class="muted"> Then write {name ? `{{secret:${name}}}` : '{{secret:name}}'} in your message.</span>
    </form>
  );
}
