// The action actors' deadlines on the clock (deadline-timer.ts): one timer per actor, set again
// only when a deadline passes or an earlier one is armed; DEADLINE goes to the actor only for the
// wait it is still in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyActorRef } from 'xstate';
import { createTestClock } from '../../clock/index.ts';
import { createDeadlineTimer } from '../deadline-timer.ts';

/** A stand-in for an action actor: its snapshot's current wait, and the events it got. */
function fakeActor(waitId: number | null) {
  const received: unknown[] = [];
  const state = { waitId: waitId ?? 0, current: waitId === null ? null : {}, status: 'active' };
  const actor = {
    send: (event: unknown) => void received.push(event),
    getSnapshot: () => ({ status: state.status, context: { current: state.current, waitId: state.waitId } }),
  } as unknown as AnyActorRef;
  return { actor, received, state };
}

/** A clock that counts the timers set and cleared. */
function countingClock() {
  const clock = createTestClock(0);
  const counts = { set: 0, cleared: 0 };
  const setTimeout = clock.setTimeout.bind(clock);
  const clearTimeout = clock.clearTimeout.bind(clock);
  clock.setTimeout = (fn: () => void, ms: number) => {
    counts.set++;
    return setTimeout(fn, ms);
  };
  clock.clearTimeout = (id: unknown) => {
    counts.cleared++;
    clearTimeout(id as never);
  };
  return { clock, counts };
}

const timer = suite('deadline timer (one per action actor)');

timer('DEADLINE is sent when the current wait has passed, exactly at its time', () => {
  const { clock } = countingClock();
  const deadlines = createDeadlineTimer(clock);
  const a = fakeActor(1);
  deadlines.arm(a.actor, 1, 1_500);
  clock.increment(1_499);
  assert.equal(a.received, []);
  clock.increment(1);
  assert.equal(a.received, [{ type: 'DEADLINE', waitId: 1 }]);
});

timer('a later deadline sets no timer; when the first one fires it is set again for the later one', () => {
  const { clock, counts } = countingClock();
  const deadlines = createDeadlineTimer(clock);
  const a = fakeActor(1);
  deadlines.arm(a.actor, 1, 1_500); // T_ack
  clock.increment(10);
  a.state.waitId = 2;
  deadlines.arm(a.actor, 2, 5_000); // acked: T_exec from now (ends at 5010)
  assert.is(counts.set, 1, 'no second timer');
  clock.increment(1_490); // the T_ack timer fires: not passed for wait 2
  assert.equal(a.received, []);
  assert.is(counts.set, 2, 'set again for the exec deadline');
  clock.increment(3_509);
  assert.equal(a.received, []);
  clock.increment(1);
  assert.equal(a.received, [{ type: 'DEADLINE', waitId: 2 }]);
  assert.is(counts.cleared, 0, 'nothing was cleared');
});

timer('an earlier deadline than the timer set replaces it', () => {
  const { clock, counts } = countingClock();
  const deadlines = createDeadlineTimer(clock);
  const a = fakeActor(1);
  deadlines.arm(a.actor, 1, 10_000);
  a.state.waitId = 2;
  deadlines.arm(a.actor, 2, 1_000);
  assert.equal([counts.set, counts.cleared], [2, 1]);
  clock.increment(1_000);
  assert.equal(a.received, [{ type: 'DEADLINE', waitId: 2 }]);
  clock.increment(20_000);
  assert.is(a.received.length, 1, 'the replaced timer never fires');
});

timer('an actor that settled (idle) or moved to another wait gets no DEADLINE', () => {
  const { clock } = countingClock();
  const deadlines = createDeadlineTimer(clock);
  const settled = fakeActor(1);
  deadlines.arm(settled.actor, 1, 1_000);
  settled.state.current = null; // back to idle before the deadline
  const moved = fakeActor(1);
  deadlines.arm(moved.actor, 1, 1_000);
  moved.state.waitId = 2; // a wait whose deadline was never armed here
  const stopped = fakeActor(1);
  deadlines.arm(stopped.actor, 1, 1_000);
  stopped.state.status = 'stopped';
  clock.increment(5_000);
  assert.equal([settled.received, moved.received, stopped.received], [[], [], []]);
});

timer('successive actions of one actor: about one timer per T_ack, not two per action', () => {
  const { clock, counts } = countingClock();
  const deadlines = createDeadlineTimer(clock);
  const a = fakeActor(0);
  let waitId = 0;
  for (let i = 0; i < 100; i++) {
    a.state.waitId = ++waitId;
    deadlines.arm(a.actor, waitId, 1_500); // sent
    clock.increment(5);
    a.state.waitId = ++waitId;
    deadlines.arm(a.actor, waitId, 5_000); // acked
    clock.increment(15); // answered 20 ms after the send
  }
  assert.equal(a.received, []);
  // A timer fires about once per T_ack and is set again for the deadline then current; the next
  // action's earlier T_ack may replace it once.
  assert.ok(
    counts.set <= 4 && counts.cleared <= 2,
    `${counts.set} timers set, ${counts.cleared} cleared for 100 actions`,
  );
});

timer.run();
