// The reference of server-blackbox.bench.ts: plain Socket.IO clients in their own process, each
// emitting an event with an ack to bench/transport/server-process.ts (socketio: it acks with the
// payload) one after another. The payload is a browser_action frame of the bench's size.
//   node --import tsx bench/runtime/blackbox/echo-swarm.ts <port> <count>
// Prints "ready" once connected; IPC {type:'run', ms} answers {type:'ran', count}.
import { io } from 'socket.io-client';

const [port, countText] = process.argv.slice(2);
const frame = {
  v: 1,
  type: 'browser_action',
  id: 'act-0123456789ab',
  taskId: '01JD0000000000000000000000',
  clientId: 'bench-plugin-0',
  timestamp: Date.now(),
  action: { browser_click: { tabId: 101, clickId: 2 } },
  timeoutMs: 5_000,
};
const sockets = await Promise.all(
  Array.from({ length: Number(countText) }, async () => {
    const socket = io(`http://127.0.0.1:${port}/mimo`, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }),
);
process.on('SIGTERM', () => {
  for (const s of sockets) s.close();
  process.exit(0);
});
process.on('message', async (message: { type?: string; ms?: number }) => {
  if (message?.type !== 'run') return;
  const end = performance.now() + message.ms!;
  let count = 0;
  await Promise.all(
    sockets.map(async (socket) => {
      while (performance.now() < end) {
        await new Promise<void>((resolve) => socket.emit('echo', frame, () => resolve()));
        count++;
      }
    }),
  );
  process.send?.({ type: 'ran', count });
});
console.log('ready');
