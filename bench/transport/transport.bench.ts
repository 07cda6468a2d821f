// Transport benchmark: our Socket.IO-compatible server vs the reference `socket.io` server,
// measured side by side in one run on 127.0.0.1 with the real socket.io-client as the load.
//   - throughput: N clients, each with one `echo` event + ack in flight at a time, for D seconds
//   - round trip p50/p99, server CPU µs per message (server in its own process)
//   - idle memory per connection: server heap+external growth for C idle connections, after GC
import { fork, type ChildProcess } from 'node:child_process';
import { io as connectIo, type Socket } from 'socket.io-client';
import { requestStats } from '../child-stats.ts';

export interface TransportFigures {
  server: 'ours' | 'socketio';
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerMessage: number;
  idleBytesPerConnection: number;
  idleRssBytesPerConnection: number;
}

interface Stats {
  cpu: NodeJS.CpuUsage;
  memory: NodeJS.MemoryUsage;
}

function startServer(
  kind: 'ours' | 'socketio',
): Promise<{ child: ChildProcess; port: number; stats(): Promise<Stats> }> {
  const child = fork(new URL('./server-process.ts', import.meta.url).pathname, [kind], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stats = () => requestStats<Stats>(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { type: string; port: number }) => {
      if (m.type === 'ready') resolve({ child, port: m.port, stats });
    });
  });
}

function connect(port: number): Promise<Socket> {
  const socket = connectIo(`http://127.0.0.1:${port}/mimo`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Window {
  count: number;
  seconds: number;
  cpuMicros: number;
  samples: number[];
}

const payload = { type: 'browser_action_result', actionId: 'act-001', status: 'success', result: { clicked: true } };

/** Drives every socket for `ms`, one event+ack in flight per socket; measures the server's CPU over the window. */
async function window(server: StartedServer, sockets: Socket[], ms: number): Promise<Window> {
  const before = await server.stats();
  const samples: number[] = [];
  const started = performance.now();
  const end = started + ms;
  let count = 0;
  await Promise.all(
    sockets.map(async (socket) => {
      while (performance.now() < end) {
        const t = performance.now();
        await socket.emitWithAck('echo', payload);
        samples.push(performance.now() - t);
        count++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  const after = await server.stats();
  const cpuMicros = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
  return { count, seconds, cpuMicros, samples };
}

async function idleBytesPerConnection(
  server: StartedServer,
  connections: number,
): Promise<{ js: number; rss: number }> {
  const before = await server.stats();
  const idle: Socket[] = [];
  for (let i = 0; i < connections; i += 100) {
    idle.push(
      ...(await Promise.all(Array.from({ length: Math.min(100, connections - i) }, () => connect(server.port)))),
    );
  }
  await new Promise((r) => setTimeout(r, 500));
  const after = await server.stats();
  for (const socket of idle) socket.close();
  const js = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
  return {
    js: (js(after.memory) - js(before.memory)) / connections,
    rss: (after.memory.rss - before.memory.rss) / connections,
  };
}

type StartedServer = Awaited<ReturnType<typeof startServer>>;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Both servers run at once, each in its own process; the load alternates between them in
 * short rounds so that whatever else the machine does falls on both alike. Figures are the
 * medians over rounds (CPU per message) and the pooled samples (round trips).
 */
export async function benchTransport(
  options: { clients?: number; seconds?: number; idleConnections?: number; rounds?: number } = {},
) {
  const clients = options.clients ?? 50;
  const seconds = options.seconds ?? 10;
  const rounds = options.rounds ?? 5;
  const idleConnections = options.idleConnections ?? 1_000;
  const kinds = ['ours', 'socketio'] as const;
  const servers = { ours: await startServer('ours'), socketio: await startServer('socketio') };
  try {
    const sockets = {
      ours: await Promise.all(Array.from({ length: clients }, () => connect(servers.ours.port))),
      socketio: await Promise.all(Array.from({ length: clients }, () => connect(servers.socketio.port))),
    };
    for (const kind of kinds) await window(servers[kind], sockets[kind], 1_000); // warm-up
    const windows: Record<(typeof kinds)[number], Window[]> = { ours: [], socketio: [] };
    for (let round = 0; round < rounds; round++) {
      for (const kind of round % 2 === 0 ? kinds : (['socketio', 'ours'] as const)) {
        windows[kind].push(await window(servers[kind], sockets[kind], (seconds * 1_000) / rounds));
      }
    }
    for (const kind of kinds) for (const socket of sockets[kind]) socket.close();
    await new Promise((r) => setTimeout(r, 500));
    const figures = {} as Record<(typeof kinds)[number], TransportFigures>;
    for (const kind of kinds) {
      const w = windows[kind];
      const samples = w.flatMap((x) => x.samples).sort((a, b) => a - b);
      const idle = await idleBytesPerConnection(servers[kind], idleConnections);
      figures[kind] = {
        server: kind,
        messagesPerSecond: median(w.map((x) => x.count / x.seconds)),
        p50Ms: percentile(samples, 50),
        p99Ms: percentile(samples, 99),
        cpuMicrosPerMessage: median(w.map((x) => x.cpuMicros / x.count)),
        idleBytesPerConnection: idle.js,
        idleRssBytesPerConnection: idle.rss,
      };
    }
    const ours = figures.ours;
    const reference = figures.socketio;
    return {
      ours,
      reference,
      ratios: {
        cpuPerMessage: ours.cpuMicrosPerMessage / reference.cpuMicrosPerMessage,
        throughput: ours.messagesPerSecond / reference.messagesPerSecond,
        p99: ours.p99Ms / reference.p99Ms,
        idleMemoryPerConnection: ours.idleBytesPerConnection / reference.idleBytesPerConnection,
      },
    };
  } finally {
    servers.ours.child.kill();
    servers.socketio.child.kill();
  }
}

export function printTransport(result: Awaited<ReturnType<typeof benchTransport>>): void {
  const row = (f: TransportFigures) =>
    `  ${f.server.padEnd(9)} ${f.messagesPerSecond.toFixed(0).padStart(8)} msg/s  p50 ${f.p50Ms.toFixed(3)} ms  p99 ${f.p99Ms.toFixed(3)} ms  ` +
    `CPU ${f.cpuMicrosPerMessage.toFixed(1)} µs/msg  idle ${(f.idleBytesPerConnection / 1024).toFixed(2)} KB/conn (heap+external), ` +
    `${(f.idleRssBytesPerConnection / 1024).toFixed(2)} KB/conn (rss)`;
  console.log('transport: ours vs socket.io (50 clients, one event+ack in flight each)');
  console.log(row(result.ours));
  console.log(row(result.reference));
  const r = result.ratios;
  console.log(
    `  ratios ours/socket.io: CPU per message ${r.cpuPerMessage.toFixed(2)}x (target <= 0.75), throughput ${r.throughput.toFixed(2)}x, ` +
      `p99 ${r.p99.toFixed(2)}x, idle memory per connection ${r.idleMemoryPerConnection.toFixed(2)}x; ` +
      `ours ${(result.ours.idleBytesPerConnection / 1024).toFixed(2)} KB/conn (target <= 4 KB)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.env.MIMO_BENCH_SECONDS ?? 10);
  printTransport(await benchTransport({ seconds }));
}
