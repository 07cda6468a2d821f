// The whole server as a black box: Mimo in its own process (blackbox/server-process.ts, started
// as `mimo` starts it, with a scripted LLM that clicks forever), fake extensions in another
// (blackbox/extension-swarm.ts: screenshots uploaded over HTTP, real-size page text and element
// index), and in the same run, rounds interleaved, the reference: a plain Socket.IO server in its
// own process (bench/transport/server-process.ts socketio) answering an event with an ack, driven
// by plain clients (blackbox/echo-swarm.ts). Reported per round: server CPU per browser action,
// the reference's server CPU per event+ack, their ratio, actions per second per core (browser
// actions / server CPU seconds; at 200 tasks the server is saturated), and the result-to-next-
// dispatch gap as the plugins see it (p50, p99).
//
// Each server window starts its own server and extensions, warms up 2 s and measures; with
// MIMO_BENCH_COMPARE_TREE=<another checkout> the same server entry also runs there, the windows
// interleaved (base, ours, reference, base, ours, reference, ...).
//
//   node --import tsx bench/runtime/server-blackbox.bench.ts
//     MIMO_BENCH_SECONDS (window per round, default 5), MIMO_BENCH_ROUNDS (default 3),
//     MIMO_BENCH_TASKS (comma list, default 20,200), MIMO_BENCH_PLUGIN_DELAY_MS (default 20),
//     MIMO_BENCH_COMPARE_TREE (optional), MIMO_BENCH_CPU_PROF=dir (a CPU profile per server window)
import { fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(file: string, args: string[], cwd?: string, env?: Record<string, string>): ChildProcess {
  return fork(file, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    ...(cwd ? { cwd } : {}),
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
}
function next<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: { type?: string }) => {
      if (message?.type !== type) return;
      child.off('message', on);
      resolve(message as T);
    };
    child.on('message', on);
  });
}
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (String(chunk).includes('ready')) resolve();
    });
  });
}
async function cpuOf(child: ChildProcess, type: 'cpu' | 'stats'): Promise<number> {
  return (await cpuSplitOf(child, type)).total;
}
/** CPU so far (user + system) and its system (kernel) part, when the process reports it. */
async function cpuSplitOf(child: ChildProcess, type: 'cpu' | 'stats'): Promise<{ total: number; system: number }> {
  const reply = next<{ micros?: number; systemMicros?: number; cpu?: { user: number; system: number } }>(child, type);
  child.send({ type });
  const r = await reply;
  return {
    total: r.micros ?? r.cpu!.user + r.cpu!.system,
    system: r.systemMicros ?? r.cpu?.system ?? NaN,
  };
}

export interface ServerWindow {
  actions: number;
  serverCpuMicrosPerAction: number;
  /** Of which in the kernel (system time: socket and file syscalls, page faults). */
  serverSystemMicrosPerAction: number;
  actionsPerSecondPerCore: number;
  gapP50Ms: number;
  gapP99Ms: number;
}

export interface BlackboxRound {
  ours: ServerWindow;
  /** The same window with the server of MIMO_BENCH_COMPARE_TREE (when given). */
  base?: ServerWindow;
  referenceCpuMicrosPerEvent: number;
  /** Ours / the plain event+ack. */
  ratio: number;
}

/** One measured window of a server (this checkout's, or the one in `tree`): started, warmed up, measured, stopped. */
async function serverWindow(
  tree: string | null,
  options: { tasks: number; plugins: number; delayMs: number; ms: number; profileFile?: string },
): Promise<ServerWindow> {
  let serverFile = here('./blackbox/server-process.ts');
  if (tree) {
    // The same server entry runs in the other checkout (its runtime, its machines).
    const copy = join(tree, 'bench', 'runtime', 'blackbox-server.compare.ts');
    copyFileSync(serverFile, copy);
    writeFileSync(copy, readFileSync(copy, 'utf8').replaceAll('../../../', '../../'));
    serverFile = copy;
  }
  const server = start(
    serverFile,
    [],
    tree ?? undefined,
    options.profileFile ? { MIMO_BENCH_CPU_PROF_FILE: options.profileFile } : undefined,
  );
  const { url } = await next<{ url: string }>(server, 'ready');
  const swarm = start(here('./blackbox/extension-swarm.ts'), [url, String(options.plugins), String(options.delayMs)]);
  await ready(swarm);
  const started = next(server, 'started');
  server.send({ type: 'tasks', count: options.tasks, plugins: options.plugins });
  await started;
  await sleep(2_000); // warm-up (the JIT)
  swarm.send({ type: 'window', on: true });
  const before = await cpuSplitOf(server, 'cpu');
  await sleep(options.ms);
  const after = await cpuSplitOf(server, 'cpu');
  swarm.send({ type: 'window', on: false });
  const stats = next<{ actions: number; gapsMs: number[] }>(swarm, 'stats');
  swarm.send({ type: 'stats' });
  const { actions, gapsMs } = await stats;
  swarm.kill('SIGTERM');
  server.kill('SIGTERM');
  await Promise.all(
    [swarm, server].map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
  );
  gapsMs.sort((a, b) => a - b);
  const perAction = (after.total - before.total) / Math.max(1, actions);
  return {
    actions,
    serverCpuMicrosPerAction: perAction,
    serverSystemMicrosPerAction: (after.system - before.system) / Math.max(1, actions),
    actionsPerSecondPerCore: 1e6 / perAction,
    gapP50Ms: percentile(gapsMs, 50),
    gapP99Ms: percentile(gapsMs, 99),
  };
}

