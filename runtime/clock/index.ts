export { createSystemClock, createTestClock, delayOn, every, TestClock, TEST_EPOCH } from './clock.ts';
export type { Clock, WallClock } from './clock.ts';
