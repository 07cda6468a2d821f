// The transport's cost of one browser action, ours vs the real `socket.io` server, side by side
// in one run. Exactly the agent loop's transport reference (bench/runtime/agent-loop.bench.ts):
//   server emits `plugin_message` browser_action with an ack -> the plugin acks -> the plugin
//   sends its `plugin_message` browser_action_result -> the server's handler routes it
// (three frames). Plugins are the real socket.io-client (runtime/test-util/fake-plugin.ts, via
// bench/runtime/plugin-swarm.ts) in another process, one per server, acking at once and answering
// after `delayMs`; one action in flight per plugin (or `burst` of them, written in one tick). Each server runs in its own process
// (action-server-process.ts) and reports its own CPU; rounds alternate between the servers so
// the machine's other load falls on all alike. Two handlers: `bare` (a lookup by actionId: the
// transport alone) and `gateway` (the real plugin gateway: contract validation and routing).
//
//   node --import tsx bench/transport/action-round-trip.bench.ts
//   (MIMO_BENCH_SECONDS, default 10; MIMO_BENCH_PLUGIN_DELAY_MS, default 20; MIMO_BENCH_PLUGINS, default 20;
//    MIMO_BENCH_BURST: actions dispatched to each plugin in one tick, default 1; MIMO_BENCH_ROUNDS, default 5;
//    MIMO_BENCH_WARMUP_MS, default 2000 (0 with one round: the cold cost, as right after a server starts);
//    MIMO_BENCH_MODES=bare,gateway; MIMO_BENCH_PROFILE_DIR=dir writes each server's --cpu-prof there;
//    MIMO_BENCH_COMPARE_TREE=dir adds a third server: another checkout of this repository (e.g.
//    `git archive <commit> | tar -x -C dir`, with node_modules linked), its transport and gateway
//    driven by this file's server process (copied into it), for before/after in one run)
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync } from 'node:fs';

type Kind = 'ours' | 'socketio';
type Mode = 'bare' | 'gateway';

export interface RoundTripFigures {
  /** 'ours', 'socketio', or 'ours@<dir>' for the tree given in `compareTree`. */
  label: string;
  kind: Kind;
  mode: Mode;
  roundTrips: number;
  roundTripsPerSecond: number;
  /** Median over rounds of the server's (user + system) CPU per round trip. */
  cpuMicrosPerRoundTrip: number;
  /** Spread of that figure over the rounds. */
  cpuMicrosMin: number;
  cpuMicrosMax: number;
  userMicrosPerRoundTrip: number;
  systemMicrosPerRoundTrip: number;
  /** Emit -> result handled, minus nothing (includes the plugin's delay). */
  p50Ms: number;
  p99Ms: number;
}

interface Ran {
  type: 'ran';
  count: number;
  userMicros: number;
  systemMicros: number;
  latencies: number[];
}

interface Started {
  label: string;
  kind: Kind;
  mode: Mode;
  server: ChildProcess;
  swarm: ChildProcess;
}

async function start(kind: Kind, mode: Mode, plugins: number, delayMs: number, tree?: string): Promise<Started> {
  // Another tree's server (its transport and gateway) is driven by this tree's server process file.
  const script = tree
    ? `${tree}/bench/transport/action-server-process.ts`
    : new URL('./action-server-process.ts', import.meta.url).pathname;
  if (tree) copyFileSync(new URL('./action-server-process.ts', import.meta.url).pathname, script);
  const server = fork(script, [kind, mode], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.MIMO_BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.MIMO_BENCH_PROFILE_DIR}`]
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.on('message', (m: { type: string; port: number }) => {
      if (m.type === 'ready') resolve(m.port);
    });
  });
  const swarm = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('../runtime/plugin-swarm.ts', import.meta.url).pathname,
      `http://127.0.0.1:${port}`,
      String(plugins),
      String(delayMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    swarm.once('error', reject);
    swarm.once('exit', (code) => reject(new Error(`plugin swarm exited with ${code}`)));
    swarm.stdout!.once('data', () => resolve());
  });
  swarm.removeAllListeners('exit');
  return { label: tree ? `ours@${tree}` : kind, kind, mode, server, swarm };
}

