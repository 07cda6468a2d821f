// XState v5 does not re-arm `after` timers when an actor is created from a persisted
// snapshot (statelyai/xstate#5331): the machine would wait forever. Every machine here
// that waits therefore accepts RESTORED in each waiting state and re-enters that state,
// which arms its delay again from the full duration (machines hold no clock, so
// "restart the delay" is the only reading they can implement; the runtime may shorten
// it by providing a delay that knows the deadline). Entering again never repeats a side
// effect: the waiting states have no entry actions, and invoked promise actors are
// restarted by XState itself on restore.
//
// Runtime contract: `const actor = createActor(m, { snapshot }); actor.start();
// actor.send({ type: 'RESTORED' });`. Sending it to a live actor only restarts the wait.

export interface RestoredEvent {
  type: 'RESTORED';
}

export const restoredEvent: RestoredEvent = { type: 'RESTORED' };
