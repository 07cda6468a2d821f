// The real path: the whole agent loop (orchestrator, task actor tree, store on
// disk, frontend events, inspection through the hub as app.ts builds it, with its redactor) at N concurrent tasks, fake plugins in another process
// answering each action after `delayMs`. Each task's turn is a scripted LLM that clicks forever.
// Reported side by side in the same run: the transport's own cost of one action round trip
// (browser_action event + Socket.IO ack + result event, no runtime logic) on the same server.
//
//   node --import tsx bench/runtime/agent-loop.bench.ts        (MIMO_BENCH_SECONDS, default 5; MIMO_BENCH_TASKS, default 200)
// The gap is also broken down by the pair of actions around it: inside a step (the page read's
// actions) or across the LLM step (dom index > the next tool call).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInspectionHub } from '../../runtime/agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../runtime/agent/orchestrator.ts';
import { createSystemClock } from '../../runtime/clock/index.ts';
import type { LlmGateway } from '../../runtime/llm/llm-types.ts';
import { createSecretRegistry, redactDeep } from '../../runtime/redaction/redact.ts';
import { createServer } from '../../runtime/server.ts';
import { testConfig } from '../../runtime/test/util.ts';
import { browserActionFrame, rooms } from '../../transport/contracts/index.ts';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** An LLM that opens a page, then clicks on every step (the turn never ends by itself). Like a
 * real endpoint it answers on a later turn of the event loop. */
const clickingLlm: LlmGateway = {
  kind: 'openai',
  model: 'bench-clicker',
  async *streamChat(input) {
    await new Promise((r) => setImmediate(r));
    const opened = input.messages.some((m) => m.role === 'tool');
    const id = `call-${Math.random().toString(36).slice(2)}`;
    yield opened
      ? { type: 'tool_call', toolCallId: id, name: 'browser_click', arguments: { clickId: 1 } }
      : { type: 'tool_call', toolCallId: id, name: 'browser_open', arguments: { url: 'http://127.0.0.1:9/' } };
    yield { type: 'done' };
  },
};

export interface AgentLoopFigures {
  tasks: number;
  delayMs: number;
  actions: number;
  cpuMicrosPerAction: number;
  gapP50Ms: number;
  gapP99Ms: number;
  transportRoundTrips: number;
  transportCpuMicrosPerRoundTrip: number;
  /** Inspection events (every actor of every task tree, through the hub) per browser action. */
  inspectionEventsPerAction: number;
  /** The gap by the pair of actions around it ("previous > next"): where in a step it is spent. */
  gapsByPair: Array<{ pair: string; count: number; p50Ms: number; p99Ms: number }>;
}

