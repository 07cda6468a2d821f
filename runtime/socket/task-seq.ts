// Each task's event order: the seq its next frontend event takes (1, 2, ...). A restored task
// goes on after the highest seq its stored messages carry (`seed`), so a reload after a restart
// keeps one order. Events that were never stored (text deltas, statuses) of a server that died
// are not known to the next one: their numbers may be given again, after every stored one.
export interface TaskSeq {
  /** The next seq of the task (the first is 1). */
  next(taskId: string): number;
  /** The last seq given, 0 when none. */
  last(taskId: string): number;
  /** Goes on after `lastSeq` (never back). */
  seed(taskId: string, lastSeq: number): void;
  /** Whether the task has a counter here (given or seeded). */
  has(taskId: string): boolean;
}

export function createTaskSeq(): TaskSeq {
  const counters = new Map<string, number>();
  return {
    next(taskId) {
      const n = (counters.get(taskId) ?? 0) + 1;
      counters.set(taskId, n);
      return n;
    },
    last: (taskId) => counters.get(taskId) ?? 0,
    seed(taskId, lastSeq) {
      if (Number.isInteger(lastSeq) && lastSeq > (counters.get(taskId) ?? 0)) counters.set(taskId, lastSeq);
      else if (!counters.has(taskId)) counters.set(taskId, 0);
    },
    has: (taskId) => counters.has(taskId),
  };
}

/** The highest seq stored messages carry (`meta.seq`, a step's `meta.settleSeq`; 0 when none). */
export function lastStoredSeq(messages: ReadonlyArray<{ meta?: { [key: string]: unknown } }>): number {
  let last = 0;
  for (const m of messages) {
    for (const seq of [m.meta?.seq, m.meta?.settleSeq]) {
      if (typeof seq === 'number' && Number.isInteger(seq) && seq > last) last = seq;
    }
  }
  return last;
}
