// A benchmark server in its own process, so its CPU time and memory are measured alone.
//   node --expose-gc --import tsx bench/transport/server-process.ts ours|socketio
// Prints {"port":N} once listening; answers IPC 'stats' with cpuUsage and memoryUsage after GC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const kind = process.argv[2];
process.on('SIGINT', () => process.exit(0));
const http = createServer((_req, res) => res.writeHead(404).end());

type EchoSocket = { on(event: string, fn: (...args: any[]) => void): unknown };
const onConnection = (socket: EchoSocket) => {
  socket.on('echo', (payload: unknown, ack: (x: unknown) => void) => ack(payload));
};

if (kind === 'ours') {
  const { createSocketServer } = await import('../../transport/server/index.ts');
  const io = createSocketServer(http, {});
  io.of('/mimo').on('connection', onConnection);
} else if (kind === 'socketio') {
  const { Server } = await import('socket.io');
  const io = new Server(http, { serveClient: false });
  io.of('/mimo').on('connection', onConnection);
} else {
  throw new Error(`unknown server kind ${kind}`);
}

await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));

process.on('message', (message: { type: string }) => {
  if (message.type !== 'stats') return;
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  process.send!({ type: 'stats', cpu: process.cpuUsage(), memory });
});
process.send!({ type: 'ready', port: (http.address() as AddressInfo).port });
