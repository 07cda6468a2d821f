// Capped retry of known transient failures (STYLE.md: Dark Reader / webext-messenger habit).
// Only errors `isTransient` accepts are retried, at most `delaysMs.length` times.

export interface RetryOptions {
  /** Backoff before each retry; its length is the retry cap. */
  delaysMs: readonly number[];
  isTransient(error: unknown): boolean;
  sleep(ms: number): Promise<void>;
}

export async function retryTransient<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let n = 0; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      const delay = options.delaysMs[n];
      if (delay === undefined || !options.isTransient(error)) throw error;
      await options.sleep(delay);
    }
  }
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
