// Benchmark: how long the server takes to start with 100,000 stored tasks, and
// what one page of the task list costs against the whole list, with references in the same run:
//
//   empty      createServer + the orchestrator's restore over an empty data folder (the floor)
//   scan       100,000 tasks and no index: every meta.json read (the store before the index),
//              which also writes the index
//   indexed    100,000 tasks with the index: what every later start costs
//
// The 100,000 task folders are written straight to disk in the store's own format (meta.json,
// `{"version":1,"task":{...}}`); the store must find all of them, or the bench throws.
//
//   node --import tsx runtime/store/bench/store-start.bench.ts     (MIMO_BENCH_START_TASKS)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInspectionHub } from '../../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../agent/orchestrator.ts';
import { createSystemClock } from '../../clock/index.ts';
import { createServer } from '../../server.ts';
import { scriptedLlm } from '../../test/scripted-llm.ts';
import { testConfig } from '../../test/util.ts';
import { createTaskStore } from '../task-store.ts';

export interface StoreStartFigures {
  tasks: number;
  emptyStartMs: number;
  scanStartMs: number;
  indexedStartMs: number;
  /** indexedStartMs / emptyStartMs. */
  ratioToEmpty: number;
  listAllMs: number;
  listAllBytes: number;
  pageMs: number;
  pageBytes: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const STATUSES = ['created', 'running', 'ongoing', 'completed', 'error'] as const;

function seed(dataDir: string, count: number): void {
  const tasksDir = join(dataDir, 'tasks');
  mkdirSync(tasksDir, { recursive: true });
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i++) {
    const taskId = `task-${String(i).padStart(6, '0')}`;
    mkdirSync(join(tasksDir, taskId));
    const task = {
      taskId,
      title: `seeded task ${i}: find the cheapest flight`,
      status: STATUSES[i % STATUSES.length],
      createdAt: t0 + i * 1_000,
      updatedAt: t0 + i * 1_000 + 500,
      usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
    };
    writeFileSync(join(tasksDir, taskId, 'meta.json'), JSON.stringify({ version: 1, task }));
  }
}

/** createServer (with the agent) + restore, as `startMimo` does; resolves when listening and restored. */
async function startOnce(
  dir: string,
  expectTasks: number,
): Promise<{ ms: number; server: Awaited<ReturnType<typeof createServer>> }> {
  (globalThis as { gc?: () => void }).gc?.();
  const clock = createSystemClock();
  const started = performance.now();
  const inspection = createInspectionHub({ clock });
  const server = await createServer({
    config: testConfig(dir),
    clock,
    log: () => {},
    taskStore: createTaskStore({ dataDir: join(dir, 'data'), clock }),
    control: (services) => createAgentOrchestrator(services, { llm: scriptedLlm([]), inspection }),
  });
  await (server.control as { restore?: () => Promise<number> }).restore?.();
  const ms = performance.now() - started;
  const found = (await server.taskStore.listTaskPage({ limit: 1 })).tasks.length;
  if (expectTasks > 0 !== found > 0)
    throw new Error(`expected ${expectTasks} tasks, the store has ${found ? 'some' : 'none'}`);
  return { ms, server };
}

export async function benchStoreStart(options: { tasks?: number; repeats?: number } = {}): Promise<StoreStartFigures> {
  const tasks = options.tasks ?? Number(process.env.MIMO_BENCH_START_TASKS ?? 100_000);
  const repeats = options.repeats ?? 3;
  const emptyDir = mkdtempSync(join(tmpdir(), 'mimo-start-empty-'));
  const bigDir = mkdtempSync(join(tmpdir(), 'mimo-start-big-'));
  try {
    seed(join(bigDir, 'data'), tasks);
    const empty: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const { ms, server } = await startOnce(emptyDir, 0);
      empty.push(ms);
      await server.close();
    }
    // First start over the seeded folders: no index yet, so the store scans (and writes one).
    const scan = await startOnce(bigDir, tasks);
    if ((await scan.server.taskStore.listTasks()).length !== tasks)
      throw new Error('the scan did not find every seeded task');
    await scan.server.close();
    const indexed: number[] = [];
    let listAllMs = 0;
    let listAllBytes = 0;
    let pageMs = 0;
    let pageBytes = 0;
    for (let i = 0; i < repeats; i++) {
      const { ms, server } = await startOnce(bigDir, tasks);
      indexed.push(ms);
      if (i === repeats - 1) {
        const timed = async (path: string) => {
          const t = performance.now();
          const res = await fetch(`${server.url}${path}`);
          const text = await res.text();
          return {
            ms: performance.now() - t,
            bytes: Buffer.byteLength(text),
            body: JSON.parse(text) as { data: unknown },
          };
        };
        const all = await timed('/api/task/list');
        if ((all.body.data as unknown[]).length !== tasks) throw new Error('the full list is short');
        const page = await timed('/api/task/list?limit=50');
        if ((page.body.data as { tasks: unknown[] }).tasks.length !== 50) throw new Error('the page is short');
        ({ ms: listAllMs, bytes: listAllBytes } = all);
        ({ ms: pageMs, bytes: pageBytes } = page);
      }
      await server.close();
    }
    const emptyStartMs = median(empty);
    const indexedStartMs = median(indexed);
    return {
      tasks,
      emptyStartMs,
      scanStartMs: scan.ms,
      indexedStartMs,
      ratioToEmpty: indexedStartMs / emptyStartMs,
      listAllMs,
      listAllBytes,
      pageMs,
      pageBytes,
    };
  } finally {
    rmSync(emptyDir, { recursive: true, force: true });
    rmSync(bigDir, { recursive: true, force: true });
  }
}

export function printStoreStart(f: StoreStartFigures): void {
  const n = f.tasks.toLocaleString('en-US');
  console.log(`server start (createServer + restore, file store), medians, side by side in one run`);
  console.log(`  empty data folder            ${f.emptyStartMs.toFixed(0)} ms`);
  console.log(
    `  ${n} tasks, no index (scan)  ${f.scanStartMs.toFixed(0)} ms   (first start only: reads every meta.json, writes the index)`,
  );
  console.log(
    `  ${n} tasks, with the index   ${f.indexedStartMs.toFixed(0)} ms   (ratio to empty: ${f.ratioToEmpty.toFixed(1)})`,
  );
  console.log(
    `  GET /api/task/list           ${f.listAllMs.toFixed(0)} ms, ${(f.listAllBytes / 2 ** 20).toFixed(1)} MiB (every task)`,
  );
  console.log(`  GET /api/task/list?limit=50  ${f.pageMs.toFixed(1)} ms, ${(f.pageBytes / 1024).toFixed(1)} KiB`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printStoreStart(await benchStoreStart());
}
