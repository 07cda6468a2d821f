// Soak: 1,000 connected sockets and 200 concurrent tasks with fake plugins for a bounded time
// against a server in its own process (file store, browser turns). Every user message must get
// its finished chatDelta; heap after GC must stay within 10% of its value after warm-up.
import { fork, spawn } from 'node:child_process';
import { io, type Socket } from 'socket.io-client';
import { ulid } from 'ulid';
import { requestStats } from '../../bench/child-stats.ts';

export interface SoakReport {
  seconds: number;
  sockets: number;
  tasks: number;
  messagesSent: number;
  messagesFinished: number;
  lost: number;
  heapAfterWarmupMB: number;
  heapAtEndMB: number;
  heapGrowth: number;
  actions: number;
  actionP50Ms: number;
  actionP99Ms: number;
  serverAlive: boolean;
}

type Stats = { memory: NodeJS.MemoryUsage; actions: number; actionP50Ms: number; actionP99Ms: number };

export async function runSoak(options: { seconds: number; sockets?: number; tasks?: number; plugins?: number }): Promise<SoakReport> {
  const socketsWanted = options.sockets ?? 1_000;
  const taskCount = options.tasks ?? 200;
  const child = fork(new URL('./stress-server.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, STRESS_LLM: 'browser', STRESS_STORE: 'fs' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const url: string = await new Promise((resolve, reject) => {
    child.on('message', (m: { type: string; url: string }) => m.type === 'ready' && resolve(m.url));
    child.once('exit', (code) => reject(new Error(`soak server exited (${code})`)));
  });
  const stats = () => requestStats<Stats>(child);
  const swarm = spawn(process.execPath, ['--import', 'tsx', new URL('../../bench/runtime/plugin-swarm.ts', import.meta.url).pathname, url, String(options.plugins ?? 4)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => swarm.stdout.once('data', () => resolve()));

  const connect = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = io(`${url}/mimo`, { transports: ['websocket'], forceNew: true, reconnection: false, auth: { clientType: 'frontend' } });
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  const active: Socket[] = [];
  for (let i = 0; i < taskCount; i += 50) active.push(...(await Promise.all(Array.from({ length: Math.min(50, taskCount - i) }, connect))));
  const idle: Socket[] = [];
  for (let i = 0; i < socketsWanted - taskCount; i += 100) idle.push(...(await Promise.all(Array.from({ length: Math.min(100, socketsWanted - taskCount - i) }, connect))));

  let sent = 0;
  let finished = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1_000;
  // Heap baseline after a third of the run (at most 20 s): caches (message budget, inspection
  // history, finished action ids) have filled by then.
  const warmupEnd = started + Math.min(20_000, (options.seconds * 1_000) / 3);
  let warmHeap: number | null = null;
  const warmup = (async () => {
    await new Promise((r) => setTimeout(r, warmupEnd - performance.now()));
    warmHeap = (await stats()).memory.heapUsed;
  })();

  await Promise.all(
    active.map(async (socket) => {
      const taskId = ulid();
      let n = 0;
      while (performance.now() < deadline && !exited) {
        const id = `evt-${taskId}-${n++}`;
        const done = new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            socket.off('frontend_event', onEvent);
            resolve(false);
          }, 30_000);
          const onEvent = (envelope: { event: { type: string; targetEventId?: string; finished?: boolean } }) => {
            if (envelope.event.type === 'chatDelta' && envelope.event.targetEventId === id && envelope.event.finished) {
              clearTimeout(timer);
              socket.off('frontend_event', onEvent);
              resolve(true);
            }
          };
          socket.on('frontend_event', onEvent);
        });
        sent++;
        socket.emit('frontend_message', { v: 1, type: 'user_message', id, timestamp: Date.now(), taskId, content: `message ${n}` });
        if (await done) finished++;
      }
    }),
  );
  await warmup;
  const end = await stats();
  for (const socket of [...active, ...idle]) socket.close();
  swarm.kill('SIGTERM');
  const serverAlive = !exited;
  child.kill();
  const heapAtEnd = end.memory.heapUsed;
  return {
    seconds: (performance.now() - started) / 1_000,
    sockets: active.length + idle.length,
    tasks: taskCount,
    messagesSent: sent,
    messagesFinished: finished,
    lost: sent - finished,
    heapAfterWarmupMB: (warmHeap ?? 0) / 2 ** 20,
    heapAtEndMB: heapAtEnd / 2 ** 20,
    heapGrowth: warmHeap ? heapAtEnd / warmHeap - 1 : NaN,
    actions: end.actions,
    actionP50Ms: end.actionP50Ms,
    actionP99Ms: end.actionP99Ms,
    serverAlive,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runSoak({ seconds: Number(process.env.SOAK_SECONDS ?? 60) }), null, 2));
}
