// Secret placeholders: the person gives a task a credential as `{{secret:name}}`
// (frontend_message set_task_secret). The model only ever sees and writes the placeholder; the
// value is put in by the runtime when the browser_type action is sent, registered with the
// redaction registry so that no step, record or log shows it. Values live in memory only.
import { errorValue, type ErrorValue } from '../../machines/index.ts';

const PLACEHOLDER = /\{\{\s*secret:([A-Za-z0-9_-]{1,40})\s*\}\}/g;

export function hasSecretPlaceholder(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(text);
}

export interface TaskSecrets {
  set(name: string, value: string): void;
  names(): string[];
  /** The text with every placeholder replaced, or SECRET_UNKNOWN naming the ones this task was not given. */
  fill(text: string): { ok: true; text: string; filled: string[] } | { ok: false; error: ErrorValue };
}

export function createTaskSecrets(register?: (value: string) => void): TaskSecrets {
  const values = new Map<string, string>();
  return {
    set(name, value) {
      values.set(name, value);
      register?.(value);
    },
    names: () => [...values.keys()],
    fill(text) {
      const missing = new Set<string>();
      const filled: string[] = [];
      const out = text.replace(PLACEHOLDER, (whole, name: string) => {
        const value = values.get(name);
        if (value === undefined) {
          missing.add(name);
          return whole;
        }
        filled.push(name);
        return value;
      });
      if (missing.size > 0) {
        const known = values.size
          ? `; this task has ${[...values.keys()].map((n) => `{{secret:${n}}}`).join(', ')}`
          : '; the person has given this task no secrets';
        return {
          ok: false,
          error: errorValue('SECRET_UNKNOWN', `no secret named ${[...missing].join(', ')}${known}`, {
            retryable: false,
          }),
        };
      }
      return { ok: true, text: out, filled };
    },
  };
}
