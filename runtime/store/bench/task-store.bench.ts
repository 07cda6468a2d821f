// Benchmark: does appendMessage cost depend on how many tasks are stored? Two file stores, one
// seeded with 100 tasks and one with 10,000 (temp folders, through the store's own
// createTaskIfAbsent), reopened (so the 10,000-task index is really loaded from disk), then
// appends measured side by side, alternating between the stores sample by sample so drift in
// machine load hits both equally. Appends go round-robin to 10 "active" tasks of each store.
//
//   node --import tsx runtime/store/bench/task-store.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTaskStore } from '../task-store.ts';
import type { TaskStore } from '../task-types.ts';

export interface AppendFigures {
  p50Ms: number;
  meanMs: number;
  /** Tasks stored when measured. */
  tasks: number;
  /** Time to seed the tasks and to load the index at reopen (context, not part of the ratio). */
  seedMs: number;
  initMs: number;
}

export interface TaskStoreAppendBench {
  with100: AppendFigures;
  with10000: AppendFigures;
  /** with10000.p50Ms / with100.p50Ms: ~1 means the append cost does not grow with the store. */
  ratio: number;
}

export interface BenchOptions {
  small?: number;
  large?: number;
  samples?: number;
  warmup?: number;
  activeTasks?: number;
}

const clock = { now: () => Date.now() };
const taskId = (i: number) => `task-${String(i).padStart(6, '0')}`;

async function seed(dataDir: string, count: number): Promise<number> {
  const started = performance.now();
  const store = createTaskStore({ dataDir, clock });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await store.createTaskIfAbsent({ taskId: taskId(i), title: `seeded task ${i}` });
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  await store.close();
  return performance.now() - started;
}

function summarize(samples: number[]): { p50Ms: number; meanMs: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50Ms = sorted[Math.floor(sorted.length / 2)]!;
  const meanMs = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  return { p50Ms: Number(p50Ms.toFixed(4)), meanMs: Number(meanMs.toFixed(4)) };
}

export async function benchTaskStoreAppend(options: BenchOptions = {}): Promise<TaskStoreAppendBench> {
  const { small = 100, large = 10_000, samples = 400, warmup = 40, activeTasks = 10 } = options;
  const root = await mkdtemp(join(tmpdir(), 'mimo-bench-store-'));
  try {
    const sides = [
      {
        count: small,
        dir: join(root, 'small'),
        times: [] as number[],
        seedMs: 0,
        initMs: 0,
        store: undefined as TaskStore | undefined,
      },
      {
        count: large,
        dir: join(root, 'large'),
        times: [] as number[],
        seedMs: 0,
        initMs: 0,
        store: undefined as TaskStore | undefined,
      },
    ];
    for (const side of sides) side.seedMs = await seed(side.dir, side.count);
    for (const side of sides) {
      const started = performance.now();
      side.store = createTaskStore({ dataDir: side.dir, clock });
      const report = await side.store.init();
      if (report.taskCount !== side.count) throw new Error(`seeded ${side.count} tasks, found ${report.taskCount}`);
      side.initMs = performance.now() - started;
    }
    const active = Math.min(activeTasks, small);
    for (let i = 0; i < warmup + samples; i++) {
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
        const started = performance.now();
        await side.store!.appendMessage(taskId(i % active), {
          id: `m${i}`,
          role: 'assistant',
          content: `reply ${i} ${'lorem ipsum '.repeat(20)}`,
          timestamp: Date.now(),
        });
        if (i >= warmup) side.times.push(performance.now() - started);
      }
    }
    for (const side of sides) await side.store!.close();
    const [a, b] = sides.map((side) => ({
      ...summarize(side.times),
      tasks: side.count,
      seedMs: Math.round(side.seedMs),
      initMs: Math.round(side.initMs),
    })) as [AppendFigures, AppendFigures];
    return { with100: a, with10000: b, ratio: Number((b.p50Ms / a.p50Ms).toFixed(3)) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Prints the figures (what the standalone run and the `npm run bench` section show). */
export function printTaskStoreAppend(result: TaskStoreAppendBench): void {
  const line = (label: string, f: AppendFigures) =>
    `${label.padEnd(14)} p50 ${f.p50Ms.toFixed(3)} ms  mean ${f.meanMs.toFixed(3)} ms  (seeded in ${f.seedMs} ms, index loaded in ${f.initMs} ms)`;
  console.log('taskStore.appendMessage, side by side in one run');
  console.log(line(`${result.with100.tasks} tasks`, result.with100));
  console.log(line(`${result.with10000.tasks} tasks`, result.with10000));
  console.log(`ratio (p50, ${result.with10000.tasks} / ${result.with100.tasks} tasks): ${result.ratio}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTaskStoreAppend(await benchTaskStoreAppend());
}
