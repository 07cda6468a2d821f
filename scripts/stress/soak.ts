// Soak: 1,000 connected sockets and 200 concurrent tasks with fake plugins for a bounded time
// against a server in its own process (file store, browser turns). Every user message must get
// its finished chatDelta. The run is split into load cycles, each followed by a rest (no task
// running): heap after GC is sampled during each rest until it settles (the cycle's writes and
// flushes drained), and the settled heaps are judged by their trend (a least-squares slope
// across the rests, the first rest left out as warm-up while caches fill), not by two samples.
// Actions are counted where they run: by the fake plugins (their process answers IPC 'stats').
import { fork, spawn } from 'node:child_process';
import { io, type Socket } from 'socket.io-client';
import { ulid } from 'ulid';
import { requestStats } from '../../bench/child-stats.ts';
import { heapTrend, type HeapSample, type HeapTrend } from './heap-trend.ts';

export interface SoakReport {
  seconds: number;
  sockets: number;
  tasks: number;
  cycles: number;
  messagesSent: number;
  messagesFinished: number;
  lost: number;
  /** User message -> its finished chatDelta, as the frontend socket saw it. */
  messageP50Ms: number;
  messageP99Ms: number;
  /** browser_action frames the fake plugins executed (counted in their process). */
  actions: number;
  actionsPerSecond: number;
  /** Every heap sample at rest (after GC). */
  heapSamples: HeapSample[];
  /** Each rest's settled heap (its last sample, once the cycle's work drained). */
  heapSettled: HeapSample[];
  /** Rests that ended at `maxRestMs` with store work still pending or the heap still moving. */
  restsCutShort: number;
  /** The trend of the settled heaps after the first rest (all of them with fewer than three cycles). */
  heap: HeapTrend;
  /** The first and the last rest's settled heap. */
  heapFirstRestMB: number;
  heapLastRestMB: number;
  serverAlive: boolean;
}

