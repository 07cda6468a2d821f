// One server of the action round-trip bench, in its own process so its CPU is measured alone.
//   node --import tsx bench/transport/action-server-process.ts ours|socketio bare|gateway
// Namespace /mimo; a plugin socket (auth { clientType: 'plugin', clientId }) joins
// `client:{clientId}`. On IPC {type:'run', ms} it drives every connected plugin for `ms`: the
// round trip of the agent loop's transport reference, `burst` in flight per plugin (default 1),
// written in one tick:
//   server emits `plugin_message` browser_action with an ack -> the plugin acks ->
//   the plugin sends `plugin_message` browser_action_result -> the server's handler routes it.
// `bare`: the handler is a lookup by actionId (the transport alone). `gateway`: the real plugin
// gateway (runtime/socket/plugin-gateway.ts: contract validation, the clientId check, routing
// to the scheduler port) over a stub scheduler that settles the round trip. The driver and the
// handlers are the same code on both servers; only the server package differs.
// Answers {type:'run', ms, burst?} with {type:'ran', count, userMicros, systemMicros, latencies (ms, sampled)}.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attachPluginSocket, type PluginGatewayDeps } from '../../runtime/socket/plugin-gateway.ts';
import { browserActionFrame } from '../../transport/contracts/index.ts';

const kind = process.argv[2];
const mode = process.argv[3] ?? 'gateway';
if (kind !== 'ours' && kind !== 'socketio') throw new Error(`unknown server kind ${kind}`);
if (mode !== 'bare' && mode !== 'gateway') throw new Error(`unknown mode ${mode}`);
process.on('SIGINT', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

/** What both servers' sockets offer the driver (the socket.io API our server mirrors). */
interface BenchSocket {
  id: string;
  data: Record<string, unknown>;
  handshake: { auth: Record<string, unknown> };
  on(event: string, fn: (...args: any[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  join(room: string): unknown;
}

const TASK_ID = '01JD0000000000000000000000';
/** actionId -> settles that round trip's result half. */
const waiting = new Map<string, () => void>();
const clients = new Set<string>();

const http = createServer((_req, res) => res.writeHead(404).end());
let socketOf: (clientId: string) => BenchSocket | undefined;

const auth = (socket: BenchSocket, next: (error?: Error) => void) => {
  const { clientType, clientId } = socket.handshake.auth as { clientType?: unknown; clientId?: unknown };
  if (clientType !== 'plugin' || typeof clientId !== 'string' || clientId === '')
    return next(new Error('plugins only'));
  socket.data.auth = { clientType, clientId };
  socket.join(`client:${clientId}`);
  next();
};

const gatewayDeps: PluginGatewayDeps = {
  registry: { register: () => ({ ok: true }), socketConnected() {}, socketDisconnected() {}, touch() {} },
  snapshots: { applyFullSync: () => ({ ok: true }), applyTabEvent: () => ({ ok: true }) },
  scheduler: {
    taskOf: (actionId: string) => (waiting.has(actionId) ? TASK_ID : undefined),
    handleResult(_clientId: string, result: { actionId: string }) {
      const settle = waiting.get(result.actionId);
      if (!settle) return 'unknown';
      waiting.delete(result.actionId);
      settle();
      return 'accepted';
    },
    pluginGone() {},
  } as unknown as PluginGatewayDeps['scheduler'],
  control: undefined,
  socketsOf: () => 1,
  log() {},
};

const onConnection = (socket: BenchSocket) => {
  const clientId = (socket.data.auth as { clientId: string }).clientId;
  clients.add(clientId);
  if (mode === 'gateway') {
    attachPluginSocket(socket as never, gatewayDeps);
    return;
  }
  socket.on('plugin_message', (message: { actionId?: unknown } | undefined, ack?: (x: unknown) => void) => {
    const settle = typeof message?.actionId === 'string' ? waiting.get(message.actionId) : undefined;
    if (settle) {
      waiting.delete(message!.actionId as string);
      settle();
    }
    if (typeof ack === 'function') ack({ ok: true }); // registration messages of the fake plugin
  });
};

if (kind === 'ours') {
  const { createSocketServer } = await import('../../transport/server/index.ts');
  const nsp = createSocketServer(http, {}).of('/mimo');
  nsp.use(auth as never);
  nsp.on('connection', onConnection as never);
  socketOf = (clientId) => {
    const sockets = nsp.to(`client:${clientId}`).sockets();
    return sockets[sockets.length - 1] as unknown as BenchSocket | undefined;
  };
} else {
  const { Server } = await import('socket.io');
  const nsp = new Server(http, { serveClient: false }).of('/mimo');
  nsp.use(auth as never);
  nsp.on('connection', onConnection as never);
  // socket.io's own room lookup (what its BroadcastOperator reads), synchronous like ours.
  socketOf = (clientId) => {
    const ids = nsp.adapter.rooms.get(`client:${clientId}`);
    let last: string | undefined;
    for (const id of ids ?? []) last = id;
    return last === undefined ? undefined : (nsp.sockets.get(last) as unknown as BenchSocket | undefined);
  };
}

await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));

let sequence = 0;
/** One action round trip to `clientId`'s plugin; resolves when both its ack and its result are in. */
function roundTrip(clientId: string): Promise<unknown> | null {
  const socket = socketOf(clientId);
  if (!socket) return null;
  const actionId = `act-${clientId}-${sequence++}`;
  const frame = browserActionFrame({
    actionId,
    taskId: TASK_ID,
    clientId,
    timestamp: Date.now(),
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
    timeoutMs: 5_000,
  });
  const resulted = new Promise<void>((resolve) => waiting.set(actionId, resolve));
  const acked = new Promise<void>((resolve) => socket.emit('plugin_message', frame, () => resolve()));
  return Promise.all([acked, resulted]);
}

/** `burst` actions to the plugin in one tick (as the runtime dispatches several tasks' actions to one plugin), then the next burst. */
async function drive(clientId: string, burst: number, end: number, latencies: number[]): Promise<number> {
  let count = 0;
  while (performance.now() < end) {
    const started = performance.now();
    const trips: Array<Promise<unknown>> = [];
    for (let i = 0; i < burst; i++) {
      const trip = roundTrip(clientId);
      if (!trip) return count;
      trips.push(trip);
    }
    await Promise.all(trips);
    if ((count & 7) === 0) latencies.push(performance.now() - started);
    count += burst;
  }
  return count;
}

process.on('message', async (message: { type: string; ms?: number; burst?: number }) => {
  if (message.type !== 'run') return;
  const latencies: number[] = [];
  const end = performance.now() + message.ms!;
  const before = process.cpuUsage();
  const counts = await Promise.all([...clients].map((clientId) => drive(clientId, message.burst ?? 1, end, latencies)));
  const cpu = process.cpuUsage(before);
  process.send!({
    type: 'ran',
    count: counts.reduce((a, b) => a + b, 0),
    userMicros: cpu.user,
    systemMicros: cpu.system,
    latencies,
  });
});
process.send!({ type: 'ready', port: (http.address() as AddressInfo).port });
