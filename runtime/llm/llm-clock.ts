// Time as the gateways see it: the runtime's one clock (runtime/clock), injected so tests can
// fire timeouts and retry delays by hand.
import { createSystemClock as systemClock, type Clock } from '../clock/index.ts';

export type LlmClock = Clock;

export function createSystemClock(): LlmClock {
  return systemClock();
}
