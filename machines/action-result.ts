// What to do with a browser_action_result for `actionId`, decided from the action actor's
// snapshot. While an attempt of that action is open the machine takes the result itself; once
// it has settled (the actor is idle or runs a later action), or while it waits to retry after an
// error, a result is ignored: a "duplicate" when it repeats the answer already taken, otherwise
// "late".
import type { SnapshotFrom } from 'xstate';
import type { ActionAnswer, IgnoredResultDisposition } from './action-types.ts';
import type { actionMachine } from './action.machine.ts';

export type ActionSnapshot = SnapshotFrom<typeof actionMachine>;
export type ResultDisposition = 'accept' | IgnoredResultDisposition;

export function resultDisposition(snapshot: ActionSnapshot, actionId: string, answer: ActionAnswer): ResultDisposition {
  const current = snapshot.context.current;
  const inFlight = snapshot.status === 'active' && current !== null && current.actionId === actionId;
  const waitingToRetry = inFlight && snapshot.matches('retryWait') && answer.status === 'error';
  if (inFlight && !waitingToRetry) return 'accept';
  if (inFlight) return sameAnswer(current.lastAnswer, answer) ? 'duplicate' : 'late';
  const last = snapshot.context.last;
  return last?.actionId === actionId && sameAnswer(snapshot.context.lastAnswer, answer) ? 'duplicate' : 'late';
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
