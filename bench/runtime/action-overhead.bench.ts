// Server overhead per browser action at 200 concurrent tasks, fake plugins (another process)
// answering at once. Overhead = time the server spends between an action's result arriving
// and the next action's frame leaving for the same task (result -> machine settles -> queue ->
// next actor -> frame encoded and written), plus run() -> frame written for the first one.
// Network and plugin time are excluded by construction.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../runtime/server.ts';
import { createMemoryTaskStore } from '../../runtime/store/index.ts';
import { testConfig } from '../../runtime/test/util.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchActionOverhead(options: { tasks?: number; plugins?: number; seconds?: number } = {}) {
  const tasks = options.tasks ?? 200;
  const pluginCount = options.plugins ?? 20;
  const seconds = options.seconds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'mimo-bench-'));
  const server = await createServer({
    config: testConfig(dir),
    log: () => {},
    taskStore: createMemoryTaskStore({ clock: { now: () => Date.now() } }),
  });
  const swarm = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./plugin-swarm.ts', import.meta.url).pathname, server.url, String(pluginCount)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => swarm.stdout.once('data', () => resolve()));

  // Timestamps: when a task's frame is emitted, when its result arrives.
  const emittedAt = new Map<string, number>();
  const resultAt = new Map<string, number>();
  const emit = server.nsp.to.bind(server.nsp);
  void emit;
  const originalHandle = server.scheduler.handleResult.bind(server.scheduler);
  server.scheduler.handleResult = (clientId, result) => {
    resultAt.set(result.actionId, performance.now());
    return originalHandle(clientId, result);
  };
  const overheads: number[] = [];
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const end = performance.now() + seconds * 1_000;
  await Promise.all(
    Array.from({ length: tasks }, async (_, i) => {
      const taskId = `01JD${String(i).padStart(22, '0')}`;
      const clientId = `bench-plugin-${i % pluginCount}`;
      let previous: string | null = null;
      let runCalledAt = performance.now();
      while (performance.now() < end) {
        const actionId = `act-${i}-${count++}`;
        const frameSeen = new Promise<number>((resolve) => emittedAt.set(actionId, -1) && watch.set(actionId, resolve));
        const done = server.tasks.run({
          taskId,
          clientId,
          actionName: 'browser_click',
          params: { tabId: 1, clickId: 1 },
          actionId,
        });
        const sentAt = await frameSeen;
        overheads.push(sentAt - (previous ? resultAt.get(previous)! : runCalledAt));
        await done;
        if (previous) resultAt.delete(previous);
        previous = actionId;
        runCalledAt = performance.now();
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  swarm.kill('SIGTERM');
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  overheads.sort((a, b) => a - b);
  return {
    actions: overheads.length,
    tasks,
    p50Ms: percentile(overheads, 50),
    p99Ms: percentile(overheads, 99),
    cpuMicrosPerAction: (cpu.user + cpu.system) / overheads.length,
  };
}

// The frame-emit hook: the scheduler's channel emits through the namespace; we observe the
// emit of each action id by wrapping ServerSocket.emit once per process.
const watch = new Map<string, (t: number) => void>();
const { ServerSocket } = await import('../../transport/server/index.ts');
const originalEmit = ServerSocket.prototype.emit;
ServerSocket.prototype.emit = function (this: InstanceType<typeof ServerSocket>, event: string, ...args: unknown[]) {
  const result = originalEmit.call(this, event, ...args);
  const frame = args[0] as { type?: string; id?: string };
  if (event === 'plugin_message' && frame?.type === 'browser_action' && frame.id) {
    const resolve = watch.get(frame.id);
    if (resolve) {
      watch.delete(frame.id);
      resolve(performance.now());
    }
  }
  return result;
};

export function printActionOverhead(r: Awaited<ReturnType<typeof benchActionOverhead>>): void {
  console.log(
    `runtime: server overhead per action, ${r.tasks} concurrent tasks, fake plugins answering at once (${r.actions} actions)`,
  );
  console.log(
    `  result -> next dispatch: p50 ${r.p50Ms.toFixed(3)} ms (target < 0.5)  p99 ${r.p99Ms.toFixed(3)} ms (target < 2)`,
  );
  console.log(`  server CPU per action (whole process, incl. the driver loop): ${r.cpuMicrosPerAction.toFixed(0)} µs`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printActionOverhead(await benchActionOverhead({ seconds: Number(process.env.MIMO_BENCH_SECONDS ?? 5) }));
}
