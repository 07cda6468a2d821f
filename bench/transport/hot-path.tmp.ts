// In-process: our transport's JS per action round trip, no kernel, no ws receiver.
import { WebSocketTransport } from '../../transport/server/websocket-transport.ts';
import { EngineSession } from '../../transport/server/engine-session.ts';
import { SocketClient } from '../../transport/server/socket-client.ts';
import { Namespace } from '../../transport/server/namespace.ts';
import { attachPluginSocket, type PluginGatewayDeps } from '../../runtime/socket/plugin-gateway.ts';
import { browserActionFrame } from '../../transport/contracts/index.ts';

const mode = process.argv[2] ?? 'gateway';
const N = Number(process.argv[3] ?? 200_000);
let written = 0;
let lastWrite: Buffer | null = null;
const fakeWs: any = { readyState: 1, _socket: { cork() {}, uncork() {}, write(b: Buffer) { written++; lastWrite = b; return true; } }, on() {}, send() {}, close() {}, terminate() {} };
const transport = new WebSocketTransport(fakeWs, 1_000_000);
const session = new EngineSession('sid', transport, { pingInterval: 1e9, pingTimeout: 1e9, maxPayload: 1e6, upgradeTimeout: 1e4 }, () => {});
const nsp = new Namespace('/mimo', (e) => { throw e; });
const waiting = new Map<string, () => void>();
nsp.use((socket, next) => { const a = socket.handshake.auth as any; (socket.data as any).auth = a; socket.join(`client:${a.clientId}`); next(); });
const deps: PluginGatewayDeps = {
  registry: { register: () => ({ ok: true }), socketConnected() {}, socketDisconnected() {}, touch() {} },
  snapshots: { applyFullSync: () => ({ ok: true }), applyTabEvent: () => ({ ok: true }) },
  scheduler: { taskOf: (id: string) => (waiting.has(id) ? '01JD0000000000000000000000' : undefined), handleResult(_c: string, r: { actionId: string }) { const s = waiting.get(r.actionId); if (!s) return 'unknown'; waiting.delete(r.actionId); s(); return 'accepted'; }, pluginGone() {} } as any,
  control: () => undefined, socketsOf: () => 1, log() {},
};
nsp.on('connection', (socket) => {
  if (mode === 'gateway') attachPluginSocket(socket, deps);
  else socket.on('plugin_message', (m: any) => { const s = waiting.get(m?.actionId); if (s) { waiting.delete(m.actionId); s(); } });
});
const client = new SocketClient({ namespaces: new Map([['/mimo', nsp]]), connectTimeout: 45_000, maxAttachments: 10 }, session, { headers: {}, url: '/socket.io/?EIO=4&transport=websocket', socket: { remoteAddress: '127.0.0.1' } } as any);
session.handlers = client;
const feed = (s: string) => transport.onFrame(Buffer.from(s) as any, false);
feed('40/mimo,{"clientType":"plugin","clientId":"p1"}');
await new Promise((r) => setTimeout(r, 10));
const clientId = 'p1';
const TASK = '01JD0000000000000000000000';
let seq = 0;
function roundTrip() {
  const sockets = nsp.to(`client:${clientId}`).sockets();
  const socket = sockets[sockets.length - 1]!;
  const actionId = `act-${clientId}-${seq++}`;
  const frame = browserActionFrame({ actionId, taskId: TASK, clientId, timestamp: Date.now(), actionName: 'browser_click', params: { tabId: 1, clickId: 1 }, timeoutMs: 5_000 });
  let done = 0;
  waiting.set(actionId, () => done++);
  const id = nsp._ids;
  socket.emit('plugin_message', frame, () => done++);
  feed(`43/mimo,${id}[{"ok":true}]`);
  feed(`42/mimo,["plugin_message",{"v":1,"type":"browser_action_result","actionId":"${actionId}","taskId":"${TASK}","clientId":"${clientId}","status":"success","result":{"clicked":true,"strategy":"cdp_mouse"}}]`);
  if (done !== 2) throw new Error('round trip incomplete ' + done);
}
for (let i = 0; i < 20_000; i++) roundTrip();
const best: number[] = [];
for (let r = 0; r < 5; r++) {
  const t = process.cpuUsage();
  for (let i = 0; i < N / 5; i++) roundTrip();
  const c = process.cpuUsage(t);
  best.push((c.user + c.system) / (N / 5));
}
best.sort((a, b) => a - b);
console.log(`${mode}: ${best[0]!.toFixed(2)}-${best[4]!.toFixed(2)} µs per round trip (JS of our transport${mode === 'gateway' ? ' + gateway' : ''}), median ${best[2]!.toFixed(2)}; writes ${written}`);
