// The operations a store has started and that have not settled yet: `drain()` waits for all of
// them, also for those started while it waits (close and flush), and `size` says how many are
// pending. A failed operation counts as settled; its caller gets the failure.
export interface InFlight {
  /** Tracks the operation until it settles; returns it unchanged. */
  track<T>(operation: Promise<T>): Promise<T>;
  drain(): Promise<void>;
  readonly size: number;
}

export function createInFlight(): InFlight {
  const pending = new Set<Promise<void>>();
  return {
    track(operation) {
      const settled = operation.then(
        () => undefined,
        () => undefined,
      );
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
      return operation;
    },
    async drain() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    get size() {
      return pending.size;
    },
  };
}
