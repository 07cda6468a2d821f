// The one test clock: a realistic start, timers fired in order by increment(ms), pending() lists
// the delays still armed, and a cleared timer is gone from it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestClock, TEST_EPOCH } from '../index.ts';

test('starts at the test epoch (or where told) and moves only by increment', () => {
  assert.is(createTestClock().now(), TEST_EPOCH);
  const clock = createTestClock(0);
  clock.increment(250);
  assert.is(clock.now(), 250);
});

test('pending() lists the delays not yet fired, in creation order; increment fires due ones in time order', () => {
  const clock = createTestClock(0);
  const fired: string[] = [];
  clock.setTimeout(() => fired.push('late'), 500);
  const cleared = clock.setTimeout(() => fired.push('cleared'), 100);
  clock.setTimeout(() => fired.push('early'), 200);
  assert.equal(clock.pending(), [500, 100, 200]);
  clock.clearTimeout(cleared);
  assert.equal(clock.pending(), [500, 200]);
  clock.increment(199);
  assert.equal(fired, []);
  clock.increment(400);
  assert.equal(fired, ['early', 'late']);
  assert.equal(clock.pending(), []);
});

test('a zero delay fires on increment(0)', () => {
  const clock = createTestClock(0);
  let ran = false;
  clock.setTimeout(() => (ran = true), 0);
  assert.equal(clock.pending(), [0]);
  clock.increment(0);
  assert.ok(ran);
});

test.run();