export async function benchServerBlackbox(options: {
  tasks: number;
  plugins?: number;
  delayMs?: number;
  seconds?: number;
  rounds?: number;
  compareTree?: string;
}): Promise<{ tasks: number; delayMs: number; rounds: BlackboxRound[] }> {
  const plugins = options.plugins ?? 20;
  const delayMs = options.delayMs ?? 20;
  const ms = (options.seconds ?? 5) * 1_000;
  const reference = start(here('../transport/server-process.ts'), ['socketio']);
  const { port } = await next<{ port: number }>(reference, 'ready');
  const echo = start(here('./blackbox/echo-swarm.ts'), [String(port), String(plugins)]);
  await ready(echo);
  const window = { tasks: options.tasks, plugins, delayMs, ms };
  const rounds: BlackboxRound[] = [];
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    // MIMO_BENCH_CPU_PROF=dir: a CPU profile of each server window (base-<tasks>-<round>, ours-...).
    const prof = process.env.MIMO_BENCH_CPU_PROF;
    const fileOf = (label: string) =>
      prof ? { profileFile: join(prof, `blackbox-${label}-${options.tasks}-${round}.cpuprofile`) } : {};
    const base = options.compareTree
      ? await serverWindow(options.compareTree, { ...window, ...fileOf('base') })
      : undefined;
    const ours = await serverWindow(null, { ...window, ...fileOf('ours') });
    // The reference, measured right after on the same machine.
    const refBefore = await cpuOf(reference, 'stats');
    const ran = next<{ count: number }>(echo, 'ran');
    echo.send({ type: 'run', ms });
    const { count } = await ran;
    const refAfter = await cpuOf(reference, 'stats');
    const perEvent = (refAfter - refBefore) / Math.max(1, count);
    rounds.push({
      ours,
      ...(base ? { base } : {}),
      referenceCpuMicrosPerEvent: perEvent,
      ratio: ours.serverCpuMicrosPerAction / perEvent,
    });
  }
  for (const child of [echo, reference]) child.kill('SIGTERM');
  return { tasks: options.tasks, delayMs, rounds };
}

function windowText(x: ServerWindow): string {
  return `actions ${String(x.actions).padStart(6)}  server CPU/action ${x.serverCpuMicrosPerAction.toFixed(0).padStart(5)} µs (kernel ${x.serverSystemMicrosPerAction.toFixed(0).padStart(4)})  actions/s/core ${x.actionsPerSecondPerCore.toFixed(0).padStart(5)}  gap p50 ${x.gapP50Ms.toFixed(2)} ms p99 ${x.gapP99Ms.toFixed(2)} ms`;
}

export function printServerBlackbox(r: Awaited<ReturnType<typeof benchServerBlackbox>>): void {
  console.log(`server as a black box: ${r.tasks} tasks, extensions (another process) answer after ${r.delayMs} ms`);
  r.rounds.forEach((x, i) => {
    if (x.base) console.log(`  base ${i + 1}  ${windowText(x.base)}`);
    console.log(`  ours ${i + 1}  ${windowText(x.ours)}`);
    console.log(
      `          plain Socket.IO event+ack: ${x.referenceCpuMicrosPerEvent.toFixed(1)} µs of server CPU; ours / that: ${x.ratio.toFixed(1)}x (goal <= 12)`,
    );
  });
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  console.log(`  median ratio to the plain event+ack: ${median(r.rounds.map((x) => x.ratio)).toFixed(1)}x`);
  if (r.rounds[0]?.base)
    console.log(
      `  CPU per action, ours / base (medians): ${(median(r.rounds.map((x) => x.ours.serverCpuMicrosPerAction)) / median(r.rounds.map((x) => x.base!.serverCpuMicrosPerAction))).toFixed(2)}x`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tasksList = (process.env.MIMO_BENCH_TASKS ?? '20,200').split(',').map(Number);
  for (const tasks of tasksList)
    printServerBlackbox(
      await benchServerBlackbox({
        tasks,
        delayMs: Number(process.env.MIMO_BENCH_PLUGIN_DELAY_MS ?? 20),
        seconds: Number(process.env.MIMO_BENCH_SECONDS ?? 5),
        rounds: Number(process.env.MIMO_BENCH_ROUNDS ?? 3),
        ...(process.env.MIMO_BENCH_COMPARE_TREE ? { compareTree: process.env.MIMO_BENCH_COMPARE_TREE } : {}),
      }),
    );
  process.exit(0);
}
