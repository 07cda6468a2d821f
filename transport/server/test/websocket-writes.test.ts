// Frames written in one tick leave in one writev (the TCP socket is corked for the tick), each
// still its own WebSocket frame: the real socket.io-client gets every packet, in order, with
// binary attachments and a disconnect written in the same tick.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { WebSocket } from 'ws';
import { WebSocketTransport } from '../websocket-transport.ts';
import { connectClient, eventually, startTestServer, type TestServer } from './util.ts';

/** A ws stand-in whose TCP socket records what the transport does with it. */
function fakeWs() {
  const calls: string[] = [];
  const socket = {
    cork: () => calls.push('cork'),
    uncork: () => calls.push('uncork'),
    write: (frame: Buffer) => calls.push(`write ${frame.subarray(2).toString()}`),
  };
  const ws = {
    readyState: 1,
    _socket: socket,
    on() {},
    send: () => calls.push('ws.send'),
    close: () => calls.push('close'),
    terminate: () => calls.push('terminate'),
  };
  return { ws: ws as unknown as WebSocket, calls };
}

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

const unit = suite('websocket transport: one write per tick');

unit('three frames in one tick: one cork, three buffered writes, one uncork on the next tick', async () => {
  const { ws, calls } = fakeWs();
  const transport = new WebSocketTransport(ws, 1_000);
  transport.sendText('2["a"]');
  transport.sendText('2["b"]');
  transport.sendText('2["c"]');
  assert.equal(calls, ['cork', 'write 42["a"]', 'write 42["b"]', 'write 42["c"]']);
  await nextTick();
  assert.equal(calls.slice(4), ['uncork']);
  transport.sendText('2["d"]');
  assert.equal(calls.slice(5), ['cork', 'write 42["d"]'], 'the next tick corks again');
});

unit('a frame written just before the transport is dropped is flushed first', () => {
  const { ws, calls } = fakeWs();
  const transport = new WebSocketTransport(ws, 1_000);
  transport.sendText('1/mimo,');
  transport.discard();
  assert.equal(calls, ['cork', 'write 41/mimo,', 'uncork', 'terminate']);
  transport.sendText('2["late"]');
  assert.is(calls.length, 4, 'nothing written after discard');
});

unit.run();

const wire = suite<{ server: TestServer }>('websocket transport: many frames in one tick, real client', {
  server: undefined as never,
});
wire.before.each(async (ctx) => {
  ctx.server = await startTestServer();
});
wire.after.each(async (ctx) => {
  await ctx.server.close();
});

wire('200 events, a binary one, then a disconnect, all written in one tick, arrive in order', async ({ server }) => {
  server.io.of('/mimo').on('connection', (socket) => {
    socket.on('go', () => {
      for (let i = 0; i < 100; i++) socket.emit('n', i);
      socket.emit('bin', Buffer.from([1, 2, 3]), 'after-bytes');
      for (let i = 100; i < 200; i++) socket.emit('n', i);
      socket.disconnect();
    });
  });
  const client = await connectClient(`${server.url}/mimo`, { transports: ['websocket'] });
  const seen: unknown[] = [];
  let reason = '';
  client.on('n', (i: number) => seen.push(i));
  client.on('bin', (bytes: ArrayBuffer | Uint8Array, tail: string) =>
    seen.push(`bin ${[...new Uint8Array(bytes as ArrayBuffer)].join(',')} ${tail}`),
  );
  client.on('disconnect', (r) => (reason = r));
  client.emit('go');
  await eventually(() => reason !== '', 5_000, 'disconnect');
  const expected: unknown[] = [
    ...Array.from({ length: 100 }, (_, i) => i),
    'bin 1,2,3 after-bytes',
    ...Array.from({ length: 100 }, (_, i) => 100 + i),
  ];
  assert.equal(seen, expected);
  assert.is(reason, 'io server disconnect');
  client.close();
});

wire('acks answered in one tick reach each caller', async ({ server }) => {
  server.io.of('/mimo').on('connection', (socket) => {
    socket.on('double', (x: number, ack: (y: number) => void) => ack(x * 2));
  });
  const client = await connectClient(`${server.url}/mimo`, { transports: ['websocket'] });
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => client.emitWithAck('double', i)));
  assert.equal(
    answers,
    Array.from({ length: 50 }, (_, i) => i * 2),
  );
  client.close();
});

wire.run();
