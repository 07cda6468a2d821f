// The socket server's timers on an injected SimulatedClock: connectTimeout, the heartbeat (ping
// every pingInterval, drop after pingTimeout without a pong, stay while pongs come), a socket's
// timed ack and a broadcast ack. Time moves only with clock.increment(); nothing here sleeps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock } from 'xstate';
import { Adapter } from 'socket.io-adapter';
import { WebSocket } from 'ws';
import { eventually, startTestServer, type TestServer } from './util.ts';

interface RawWs {
  ws: WebSocket;
  messages: string[];
  isClosed(): boolean;
}

function openRawWs(url: string): Promise<RawWs> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const messages: string[] = [];
  let closed = false;
  ws.on('close', () => (closed = true));
  ws.on('message', (data) => messages.push(data.toString()));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, messages, isClosed: () => closed }));
    ws.on('error', reject);
  });
}

/** Lets the sockets deliver what the last increment made happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

const test = suite<{ server: TestServer; clock: SimulatedClock }>('transport timers on a SimulatedClock', {
  server: undefined as never,
  clock: undefined as never,
});

test.before.each(async (ctx) => {
  ctx.clock = new SimulatedClock();
  ctx.server = await startTestServer({
    clock: ctx.clock,
    pingInterval: 25_000,
    pingTimeout: 20_000,
    connectTimeout: 45_000,
  });
  ctx.server.io.of('/mimo').on('connection', (socket) => socket.join('room'));
});
test.after.each(async (ctx) => {
  await ctx.server.close();
});

test('connectTimeout: open at 44,999 ms of simulated time without a namespace, closed at 45,000', async ({
  server,
  clock,
}) => {
  const raw = await openRawWs(server.url);
  await eventually(() => raw.messages.length === 1, 2_000, 'open packet');
  clock.increment(44_999);
  await settle();
  assert.not.ok(raw.isClosed());
  clock.increment(1);
  await eventually(() => raw.isClosed(), 2_000, 'close after connectTimeout');
});

test('heartbeat: a ping at pingInterval; no pong within pingTimeout drops the peer', async ({ server, clock }) => {
  const raw = await openRawWs(server.url);
  raw.ws.send('40/mimo,');
  await eventually(() => raw.messages.length === 2, 2_000, 'connect reply');
  clock.increment(24_999);
  await settle();
  assert.not.ok(raw.messages.includes('2'), 'no ping before pingInterval');
  clock.increment(1);
  await eventually(() => raw.messages.includes('2'), 2_000, 'the ping');
  clock.increment(19_999);
  await settle();
  assert.not.ok(raw.isClosed(), 'still open before pingTimeout');
  clock.increment(1);
  await eventually(() => raw.isClosed(), 2_000, 'dropped after pingTimeout');
});

test('heartbeat: a peer that answers every ping stays connected over ten intervals', async ({ server, clock }) => {
  const raw = await openRawWs(server.url);
  raw.ws.on('message', (data) => {
    if (data.toString() === '2') raw.ws.send('3');
  });
  raw.ws.send('40/mimo,');
  await eventually(() => raw.messages.length === 2, 2_000, 'connect reply');
  for (let round = 1; round <= 10; round++) {
    // The next ping is due pingInterval after the last pong (or the connect).
    clock.increment(25_000);
    await eventually(() => raw.messages.filter((m) => m === '2').length === round, 2_000, `ping ${round}`);
    await settle(); // the pong reaches the server and cancels the pong deadline
    assert.not.ok(raw.isClosed(), `closed in round ${round}`);
  }
  clock.increment(24_999);
  await settle();
  assert.not.ok(raw.isClosed());
});

test("a socket's timed ack fails with a timeout exactly at its deadline", async ({ server, clock }) => {
  const raw = await openRawWs(server.url);
  raw.ws.send('40/mimo,');
  await eventually(() => raw.messages.length === 2, 2_000, 'connect reply');
  const socket = [...server.io.of('/mimo').sockets.values()][0]!;
  const outcome: { error?: Error } = {};
  socket.timeout(5_000).emit('question', (error: Error | null) => {
    outcome.error = error ?? undefined;
  });
  await eventually(() => raw.messages.some((m) => m.includes('"question"')), 2_000, 'the event on the wire');
  clock.increment(4_999);
  assert.is(outcome.error, undefined);
  clock.increment(1);
  assert.ok(outcome.error, 'the ack timed out');
});

test('a broadcast ack with no answer fails at its deadline on the injected clock', async ({ server, clock }) => {
  await server.io.of('/mimo').setAdapter((n) => new Adapter(n) as never);
  const raw = await openRawWs(server.url);
  raw.ws.send('40/mimo,');
  await eventually(() => raw.messages.length === 2, 2_000, 'connect reply');
  const pending = server.io
    .of('/mimo')
    .to('room')
    .timeout(3_000)
    .emitWithAck('ask')
    .catch((error: Error) => error);
  await eventually(() => raw.messages.some((m) => m.includes('"ask"')), 2_000, 'the broadcast on the wire');
  clock.increment(3_000);
  const error = await pending;
  assert.instance(error, Error);
  assert.match((error as Error).message, /timed out/);
});

test.run();
