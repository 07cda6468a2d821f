// Engine.IO-level behaviour checked on the wire with raw HTTP and raw WebSocket peers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import { SimulatedClock } from 'xstate';
import { connectClient, eventually, sleep, startTestServer, type TestServer } from './util.ts';

const test = suite<{ server: TestServer }>('engine.io protocol', { server: undefined as never });

test.before.each(async (ctx) => {
  ctx.server = await startTestServer({
    pingInterval: 300,
    pingTimeout: 200,
    maxPayload: 10_000,
    connectTimeout: 400,
    allowRequest: (req) => req.headers['x-forbidden'] !== 'yes',
  });
  ctx.server.io.of('/mimo').on('connection', (socket) => {
    socket.on('echo', (x: unknown, ack: (x: unknown) => void) => ack(x));
  });
});
test.after.each(async (ctx) => {
  await ctx.server.close();
});

interface RawWs {
  ws: WebSocket;
  messages: string[];
  closed: Promise<number>;
  isClosed(): boolean;
}

function openRawWs(url: string, query = 'EIO=4&transport=websocket'): Promise<RawWs> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?${query}`);
  const messages: string[] = [];
  let closedFlag = false;
  const closed = new Promise<number>((resolve) =>
    ws.on('close', (code) => {
      closedFlag = true;
      resolve(code);
    }),
  );
  ws.on('message', (data) => messages.push(data.toString()));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, messages, closed, isClosed: () => closedFlag }));
    ws.on('error', reject);
  });
}

test('polling handshake: open packet with exactly the five keys, websocket offered', async ({ server }) => {
  const res = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`);
  assert.is(res.status, 200);
  const body = await res.text();
  assert.is(body[0], '0');
  const open = JSON.parse(body.slice(1));
  assert.equal(Object.keys(open).sort(), ['maxPayload', 'pingInterval', 'pingTimeout', 'sid', 'upgrades']);
  assert.equal(open.upgrades, ['websocket']);
  assert.is(open.pingInterval, 300);
  assert.is(open.pingTimeout, 200);
  assert.is(open.maxPayload, 10_000);
});

test('websocket handshake: open packet with no upgrades, then a namespace CONNECT reply {sid}', async ({ server }) => {
  const raw = await openRawWs(server.url);
  await eventually(() => raw.messages.length >= 1, 2_000, 'open packet');
  const open = JSON.parse(raw.messages[0]!.slice(1));
  assert.equal(Object.keys(open).sort(), ['maxPayload', 'pingInterval', 'pingTimeout', 'sid', 'upgrades']);
  assert.equal(open.upgrades, []);
  raw.ws.send('40/mimo,{"clientType":"frontend"}');
  await eventually(() => raw.messages.length >= 2, 2_000, 'connect reply');
  assert.match(raw.messages[1]!, /^40\/mimo,\{"sid":"[A-Za-z0-9_-]+"\}$/);
  raw.ws.send('42/mimo,7["echo",{"a":1}]');
  await eventually(() => raw.messages.some((m) => m.startsWith('43/mimo,7')), 2_000, 'ack');
  assert.ok(raw.messages.includes('43/mimo,7[{"a":1}]'));
  raw.ws.close();
});

const httpErrors: Array<[string, string, RequestInit, number, number, string]> = [
  ['unknown transport', 'EIO=4&transport=carrier-pigeon', {}, 400, 0, 'Transport unknown'],
  ['missing transport', 'EIO=4', {}, 400, 0, 'Transport unknown'],
  ['unknown sid', 'EIO=4&transport=polling&sid=nope', {}, 400, 1, 'Session ID unknown'],
  ['POST handshake', 'EIO=4&transport=polling', { method: 'POST', body: '4hi' }, 400, 2, 'Bad handshake method'],
  ['websocket without upgrade', 'EIO=4&transport=websocket', {}, 400, 3, 'Bad request'],
  ['forbidden by allowRequest', 'EIO=4&transport=polling', { headers: { 'x-forbidden': 'yes' } }, 403, 4, 'Forbidden'],
  ['EIO=3', 'EIO=3&transport=polling', {}, 400, 5, 'Unsupported protocol version'],
  ['no EIO', 'transport=polling', {}, 400, 5, 'Unsupported protocol version'],
];
for (const [name, query, init, status, code, message] of httpErrors) {
  test(`HTTP error: ${name} -> ${status} {code:${code}}`, async ({ server }) => {
    const res = await fetch(`${server.url}/socket.io/?${query}`, init);
    assert.is(res.status, status);
    assert.is(res.headers.get('content-type'), 'application/json');
    assert.equal(await res.json(), { code, message });
  });
}

test('HTTP error: a GET with the sid of a websocket session -> 400 code 3', async ({ server }) => {
  const raw = await openRawWs(server.url);
  await eventually(() => raw.messages.length >= 1, 2_000, 'open packet');
  const sid = JSON.parse(raw.messages[0]!.slice(1)).sid;
  const res = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`);
  assert.is(res.status, 400);
  assert.equal(await res.json(), { code: 3, message: 'Bad request' });
  raw.ws.close();
});

test('websocket upgrade with a bad EIO is refused before the handshake', async ({ server }) => {
  const error = await new Promise<Error>((resolve) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/socket.io/?EIO=3&transport=websocket`);
    ws.on('error', resolve);
  });
  assert.match(error.message, /400/);
});

