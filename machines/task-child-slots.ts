// The child ids of a task actor's children are reused slots, never the action or prep ids.
// XState memoises a state node's transition candidates per event type for the life of the
// machine definition (StateNode.next: `candidates-${eventType}`), so a child id per action
// (`xstate.done.actor.<actionId>`) would leave one cache entry per action ever run: the soak's
// heap at rest grew with the number of actions. The task's actions (one in flight, seed 000 §2.1
// rule 1) run in its one action actor `ACTION_CHILD_ID`; page preparations take the lowest free
// `pagePrep<N>`.
import type { PagePrepChild } from './task-types.ts';

export const ACTION_CHILD_ID = 'action';
const PREP_CHILD = 'pagePrep';

/** The lowest page-prep slot no running preparation holds. */
export function freePrepSlot(pagePreps: readonly PagePrepChild[]): string {
  const used = new Set(pagePreps.map((p) => p.child));
  let n = 0;
  while (used.has(`${PREP_CHILD}${n}`)) n++;
  return `${PREP_CHILD}${n}`;
}