export async function benchAgentLoop(
  options: { tasks?: number; plugins?: number; delayMs?: number; seconds?: number } = {},
): Promise<AgentLoopFigures> {
  const tasks = options.tasks ?? 200;
  const pluginCount = options.plugins ?? 20;
  const delayMs = options.delayMs ?? Number(process.env.MIMO_BENCH_PLUGIN_DELAY_MS ?? 20);
  const seconds = options.seconds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'mimo-agent-bench-'));
  const clock = createSystemClock();
  // The hub as app.ts builds it: records redacted over the server's secret registry.
  const secrets = createSecretRegistry();
  const inspection = createInspectionHub({
    clock,
    redact: <T>(value: T) => redactDeep(value, { secrets, maxDepth: 64 }) as T,
  });
  // Every inspection event of every actor reaches the hub through observerFor: count them there.
  let inspectionEvents = 0;
  let measuring = false;
  // MIMO_BENCH_INSPECTION_KINDS=1: counts them by actor, kind and event/action too (printed to stderr).
  const kinds = process.env.MIMO_BENCH_INSPECTION_KINDS ? new Map<string, number>() : null;
  const observerFor = inspection.observerFor.bind(inspection);
  inspection.observerFor = (taskId: string) => {
    const observe = observerFor(taskId);
    return (event) => {
      if (measuring) {
        inspectionEvents++;
        if (kinds) {
          const e = event as {
            type: string;
            actorRef?: { id?: string };
            event?: { type?: string };
            action?: { type?: string };
          };
          const key = `${e.actorRef?.id?.replace(/:.*/, '') ?? '?'} ${e.type} ${e.action?.type ?? e.event?.type ?? ''}`;
          kinds.set(key, (kinds.get(key) ?? 0) + 1);
        }
      }
      observe(event);
    };
  };
  const server = await createServer({
    config: testConfig(dir),
    clock,
    secrets,
    log: () => {},
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) => createAgentOrchestrator(services, { llm: clickingLlm, inspection, stepLimit: 1_000_000 }),
  });
  const swarm = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./plugin-swarm.ts', import.meta.url).pathname,
      server.url,
      String(pluginCount),
      String(delayMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => swarm.stdout.once('data', () => resolve()));

  // Gap = a task's next browser_action frame leaving - its previous result arriving.
  const lastResult = new Map<string, number>();
  const lastAction = new Map<string, string>();
  const gaps: number[] = [];
  const pairGaps = new Map<string, number[]>();
  let actions = 0;
  const { ServerSocket } = await import('../../transport/server/index.ts');
  const originalEmit = ServerSocket.prototype.emit;
  ServerSocket.prototype.emit = function (this: InstanceType<typeof ServerSocket>, event: string, ...args: unknown[]) {
    const frame = args[0] as { type?: string; taskId?: string; action?: Record<string, unknown> };
    if (measuring && event === 'plugin_message' && frame?.type === 'browser_action' && frame.taskId) {
      actions++;
      const name = Object.keys(frame.action ?? {})[0] ?? '?';
      const at = lastResult.get(frame.taskId);
      if (at !== undefined) {
        const gap = performance.now() - at;
        gaps.push(gap);
        const pair = `${lastAction.get(frame.taskId) ?? '?'} > ${name}`;
        const list = pairGaps.get(pair) ?? [];
        list.push(gap);
        pairGaps.set(pair, list);
      }
      lastAction.set(frame.taskId, name);
    }
    return originalEmit.call(this, event, ...args);
  };
  const handle = server.scheduler.handleResult;
  server.scheduler.handleResult = (clientId, result) => {
    const taskId = server.scheduler.taskOf(result.actionId);
    if (taskId) lastResult.set(taskId, performance.now());
    return handle(clientId, result);
  };
  // Bind each task to a plugin, then start every task's endless clicking turn.
  const control = server.control!;
  await Promise.all(
    Array.from({ length: tasks }, (_, i) => {
      const taskId = `01JD${String(i).padStart(22, '0')}`;
      server.registry.select(taskId, `bench-plugin-${i % pluginCount}`);
      return control.userMessage(
        {
          v: 1,
          type: 'user_message',
          id: `evt-bench-${i}`,
          timestamp: Date.now(),
          taskId,
          content: 'keep clicking',
        } as never,
        {},
      );
    }),
  );
  await new Promise((r) => setTimeout(r, 2_000)); // warm-up (the JIT: a cold first window costs about twice a warm one)
  const profile = process.env.MIMO_BENCH_CPU_PROF_FILE ? await startProfile() : null;
  measuring = true;
  const cpuBefore = process.cpuUsage();
  await new Promise((r) => setTimeout(r, seconds * 1_000));
  const cpu = process.cpuUsage(cpuBefore);
  measuring = false;
  if (profile) writeFileSync(process.env.MIMO_BENCH_CPU_PROF_FILE!, JSON.stringify(await profile.stop()));
  ServerSocket.prototype.emit = originalEmit;
  await Promise.all(Array.from({ length: tasks }, (_, i) => control.stop(`01JD${String(i).padStart(22, '0')}`, 'web')));
  // Transport reference: the same server and plugins, now warm, frames written straight to the room.
  const transport = await transportRoundTrips(server, pluginCount, Math.min(2, seconds));
  swarm.kill('SIGTERM');
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  if (kinds)
    for (const [key, n] of [...kinds].sort((a, b) => b[1] - a[1]))
      console.error(`${(n / Math.max(1, actions)).toFixed(2).padStart(6)}  ${key}`);
  gaps.sort((a, b) => a - b);
  const gapsByPair = [...pairGaps]
    .filter(([, list]) => list.length >= 20)
    .map(([pair, list]) => {
      list.sort((a, b) => a - b);
      return { pair, count: list.length, p50Ms: percentile(list, 50), p99Ms: percentile(list, 99) };
    })
    .sort((a, b) => b.p50Ms - a.p50Ms);
  return {
    tasks,
    delayMs,
    actions,
    cpuMicrosPerAction: (cpu.user + cpu.system) / Math.max(1, actions),
    inspectionEventsPerAction: inspectionEvents / Math.max(1, actions),
    gapP50Ms: percentile(gaps, 50),
    gapP99Ms: percentile(gaps, 99),
    transportRoundTrips: transport.roundTrips,
    transportCpuMicrosPerRoundTrip: transport.cpuMicros / Math.max(1, transport.roundTrips),
    gapsByPair,
  };
}