function run(started: Started, ms: number, burst: number): Promise<Ran> {
  return new Promise((resolve) => {
    const onMessage = (m: Ran) => {
      if (m.type !== 'ran') return;
      started.server.off('message', onMessage);
      resolve(m);
    };
    started.server.on('message', onMessage);
    started.server.send({ type: 'run', ms, burst });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function benchActionRoundTrip(
  options: {
    seconds?: number;
    rounds?: number;
    plugins?: number;
    delayMs?: number;
    burst?: number;
    warmupMs?: number;
    modes?: Mode[];
    compareTree?: string;
  } = {},
) {
  const seconds = options.seconds ?? 10;
  const rounds = options.rounds ?? 5;
  const plugins = options.plugins ?? 20;
  const delayMs = options.delayMs ?? 20;
  const burst = options.burst ?? 1;
  const warmupMs = options.warmupMs ?? 2_000;
  const modes = options.modes ?? ['bare', 'gateway'];
  const setups: Started[] = [];
  try {
    for (const mode of modes) {
      for (const kind of ['ours', 'socketio'] as const) setups.push(await start(kind, mode, plugins, delayMs));
      if (options.compareTree) setups.push(await start('ours', mode, plugins, delayMs, options.compareTree));
    }
    if (warmupMs > 0) for (const s of setups) await run(s, warmupMs, burst); // JIT
    const ran = new Map<Started, Ran[]>(setups.map((s) => [s, []]));
    const windowMs = (seconds * 1_000) / (rounds * setups.length);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? setups : [...setups].reverse();
      for (const s of order) ran.get(s)!.push(await run(s, windowMs, burst));
    }
    const figures: RoundTripFigures[] = setups.map((s) => {
      const windows = ran.get(s)!;
      const perTrip = windows.map((w) => (w.userMicros + w.systemMicros) / Math.max(1, w.count));
      const count = windows.reduce((a, w) => a + w.count, 0);
      const latencies = windows.flatMap((w) => w.latencies).sort((a, b) => a - b);
      return {
        label: s.label,
        kind: s.kind,
        mode: s.mode,
        roundTrips: count,
        roundTripsPerSecond: count / ((windowMs * rounds) / 1_000),
        cpuMicrosPerRoundTrip: median(perTrip),
        cpuMicrosMin: Math.min(...perTrip),
        cpuMicrosMax: Math.max(...perTrip),
        userMicrosPerRoundTrip: median(windows.map((w) => w.userMicros / Math.max(1, w.count))),
        systemMicrosPerRoundTrip: median(windows.map((w) => w.systemMicros / Math.max(1, w.count))),
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
      };
    });
    return { plugins, delayMs, burst, figures };
  } finally {
    for (const s of setups) {
      s.swarm.kill('SIGTERM');
      s.server.kill('SIGINT');
    }
  }
}

export function printActionRoundTrip(result: Awaited<ReturnType<typeof benchActionRoundTrip>>): void {
  console.log(
    `action round trip (browser_action + ack + result, 3 frames): ${result.plugins} real socket.io-client plugins in another process, ${result.burst === 1 ? 'one in flight each' : `${result.burst} dispatched to each in one tick`}, result after ${result.delayMs} ms`,
  );
  for (const f of result.figures) {
    console.log(
      `  ${f.label.padEnd(8)} ${f.mode.padEnd(7)} server CPU ${f.cpuMicrosPerRoundTrip.toFixed(1).padStart(6)} µs/round trip ` +
        `(rounds ${f.cpuMicrosMin.toFixed(0)}-${f.cpuMicrosMax.toFixed(0)}; user ${f.userMicrosPerRoundTrip.toFixed(0)} sys ${f.systemMicrosPerRoundTrip.toFixed(0)})  ` +
        `${f.roundTripsPerSecond.toFixed(0).padStart(6)} rt/s  p50 ${f.p50Ms.toFixed(2)} ms  p99 ${f.p99Ms.toFixed(2)} ms`,
    );
  }
  for (const mode of ['bare', 'gateway'] as const) {
    const ref = result.figures.find((f) => f.label === 'socketio' && f.mode === mode);
    for (const ours of result.figures.filter((f) => f.kind === 'ours' && f.mode === mode)) {
      if (ref)
        console.log(
          `  ratio ${ours.label}/socket.io (${mode}): CPU per round trip ${(ours.cpuMicrosPerRoundTrip / ref.cpuMicrosPerRoundTrip).toFixed(2)}x`,
        );
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printActionRoundTrip(
    await benchActionRoundTrip({
      seconds: Number(process.env.MIMO_BENCH_SECONDS ?? 10),
      delayMs: Number(process.env.MIMO_BENCH_PLUGIN_DELAY_MS ?? 20),
      plugins: Number(process.env.MIMO_BENCH_PLUGINS ?? 20),
      burst: Number(process.env.MIMO_BENCH_BURST ?? 1),
      rounds: Number(process.env.MIMO_BENCH_ROUNDS ?? 5),
      warmupMs: Number(process.env.MIMO_BENCH_WARMUP_MS ?? 2_000),
      ...(process.env.MIMO_BENCH_MODES ? { modes: process.env.MIMO_BENCH_MODES.split(',') as Mode[] } : {}),
      ...(process.env.MIMO_BENCH_COMPARE_TREE ? { compareTree: process.env.MIMO_BENCH_COMPARE_TREE } : {}),
    }),
  );
}
