// How the open task's last turn ended when it did not end well (seed 000 §2.1): a
// failed turn ("Failed", its cause, Retry) or a turn cut short by a server restart
// ("Interrupted", Resume). Live, the cause is the error notice that comes right before the
// task's `error` status; after a reload it is the outcome note the server stored
// (transport/contracts TurnOutcomeNote). Any other status clears it.
import { signal, type ReadonlySignal } from '@preact/signals';
import type { ProtocolError } from '../../../transport/contracts/error-codes.ts';
import type { TaskMessage } from '../../../transport/contracts/http.ts';
import { turnOutcomeNoteOf, type TaskStatus, type TurnOutcomeNote } from '../../../transport/contracts/task-status.ts';

export const INTERRUPTED_CODE = 'TASK_INTERRUPTED';

export interface TurnOutcomeModel {
  outcome: ReadonlySignal<TurnOutcomeNote | null>;
  /** The task's stored messages and status (GET /api/task/:id). */
  fromHistory(messages: readonly TaskMessage[], status: TaskStatus): void;
  /** An error notice (structuredOutput with an error) of the open task. */
  noteError(error: ProtocolError): void;
  /** The task's status changed. */
  onStatus(status: TaskStatus): void;
  reset(): void;
}

const noteFor = (error: ProtocolError): TurnOutcomeNote => ({
  outcome: error.code === INTERRUPTED_CODE ? 'interrupted' : 'error',
  error,
});

export function createTurnOutcomeModel(): TurnOutcomeModel {
  const outcome = signal<TurnOutcomeNote | null>(null);
  let lastError: ProtocolError | null = null;
  return {
    outcome,
    fromHistory(messages, status) {
      lastError = null;
      if (status !== 'error') {
        outcome.value = null;
        return;
      }
      // The note of the last turn: after the last user message.
      let note: TurnOutcomeNote | null = null;
      for (let i = messages.length - 1; i >= 0 && !note; i--) {
        const message = messages[i]!;
        if (message.role === 'user') break;
        if (message.role === 'system') note = turnOutcomeNoteOf(message.meta);
      }
      outcome.value = note ?? {
        outcome: 'error',
        error: { code: 'INTERNAL', message: 'The task failed; the cause was not recorded.' },
      };
    },
    noteError(error) {
      lastError = error;
      if (outcome.value !== null) outcome.value = noteFor(error);
    },
    onStatus(status) {
      if (status === 'error') {
        outcome.value = noteFor(lastError ?? { code: 'INTERNAL', message: 'The task failed.' });
      } else {
        outcome.value = null;
        if (status === 'running') lastError = null;
      }
    },
    reset() {
      outcome.value = null;
      lastError = null;
    },
  };
}