/** A V8 CPU profile of the measured window only (MIMO_BENCH_CPU_PROF_FILE), not the warm-up or the transport reference. */
async function startProfile(): Promise<{ stop(): Promise<unknown> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = await post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

/** Event + ack + result event per round trip, as many in flight as plugins, no runtime logic (run after the loop, warm). */
async function transportRoundTrips(server: Awaited<ReturnType<typeof createServer>>, plugins: number, seconds: number) {
  let roundTrips = 0;
  const end = performance.now() + seconds * 1_000;
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: plugins }, async (_, i) => {
      const clientId = `bench-plugin-${i}`;
      while (performance.now() < end) {
        const sockets = server.nsp.to(rooms.client(clientId)).sockets();
        const socket = sockets[sockets.length - 1]!;
        const actionId = `act-transport-${i}-${roundTrips}`;
        const frame = browserActionFrame({
          actionId,
          taskId: '01JD0000000000000000000000',
          clientId,
          timestamp: Date.now(),
          actionName: 'browser_click',
          params: { tabId: 1, clickId: 1 },
          timeoutMs: 5_000,
        });
        // The result comes back as a plugin_message the gateway routes (an unknown action: dropped).
        const resulted = new Promise<void>((resolve) => {
          const onMessage = (message: { actionId?: string }) => {
            if (message?.actionId !== actionId) return;
            socket.off('plugin_message', onMessage);
            resolve();
          };
          socket.on('plugin_message', onMessage);
        });
        await new Promise<void>((resolve) => socket.emit('plugin_message', frame, () => resolve()));
        await resulted;
        roundTrips++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { roundTrips, cpuMicros: cpu.user + cpu.system };
}

export function printAgentLoop(r: AgentLoopFigures): void {
  console.log(
    `agent loop: ${r.tasks} concurrent tasks, plugins (another process) answer after ${r.delayMs} ms, ${r.actions} browser actions`,
  );
  console.log(
    `  server CPU per browser action: ${r.cpuMicrosPerAction.toFixed(0)} µs (goal <= 150 beside transport); transport alone, event + ack + result on the same server: ${r.transportCpuMicrosPerRoundTrip.toFixed(0)} µs (${r.transportRoundTrips} round trips)`,
  );
  console.log(`  inspection events per browser action: ${r.inspectionEventsPerAction.toFixed(1)} (goal <= 15)`);
  console.log(
    `  result -> next dispatch of the task: p50 ${r.gapP50Ms.toFixed(2)} ms (goal < 1), p99 ${r.gapP99Ms.toFixed(2)} ms (goal < 5)`,
  );
  for (const g of r.gapsByPair)
    console.log(
      `    ${g.pair.padEnd(58)} n ${String(g.count).padStart(5)}  p50 ${g.p50Ms.toFixed(2).padStart(7)} ms  p99 ${g.p99Ms.toFixed(2).padStart(7)} ms`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchAgentLoop({
    tasks: Number(process.env.MIMO_BENCH_TASKS ?? 200),
    seconds: Number(process.env.MIMO_BENCH_SECONDS ?? 5),
  });
  // MIMO_BENCH_JSON=1: one JSON line (agent-loop-compare.bench.ts runs this file in two checkouts).
  if (process.env.MIMO_BENCH_JSON === '1') console.log(JSON.stringify(figures));
  else printAgentLoop(figures);
}
