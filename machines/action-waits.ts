// The action machine's waits timed from its snapshots: entering a wait is a state change of the
// actor (a new `waitId` and its `waitMs` in the context), and the clock work is the provided
// `armDeadline`'s, called once the step that entered the wait is committed. It is not an action
// of the machine's transitions: arming is no step of its own (no inspection event), and
// inspection still shows every wait (the snapshot's waitId/waitMs) and every DEADLINE that ends
// one. Pure steps (initialTransition / transition) arm nothing (their scope defers nothing).
import type { AnyActorScope, AnyStateMachine } from 'xstate';
import type { ActionSlotContext, DeadlineInput } from './action-types.ts';

type ArmDeadline = (args: { self: unknown; system: unknown }, params: DeadlineInput) => void;

/** `machine` whose committed steps that enter a wait call its provided `armDeadline`; `provide` keeps that. */
export function withTimedWaits<M extends AnyStateMachine>(machine: M): M {
  const timed = Object.create(machine) as M;
  timed.transition = ((snapshot: { context: ActionSlotContext }, event: unknown, scope: AnyActorScope) => {
    const next = machine.transition(snapshot as never, event as never, scope) as { context: ActionSlotContext };
    const { current, waitId, waitMs } = next.context;
    if (current !== null && waitId !== snapshot.context.waitId) {
      const arm = machine.implementations.actions.armDeadline as unknown as ArmDeadline;
      scope.defer(() => arm({ self: scope.self, system: scope.system }, { waitId, ms: waitMs }));
    }
    return next;
  }) as unknown as M['transition'];
  timed.provide = ((implementations: Parameters<M['provide']>[0]) =>
    withTimedWaits(machine.provide(implementations as never) as M)) as M['provide'];
  return timed;
}
