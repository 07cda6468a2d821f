// The summary index on disk (`<dataDir>/tasks/index.jsonl`), so `init()` reads one file instead
// of every task's meta.json. It is an append-only log maintained on write:
//
//   {"v":1}                      header (first line)
//   {"w":"<taskId>"}             intent: a meta write of this task is about to happen
//   {"s":{<TaskSummary>}}        the task's summary after a meta write that succeeded
//
// The last `s` of a task wins. A task whose last line is a `w` (the process died between the
// intent and the summary, or the meta write failed) has its meta.json read again at start, so the
// index is never trusted past what is on disk. A torn last line (crash mid-append) is dropped; a
// bad line anywhere else, a missing file or an unknown header means "damaged": the store rebuilds
// the index from every meta.json (the slow path) and writes a compacted one. The log is compacted
// (rewritten as header + one `s` per task + `w` for writes in flight) when it holds more than
// twice as many lines as tasks.
import { TASK_STATUSES, TURN_OUTCOMES } from './task-types.ts';
import type { TaskSummary } from './task-types.ts';

export const INDEX_VERSION = 1;
export const INDEX_HEADER = `{"v":${INDEX_VERSION}}\n`;

/** Where the index lives (a file on disk or a string in memory). */
export interface IndexFile {
  /** The whole text, or null when there is none. */
  read(): Promise<string | null>;
  append(text: string): Promise<void>;
  /** Atomically replaces the whole file (temp file + rename). */
  replace(text: string): Promise<void>;
  /** Releases what the file holds open (the store's `close()`). */
  close?(): Promise<void>;
}

export interface ParsedIndex {
  summaries: Map<string, TaskSummary>;
  /** Tasks whose last line is an intent: their meta.json must be read again. */
  pending: Set<string>;
  lines: number;
}

export function isSummary(value: unknown): value is TaskSummary {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<TaskSummary>;
  return (
    typeof s.taskId === 'string' &&
    typeof s.title === 'string' &&
    (TASK_STATUSES as readonly unknown[]).includes(s.status) &&
    typeof s.createdAt === 'number' &&
    typeof s.updatedAt === 'number' &&
    (s.selectedClientId === undefined || typeof s.selectedClientId === 'string') &&
    (s.outcome === undefined || (TURN_OUTCOMES as readonly unknown[]).includes(s.outcome))
  );
}

/** The index in `text`, or a reason why it is damaged. */
export function parseIndex(text: string): ParsedIndex | { damaged: string } {
  const lines = text.split('\n');
  // A complete file ends with "\n": the last element is "" then; anything else is a torn line.
  const torn = lines.pop() !== '';
  if (lines[0] === undefined || lines[0] + '\n' !== INDEX_HEADER) return { damaged: 'unknown index header' };
  const summaries = new Map<string, TaskSummary>();
  const pending = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    let entry: { w?: unknown; s?: unknown };
    try {
      entry = JSON.parse(lines[i]!) as typeof entry;
    } catch {
      return { damaged: `unparseable line ${i + 1}` };
    }
    if (typeof entry?.w === 'string') pending.add(entry.w);
    else if (isSummary(entry?.s)) {
      summaries.set(entry.s.taskId, entry.s);
      pending.delete(entry.s.taskId);
    } else return { damaged: `unrecognized line ${i + 1}` };
  }
  void torn; // a torn last line is the tail of an append the process did not finish: dropped
  return { summaries, pending, lines: lines.length };
}

export const intentLine = (taskId: string) => `{"w":${JSON.stringify(taskId)}}\n`;
export const summaryLine = (summary: TaskSummary) => `{"s":${JSON.stringify(summary)}}\n`;

export function compactedIndex(
  summaries: Iterable<TaskSummary>,
  pending: Iterable<string>,
): { text: string; lines: number } {
  const parts = [INDEX_HEADER];
  for (const summary of summaries) parts.push(summaryLine(summary));
  for (const taskId of pending) parts.push(intentLine(taskId));
  return { text: parts.join(''), lines: parts.length };
}

/**
 * One writer for the index: appends are batched (what arrives while a write is on disk goes out
 * in the next single write) and kept in call order; `compact` runs between batches.
 */
export function createIndexWriter(file: IndexFile, onError: (error: unknown) => void) {
  let buffer: string[] = [];
  let waiters: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  let compactWith: (() => { text: string; lines: number }) | null = null;
  let compactWaiters: Array<() => void> = [];
  let running: Promise<void> | null = null;
  let lines = 0;

  async function drain(): Promise<void> {
    while (buffer.length > 0 || compactWith) {
      if (buffer.length > 0) {
        const text = buffer.join('');
        const batch = waiters;
        const count = buffer.length;
        buffer = [];
        waiters = [];
        try {
          await file.append(text);
          lines += count;
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      } else if (compactWith) {
        const build = compactWith;
        const done = compactWaiters;
        compactWith = null;
        compactWaiters = [];
        const next = build();
        try {
          await file.replace(next.text);
          lines = next.lines;
        } catch (error) {
          onError(error);
        }
        for (const resolve of done) resolve();
      }
    }
    running = null;
  }
  const kick = () => (running ??= drain());

  return {
    /** Lines in the file as far as this writer knows (to decide when to compact). */
    get lines() {
      return lines;
    },
    set lines(n: number) {
      lines = n;
    },
    append(text: string): Promise<void> {
      return new Promise((resolve, reject) => {
        buffer.push(text);
        waiters.push({ resolve, reject });
        void kick();
      });
    },
    /** Rewrites the file from `build()` (called when it is this job's turn, so it sees the latest state). */
    compact(build: () => { text: string; lines: number }): Promise<void> {
      return new Promise((resolve) => {
        compactWith = build;
        compactWaiters.push(resolve);
        void kick();
      });
    },
    async drain(): Promise<void> {
      while (running) await running;
    },
  };
}
