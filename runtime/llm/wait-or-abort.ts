// The wait before a gateway's single retry: on the gateway's clock, cut short by the caller's abort.
import type { LlmClock } from './llm-clock.ts';

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function waitOrAbort(clock: LlmClock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clock.clearTimeout(handle);
      resolve(false);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
