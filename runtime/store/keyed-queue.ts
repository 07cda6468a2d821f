// Runs async jobs one at a time per key (jobs for different keys run concurrently). A failed
// job does not block the ones queued behind it. Keys with nothing queued are forgotten, so the
// map only holds tasks that currently have work in flight.

export interface KeyedQueue {
  run<T>(key: string, job: () => Promise<T>): Promise<T>;
  /** Resolves when every job queued so far has settled. */
  drain(): Promise<void>;
  /** Number of keys with a job queued or running. */
  readonly activeKeys: number;
}

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();

  function run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(job, job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  }

  async function drain(): Promise<void> {
    while (tails.size > 0) await Promise.all([...tails.values()]);
  }

  return {
    run,
    drain,
    get activeKeys() {
      return tails.size;
    },
  };
}
