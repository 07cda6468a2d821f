// The replay loops' wait: poll a condition every 50 ms, and look again at once when woken (a new
// event or frame arrived). Real time: a replay drives a real server and real sockets.

export interface WokenWait {
  /** Ends the current pause now (call it on every new event). */
  wake(): void;
  /** Waits until `done()` or `timeoutMs` has passed; true when it timed out. `each` runs before every pause. */
  until(done: () => boolean, timeoutMs: number, each?: () => void): Promise<boolean>;
}

export function createWokenWait(pollMs = 50): WokenWait {
  let wake: () => void = () => {};
  return {
    wake: () => wake(),
    async until(done, timeoutMs, each) {
      const started = Date.now();
      while (!done()) {
        if (Date.now() - started > timeoutMs) return true;
        each?.();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return false;
    },
  };
}
