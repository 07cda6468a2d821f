// The default Scheduler: Node's timers, unref'd so an idle sweeper or a pending upload timeout
// never keeps the process alive.
import type { Scheduler } from './artifact-types.ts';

export function createNodeScheduler(): Scheduler {
  return {
    setTimeout(fn, ms) {
      return setTimeout(fn, ms).unref();
    },
    clearTimeout(handle) {
      clearTimeout(handle as NodeJS.Timeout);
    },
    setInterval(fn, ms) {
      return setInterval(fn, ms).unref();
    },
    clearInterval(handle) {
      clearInterval(handle as NodeJS.Timeout);
    },
  };
}
