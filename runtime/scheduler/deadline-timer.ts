// The deadlines of the action actors (actionMachine's provided `armDeadline`) on the injected
// clock, one timer per actor. Arming a deadline only records it, unless it is earlier than the
// timer already set; when the timer fires it sends DEADLINE if the actor's current wait has
// passed, and otherwise sets itself again for the current deadline. Nothing is ever canceled: an
// action that settles leaves its timer to find no wait (or a later one) when it fires, so a
// task's successive actions cost about one timer per T_ack, not two set-and-clear pairs each.
import type { AnyActorRef } from 'xstate';
import type { ActionSlotContext } from '../../machines/index.ts';
import type { Clock } from '../clock/index.ts';

interface Slot {
  actor: AnyActorRef;
  /** The wait armed last and its deadline (clock time). */
  waitId: number;
  at: number;
  /** The timer set, and when it fires (undefined: none set). */
  timer: unknown;
  timerAt: number | undefined;
}

export interface DeadlineTimer {
  /** The actor's wait `waitId` ends `ms` from now (it replaces the actor's earlier wait). */
  arm(actor: AnyActorRef, waitId: number, ms: number): void;
}

export function createDeadlineTimer(clock: Clock): DeadlineTimer {
  const slots = new WeakMap<AnyActorRef, Slot>();

  function set(slot: Slot): void {
    slot.timerAt = slot.at;
    slot.timer = clock.setTimeout(() => fire(slot), Math.max(0, slot.at - clock.now()));
  }

  function fire(slot: Slot): void {
    slot.timer = undefined;
    slot.timerAt = undefined;
    const snapshot = slot.actor.getSnapshot() as { status: string; context: ActionSlotContext };
    // Settled, stopped or already past this wait: nothing to time until the next arm.
    if (snapshot.status !== 'active' || snapshot.context.current === null || snapshot.context.waitId !== slot.waitId)
      return;
    if (clock.now() >= slot.at) slot.actor.send({ type: 'DEADLINE', waitId: slot.waitId });
    else set(slot);
  }

  return {
    arm(actor, waitId, ms) {
      let slot = slots.get(actor);
      if (!slot) {
        slot = { actor, waitId, at: 0, timer: undefined, timerAt: undefined };
        slots.set(actor, slot);
      }
      slot.waitId = waitId;
      slot.at = clock.now() + ms;
      if (slot.timerAt === undefined) set(slot);
      else if (slot.timerAt > slot.at) {
        clock.clearTimeout(slot.timer);
        set(slot);
      }
    },
  };
}