type ServerStats = { memory: NodeJS.MemoryUsage; storePending: number };
type SwarmStats = { executed: number; perPlugin: number[] };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export async function runSoak(options: {
  /** Seconds under load in total (split over the cycles; rests come on top). */
  seconds: number;
  sockets?: number;
  tasks?: number;
  plugins?: number;
  /** Load cycles (default: one per 10 s of load, at least 2). */
  cycles?: number;
  /** Rest after each cycle (default 2 s), sampled every `sampleEveryMs` (default 500). */
  restMs?: number;
  sampleEveryMs?: number;
  /** A rest goes on until the store is idle and the heap settles (two samples within `settleMB`, default 0.25), at most this long (default 20 s). */
  maxRestMs?: number;
  settleMB?: number;
}): Promise<SoakReport> {
  const socketsWanted = options.sockets ?? 1_000;
  const taskCount = options.tasks ?? 200;
  const cycles = options.cycles ?? Math.max(2, Math.round(options.seconds / 10));
  const restMs = options.restMs ?? 2_000;
  const sampleEveryMs = options.sampleEveryMs ?? 500;
  const maxRestMs = options.maxRestMs ?? Math.max(restMs, 20_000);
  let restsCutShort = 0;
  const settleMB = options.settleMB ?? 0.25;
  const settled: HeapSample[] = [];
  const child = fork(new URL('./stress-server.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, STRESS_LLM: 'browser', STRESS_STORE: 'fs' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited = false;
  let exitCode: number | null = null;
  child.once('exit', (code, signal) => {
    exited = true;
    exitCode = code ?? (signal ? -1 : null);
  });
  const url: string = await new Promise((resolve, reject) => {
    child.on('message', (m: { type: string; url: string }) => m.type === 'ready' && resolve(m.url));
    child.once('exit', (code) => reject(new Error(`soak server exited (${code})`)));
  });
  const stats = () => requestStats<ServerStats>(child);
  const swarm = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('../../bench/runtime/plugin-swarm.ts', import.meta.url).pathname,
      url,
      String(options.plugins ?? 4),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  await new Promise<void>((resolve) => swarm.stdout!.once('data', () => resolve()));

  const connect = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = io(`${url}/mimo`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: { clientType: 'frontend' },
      });
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  const active: Socket[] = [];
  for (let i = 0; i < taskCount; i += 50)
    active.push(...(await Promise.all(Array.from({ length: Math.min(50, taskCount - i) }, connect))));
  const idle: Socket[] = [];
  for (let i = 0; i < socketsWanted - taskCount; i += 100)
    idle.push(...(await Promise.all(Array.from({ length: Math.min(100, socketsWanted - taskCount - i) }, connect))));

  let sent = 0;
  let finished = 0;
  const latencies: number[] = [];
  const heapSamples: HeapSample[] = [];
  const restStarts: number[] = [];
  const started = performance.now();
  const cycleMs = (options.seconds * 1_000) / cycles;
  const taskIds = active.map(() => ulid());
  let n = 0;

  const loadUntil = (deadline: number) =>
    Promise.all(
      active.map(async (socket, i) => {
        const taskId = taskIds[i]!;
        while (performance.now() < deadline && !exited) {
          const id = `evt-${taskId}-${n++}`;
          const sentAt = performance.now();
          const done = new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => {
              socket.off('frontend_event', onEvent);
              resolve(false);
            }, 30_000);
            const onEvent = (envelope: { event: { type: string; targetEventId?: string; finished?: boolean } }) => {
              if (
                envelope.event.type === 'chatDelta' &&
                envelope.event.targetEventId === id &&
                envelope.event.finished
              ) {
                clearTimeout(timer);
                socket.off('frontend_event', onEvent);
                resolve(true);
              }
            };
            socket.on('frontend_event', onEvent);
          });
          sent++;
          socket.emit('frontend_message', {
            v: 1,
            type: 'user_message',
            id,
            timestamp: Date.now(),
            taskId,
            content: `message ${n}`,
          });
          if (await done) {
            finished++;
            latencies.push(performance.now() - sentAt);
          }
        }
      }),
    );

  for (let cycle = 0; cycle < cycles && !exited; cycle++) {
    await loadUntil(started + (cycle + 1) * cycleMs + cycle * restMs);
    // At rest: every turn has finished (each task waits for its answer before the next message).
    // The rest lasts `restMs`, and longer while work of the cycle still drains: until the
    // server's store has no operation pending and two samples in a row agree within `settleMB`,
    // at most `maxRestMs` (a rest cut short is counted). The settled sample is the rest's heap.
    const restStart = performance.now();
    restStarts.push(heapSamples.length);
    let previous = NaN;
    while (!exited) {
      const at = performance.now();
      const { memory, storePending } = await stats();
      const heapMB = memory.heapUsed / 2 ** 20;
      heapSamples.push({ atS: (at - started) / 1_000, heapMB });
      const settledNow = storePending === 0 && Math.abs(heapMB - previous) < settleMB;
      previous = storePending === 0 ? heapMB : NaN;
      const elapsed = performance.now() - restStart;
      if (elapsed >= restMs && settledNow) break;
      if (elapsed >= maxRestMs) {
        restsCutShort++;
        break;
      }
      await sleep(at + sampleEveryMs - performance.now());
    }
    if (!exited) settled.push(heapSamples.at(-1)!);
  }
  const swarmStats = exited ? { executed: NaN, perPlugin: [] } : await requestStats<SwarmStats>(swarm);
  const serverAlive = !exited;
  for (const socket of [...active, ...idle]) socket.close();
  swarm.kill('SIGTERM');
  child.kill();
  const seconds = (performance.now() - started) / 1_000;
  const judged = settled.length >= 3 ? settled.slice(1) : settled;
  latencies.sort((a, b) => a - b);
  if (!serverAlive) console.error(`soak: the server exited during the run (code ${exitCode})`);
  return {
    seconds,
    sockets: active.length + idle.length,
    tasks: taskCount,
    cycles: restStarts.length,
    messagesSent: sent,
    messagesFinished: finished,
    lost: sent - finished,
    messageP50Ms: percentile(latencies, 50),
    messageP99Ms: percentile(latencies, 99),
    actions: swarmStats.executed,
    actionsPerSecond: swarmStats.executed / (options.seconds || 1),
    heapSamples,
    heapSettled: settled,
    restsCutShort,
    heap: heapTrend(judged),
    heapFirstRestMB: settled[0]?.heapMB ?? NaN,
    heapLastRestMB: settled.at(-1)?.heapMB ?? NaN,
    serverAlive,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runSoak({ seconds: Number(process.env.SOAK_SECONDS ?? 60) }), null, 2));
}
