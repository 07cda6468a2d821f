// The one clock of the runtime. It is XState's clock (`setTimeout` / `clearTimeout`, what
// `createActor(machine, { clock })` takes) plus `now()`, so one object times the actors, the
// registry, snapshots, artifacts, the scheduler, MCP and the orchestrator. Production uses
// `createSystemClock()`; tests pass XState's own `SimulatedClock` (it has `now()`, starting at 0;
// see `createTestClock` in test-clock.ts) and move time with `clock.increment(ms)`.

/** Structurally XState's `Clock` (what `createActor(m, { clock })` takes) plus `now()`. */
export interface Clock {
  /** Milliseconds since the epoch (or since the simulation began). */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What a component that only stamps times needs. */
export type WallClock = Pick<Clock, 'now'>;

/** Node's timers, unref'd: an idle timeout never keeps the process alive on its own. */
export function createSystemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      handle.unref?.();
      return handle;
    },
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

export { createTestClock, TestClock, TEST_EPOCH } from './test-clock.ts';

/** `setInterval` on a clock: re-arms a timeout after each run. Returns the cancel function. */
export function every(clock: Clock, ms: number, fn: () => void): () => void {
  let handle: unknown;
  let stopped = false;
  const arm = () => {
    handle = clock.setTimeout(() => {
      if (stopped) return;
      arm();
      fn();
    }, ms);
  };
  arm();
  return () => {
    stopped = true;
    clock.clearTimeout(handle);
  };
}

/** A promise that resolves after `ms` on the clock (rejects when `signal` aborts). */
export function delayOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
