export { createSystemClock, createTestClock, delayOn, every } from './clock.ts';
export type { Clock, WallClock } from './clock.ts';
