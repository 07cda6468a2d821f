// The live view benchmark's server, in its own process so its CPU is measured alone.
//   node --expose-gc --import tsx bench/runtime/live-view-server.ts ours|socketio
// ours: the real Mimo server (gateways + live view relay) with a task control that says the
// bench plugin serves every task. socketio: the reference, the `socket.io` server relaying each
// `live_frame` to a room of viewers with the same acks, and nothing else.
// Prints nothing; sends {type:'ready', port} over IPC; answers {type:'stats'} with cpuUsage.
import { mkdtempSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const kind = process.argv[2];
export const BENCH_TOKEN = 'bench-live-token';
let port: number;

if (kind === 'ours') {
  const { createServer } = await import('../../runtime/server.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mimo-bench-live-'));
  const notUsed = async () => ({ ok: false as const, error: { code: 'UNAVAILABLE', message: 'bench' } });
  const server = await createServer({
    config: {
      port: 0,
      host: '127.0.0.1',
      dataDir: join(dir, 'data'),
      artifactDir: join(dir, 'artifacts'),
      token: BENCH_TOKEN,
      corsOrigins: [],
      snapshotDebug: false,
      publicBaseUrl: 'http://127.0.0.1',
      artifactSecret: 'bench-secret-bench-secret-bench-secret',
    },
    log: () => {},
    control: () => ({
      userMessage: notUsed,
      resume: notUsed,
      stop: notUsed,
      takeover: notUsed,
      liveTarget: () => ({ clientId: 'bench-plugin', tabId: 1 }),
    }),
  });
  port = Number(new URL(server.url).port);
} else if (kind === 'socketio') {
  const { Server } = await import('socket.io');
  const http = createHttp((_req, res) => res.writeHead(404).end());
  const io = new Server(http, { serveClient: false });
  const nsp = io.of('/mimo');
  nsp.on('connection', (socket) => {
    socket.on('frontend_message', (_m: unknown, ack: (r: unknown) => void) => {
      void socket.join('viewers');
      ack({ ok: true });
    });
    socket.on('live_frame', (frame: unknown, ack: (r: unknown) => void) => {
      nsp.to('viewers').emit('live_frame', frame);
      ack({ ok: true });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
} else {
  throw new Error(`unknown server kind ${kind}`);
}

process.on('SIGINT', () => process.exit(0));
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stats') return;
  process.send!({ type: 'stats', cpu: process.cpuUsage() });
});
process.send!({ type: 'ready', port });
