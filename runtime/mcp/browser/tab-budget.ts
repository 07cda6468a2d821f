// Tab slots for MCP work (seed 003 §8.5, §8.6): at most 20 tabs per session and 50 in all.
// A slot is taken before a tab is opened and given back when it is closed; callers that must
// have a tab wait in FIFO order (a run step), callers that must not wait ask `tryAcquire`.

export const MAX_TABS_PER_SESSION = 20;
export const MAX_TABS_TOTAL = 50;

export interface TabBudget {
  /** Takes a slot now if one is free (per session and in all). */
  tryAcquire(sessionId: string): boolean;
  /** Waits for a slot (first come, first served); rejects with the signal's reason when aborted. */
  acquire(sessionId: string, signal?: AbortSignal): Promise<void>;
  release(sessionId: string): void;
  inUse(sessionId?: string): number;
  /** Slots a session could take right now. */
  free(sessionId: string): number;
  readonly limits: { perSession: number; total: number };
}

export function createTabBudget(limits: { perSession?: number; total?: number } = {}): TabBudget {
  const perSession = limits.perSession ?? MAX_TABS_PER_SESSION;
  const total = limits.total ?? MAX_TABS_TOTAL;
  const bySession = new Map<string, number>();
  let used = 0;
  const waiters: Array<{ sessionId: string; resolve: () => void }> = [];

  const free = (sessionId: string) => Math.max(0, Math.min(perSession - (bySession.get(sessionId) ?? 0), total - used));
  const take = (sessionId: string) => {
    bySession.set(sessionId, (bySession.get(sessionId) ?? 0) + 1);
    used += 1;
  };

  function wake(): void {
    for (let i = 0; i < waiters.length;) {
      const waiter = waiters[i]!;
      if (free(waiter.sessionId) > 0) {
        waiters.splice(i, 1);
        take(waiter.sessionId);
        waiter.resolve();
      } else i++;
    }
  }

  return {
    limits: { perSession, total },
    tryAcquire(sessionId) {
      if (free(sessionId) === 0 || waiters.some((w) => w.sessionId === sessionId)) return false;
      take(sessionId);
      return true;
    },
    acquire(sessionId, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (free(sessionId) > 0 && !waiters.some((w) => w.sessionId === sessionId)) {
        take(sessionId);
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          sessionId,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    release(sessionId) {
      const count = bySession.get(sessionId) ?? 0;
      if (count === 0) return;
      if (count === 1) bySession.delete(sessionId);
      else bySession.set(sessionId, count - 1);
      used -= 1;
      wake();
    },
    inUse(sessionId) {
      return sessionId === undefined ? used : (bySession.get(sessionId) ?? 0);
    },
    free,
  };
}
