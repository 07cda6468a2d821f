// What to do with a browser_action_result, decided from the action actor's snapshot.
// While an attempt is open the machine takes the result itself; once it has settled
// (or while it waits to retry after an error) a result is ignored: a "duplicate" when
// it repeats the answer already taken, otherwise "late". The router in the runtime asks
// this before sending RESULT, because a finished actor can no longer report anything.
import type { SnapshotFrom } from 'xstate';
import type { ActionAnswer, IgnoredResultDisposition } from './action-types.ts';
import type { actionMachine } from './action.machine.ts';

export type ActionSnapshot = SnapshotFrom<typeof actionMachine>;
export type ResultDisposition = 'accept' | IgnoredResultDisposition;

export function resultDisposition(snapshot: ActionSnapshot, answer: ActionAnswer): ResultDisposition {
  const settled = snapshot.status !== 'active';
  const waitingToRetry = snapshot.status === 'active' && snapshot.matches('retryWait') && answer.status === 'error';
  if (!settled && !waitingToRetry) return 'accept';
  return sameAnswer(snapshot.context.lastAnswer, answer) ? 'duplicate' : 'late';
}

/** Equality of two answers by value (stable over key order); undefined never matches. */
export function sameAnswer(a: ActionAnswer | undefined, b: ActionAnswer | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1)))
      : v,
  );
}
