// Benchmark: does appendMessage cost grow with the task's own history? One file store, two tasks:
// one with 1 message, one with 3,000 (chat-sized, ~300 B each); appends alternate between them
// sample by sample, so machine load hits both equally. Goal: ratio <= 1.5.
// Second section: appends per second through the held-open handle (append-files.ts: a synchronous
// write(2), the default without fsync) against the old path (open + write + close per append),
// and the held handle with thread-pool writes (what fsync mode uses) as a middle reference; the
// stores in the same run, alternated; once
// one append at a time (the agent loop's pattern: appends of a task come ~20 ms apart) and once
// as bursts of concurrent appends to 8 tasks.
//
//   node --import tsx runtime/store/bench/message-append.bench.ts
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAppendFiles } from '../append-files.ts';
import type { MessageLog } from '../message-log.ts';
import { createFsTaskFiles } from '../task-files.ts';
import { createTaskStore } from '../task-store.ts';
import { createTaskStoreCore } from '../task-store-core.ts';
import type { TaskStore } from '../task-types.ts';

export interface MessageAppendBench {
  shortP50Ms: number;
  longP50Ms: number;
  history: number;
  /** longP50Ms / shortP50Ms */
  ratio: number;
}

const clock = { now: () => Date.now() };
const message = (id: string) => ({
  id,
  role: 'user' as const,
  content: `message ${id} ${'x'.repeat(280)}`,
  timestamp: Date.now(),
});
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchMessageAppend(
  options: { history?: number; samples?: number } = {},
): Promise<MessageAppendBench> {
  const history = options.history ?? 3_000;
  const samples = options.samples ?? 300;
  const dir = await mkdtemp(join(tmpdir(), 'mimo-append-bench-'));
  try {
    const store = createTaskStore({ dataDir: dir, clock });
    await store.createTaskIfAbsent({ taskId: 'short', title: 'short' });
    await store.createTaskIfAbsent({ taskId: 'long', title: 'long' });
    await store.appendMessage('short', message('s-0'));
    for (let i = 0; i < history; i++) await store.appendMessage('long', message(`l-${i}`));
    const short: number[] = [];
    const long: number[] = [];
    for (let i = 0; i < samples + 20; i++) {
      for (const [taskId, into] of [
        ['short', short],
        ['long', long],
      ] as const) {
        const started = performance.now();
        await store.appendMessage(taskId, message(`${taskId}-b-${i}`));
        if (i >= 20) into.push(performance.now() - started);
      }
    }
    await store.close();
    const shortP50Ms = p50(short);
    const longP50Ms = p50(long);
    return { shortP50Ms, longP50Ms, history, ratio: longP50Ms / shortP50Ms };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface HeldHandleBench {
  /** appendMessage calls per second, one at a time. */
  sequential: { held: number; heldAsync: number; reopened: number; ratio: number };
  /** appendMessage calls per second, bursts of `burst` concurrent appends spread over 8 tasks. */
  burst: { held: number; heldAsync: number; reopened: number; ratio: number; size: number };
}

/** The message log before the held handles: open, write, (fsync,) close per append. */
function reopeningLog(file: string): MessageLog {
  return {
    read: async () => [],
    async append(message) {
      const handle = await open(file, 'a');
      try {
        await handle.write(`${JSON.stringify(message)}\n`);
      } finally {
        await handle.close();
      }
    },
  };
}

export async function benchHeldHandles(
  options: { rounds?: number; perRound?: number; burst?: number } = {},
): Promise<HeldHandleBench> {
  const rounds = options.rounds ?? 10;
  const perRound = options.perRound ?? 200;
  const burst = options.burst ?? 64;
  const dir = await mkdtemp(join(tmpdir(), 'mimo-append-held-'));
  const tasks = Array.from({ length: 8 }, (_, i) => `t${i}`);
  try {
    const heldFiles = createFsTaskFiles({ dataDir: join(dir, 'held') });
    const asyncFiles = createFsTaskFiles({ dataDir: join(dir, 'async') });
    const asyncAppends = createAppendFiles({ syncWrites: false, trimOnOpen: false });
    const oldFiles = createFsTaskFiles({ dataDir: join(dir, 'old') });
    const stores: Record<'held' | 'heldAsync' | 'reopened', TaskStore> = {
      held: createTaskStoreCore({ files: heldFiles, clock }),
      heldAsync: createTaskStoreCore({
        files: {
          ...asyncFiles,
          messageLog: (taskId) => ({
            read: async () => [],
            append: (m) =>
              asyncAppends.append(join(dir, 'async', 'tasks', taskId, 'messages.jsonl'), `${JSON.stringify(m)}\n`),
          }),
        },
        clock,
      }),
      reopened: createTaskStoreCore({
        files: {
          ...oldFiles,
          messageLog: (taskId) => reopeningLog(join(dir, 'old', 'tasks', taskId, 'messages.jsonl')),
        },
        clock,
      }),
    };
    for (const store of Object.values(stores))
      for (const taskId of tasks) await store.createTaskIfAbsent({ taskId, title: taskId });
    const time: Record<string, number> = {
      'held-seq': 0,
      'heldAsync-seq': 0,
      'reopened-seq': 0,
      'held-burst': 0,
      'heldAsync-burst': 0,
      'reopened-burst': 0,
    };
    let n = 0;
    for (let round = 0; round < rounds + 1; round++) {
      for (const name of ['held', 'heldAsync', 'reopened'] as const) {
        const store = stores[name];
        let started = performance.now();
        for (let i = 0; i < perRound; i++) await store.appendMessage(tasks[i % tasks.length]!, message(`m${n++}`));
        if (round > 0) time[`${name}-seq`]! += performance.now() - started; // round 0 warms up
        started = performance.now();
        for (let b = 0; b < perRound / burst + 1; b++) {
          await Promise.all(
            Array.from({ length: burst }, (_, i) => store.appendMessage(tasks[i % tasks.length]!, message(`m${n++}`))),
          );
        }
        if (round > 0) time[`${name}-burst`]! += performance.now() - started;
      }
    }
    for (const store of Object.values(stores)) await store.close();
    await asyncAppends.close();
    const perSecond = (count: number, ms: number) => Math.round((count * 1000) / ms);
    const seqCount = rounds * perRound;
    const burstCount = rounds * (Math.floor(perRound / burst) + 1) * burst;
    const rate = (key: string, count: number) => perSecond(count, time[key]!);
    const held = rate('held-seq', seqCount);
    const reopened = rate('reopened-seq', seqCount);
    const heldBurst = rate('held-burst', burstCount);
    const reopenedBurst = rate('reopened-burst', burstCount);
    return {
      sequential: { held, heldAsync: rate('heldAsync-seq', seqCount), reopened, ratio: held / reopened },
      burst: {
        held: heldBurst,
        heldAsync: rate('heldAsync-burst', burstCount),
        reopened: reopenedBurst,
        ratio: heldBurst / reopenedBurst,
        size: burst,
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function printMessageAppend(r: MessageAppendBench, held?: HeldHandleBench): void {
  console.log(
    `appendMessage p50: ${r.shortP50Ms.toFixed(3)} ms with 1 message, ${r.longP50Ms.toFixed(3)} ms with ${r.history} -> ratio ${r.ratio.toFixed(2)} (goal <= 1.5)`,
  );
  if (held) {
    const line = (r: HeldHandleBench['sequential']) =>
      `${r.held} vs ${r.reopened} (x${r.ratio.toFixed(2)}; held with thread-pool writes ${r.heldAsync})`;
    console.log(
      `appendMessage/s, held-open handle (sync write) vs open+write+close per append: one at a time ${line(held.sequential)}; bursts of ${held.burst.size} over 8 tasks ${line(held.burst)}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  printMessageAppend(await benchMessageAppend(), await benchHeldHandles());
