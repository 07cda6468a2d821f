// The one test clock: XState's SimulatedClock (what actors take), started at a realistic epoch so
// timestamps look like real ones, plus `pending()`, the delays of the timers not yet fired (tests
// of retry and timeout waits read it). Tests move time with `increment(ms)`; due timers fire then,
// in order, and see `now()` at the new time.
import { SimulatedClock } from 'xstate';

export const TEST_EPOCH = Date.UTC(2026, 10, 24, 12, 0, 0);

export class TestClock extends SimulatedClock {
  /** Delays (ms) of the timers still pending, in creation order. */
  pending(): number[] {
    const timeouts = (this as unknown as { timeouts: Map<number, { timeout: number }> }).timeouts;
    return [...timeouts.values()].map((t) => t.timeout);
  }
}

export function createTestClock(start = TEST_EPOCH): TestClock {
  const clock = new TestClock();
  clock.set(start);
  return clock;
}