for (const frame of ['4abc', '42{}', '42abc[', '4', '9', '42/mimo,["x"', '45-["x",{"_placeholder":true,"num":0}]x']) {
  test(`invalid packet ${JSON.stringify(frame)} closes the connection`, async ({ server }) => {
    const raw = await openRawWs(server.url);
    raw.ws.send('40/mimo,');
    await eventually(() => raw.messages.length >= 2, 2_000, 'connect reply');
    raw.ws.send(frame);
    const code = await Promise.race([raw.closed, sleep(1_000).then(() => -1)]);
    assert.ok(code !== -1, `connection still open after ${frame}`);
  });
}

test('a websocket frame over maxPayload closes the connection', async ({ server }) => {
  const raw = await openRawWs(server.url);
  raw.ws.send('40/mimo,');
  raw.ws.send(`42/mimo,["echo","${'x'.repeat(20_000)}"]`);
  const code = await Promise.race([raw.closed, sleep(1_000).then(() => -1)]);
  assert.is(code, 1009);
});

test('a polling POST over maxPayload is answered 413', async ({ server }) => {
  const open = await (await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`)).text();
  const sid = JSON.parse(open.slice(1)).sid;
  const res = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`, {
    method: 'POST',
    body: `4${'x'.repeat(20_000)}`,
  });
  assert.is(res.status, 413);
});

test('polling payload with several packets is processed in order', async ({ server }) => {
  const open = await (await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`)).text();
  const sid = JSON.parse(open.slice(1)).sid;
  const base = `${server.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`;
  const post = await fetch(base, {
    method: 'POST',
    body: '40/mimo,\x1e42/mimo,1["echo","a"]\x1e42/mimo,2["echo","b"]',
  });
  assert.is(await post.text(), 'ok');
  let received = '';
  for (let i = 0; i < 5 && !received.includes('43/mimo,2'); i++)
    received += (await (await fetch(base)).text()) + '\x1e';
  const packets = received.split('\x1e').filter(Boolean);
  assert.ok(packets[0]!.startsWith('40/mimo,{"sid":'));
  assert.ok(packets.includes('43/mimo,1["a"]'));
  assert.ok(packets.indexOf('43/mimo,1["a"]') < packets.indexOf('43/mimo,2["b"]'));
});

// connectTimeout and the heartbeat's exact timing are pinned on a SimulatedClock with a raw peer in
// transport-timers.test.ts; here the real client meets the same timers on a SimulatedClock.
test('heartbeat: a real client that stops answering pings is dropped with "ping timeout"', async () => {
  const clock = new SimulatedClock();
  const server = await startTestServer({ clock, pingInterval: 300, pingTimeout: 200 });
  try {
    const reasons: string[] = [];
    server.io.of('/mimo').on('connection', (socket) => socket.on('disconnect', (r: string) => reasons.push(r)));
    const client = await connectClient(`${server.url}/mimo`, { transports: ['websocket'] });
    const engine = client.io.engine as unknown as {
      _sendPacket: (type: string, ...rest: unknown[]) => void;
      on(event: 'ping', fn: () => void): void;
    };
    let pings = 0;
    engine.on('ping', () => pings++);
    const sendPacket = engine._sendPacket.bind(engine);
    engine._sendPacket = (type, ...rest) => (type === 'pong' ? undefined : sendPacket(type, ...rest));
    clock.increment(300);
    await eventually(() => pings === 1, 2_000, 'the ping reaching the client');
    clock.increment(199);
    assert.equal(reasons, [], 'still connected before pingTimeout');
    clock.increment(1);
    await eventually(() => reasons.length === 1, 2_000, 'ping timeout');
    assert.equal(reasons, ['ping timeout']);
    client.close();
  } finally {
    await server.close();
  }
});

test('polling client upgrades to websocket and keeps its session id', async ({ server }) => {
  const client = await connectClient(`${server.url}/mimo`, {});
  const engine = client.io.engine;
  const sidBefore = engine.id;
  await eventually(() => engine.transport.name === 'websocket', 3_000, 'upgrade');
  assert.is(engine.id, sidBefore);
  const serverClient = [...server.io.of('/mimo').sockets.values()][0]!.client;
  await eventually(() => serverClient.transport === 'websocket', 2_000, 'server-side upgrade');
  assert.is(await client.emitWithAck('echo', 'after upgrade'), 'after upgrade');
  client.close();
});

test('the client reconnects after the server restarts on the same port', async (ctx) => {
  const port = ctx.server.port;
  const client = await connectClient(`${ctx.server.url}/mimo`, {
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: 50,
    reconnectionDelayMax: 200,
  });
  const disconnected = new Promise((r) => client.once('disconnect', r));
  await ctx.server.close();
  await disconnected;
  ctx.server = await startTestServer({}, port);
  ctx.server.io
    .of('/mimo')
    .on('connection', (socket) => socket.on('echo', (x: unknown, ack: (x: unknown) => void) => ack(x)));
  await eventually(() => client.connected, 5_000, 'reconnect');
  assert.is(await client.emitWithAck('echo', 'back'), 'back');
  client.close();
});

test('close() disconnects every client with "server shutting down"', async ({ server }) => {
  const reasons: string[] = [];
  server.io.of('/mimo').on('connection', (socket) => socket.on('disconnect', (r: string) => reasons.push(r)));
  const a = await connectClient(`${server.url}/mimo`, { transports: ['websocket'] });
  const b = await connectClient(`${server.url}/mimo`, {});
  server.io.close();
  assert.equal(reasons, ['server shutting down', 'server shutting down']);
  await eventually(() => !a.connected && !b.connected, 3_000, 'clients disconnected');
  assert.is(server.io.clientsCount, 0);
});

test.run();
