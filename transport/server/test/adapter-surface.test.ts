// Our namespaces under socket.io-adapter's own in-memory `Adapter` (the base class of every
// socket.io adapter, the PostgreSQL ones included): rooms handed to it, broadcasts and broadcast
// acks done by it, with the real socket.io-client as the peer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Adapter } from 'socket.io-adapter';
import { connectClient, eventually, once, startTestServer, type TestServer } from './util.ts';

const test = suite<{ server: TestServer }>('socket.io-adapter surface', { server: undefined as never });

test.before.each(async (ctx) => {
  ctx.server = await startTestServer();
  const nsp = ctx.server.io.of('/mimo');
  nsp.use((socket, next) => {
    const room = (socket.handshake.auth as { room?: string }).room;
    if (room) socket.join(room);
    next();
  });
  await nsp.setAdapter((n) => new Adapter(n) as never);
});
test.after.each(async (ctx) => {
  await ctx.server.close();
});

test('rooms live in the adapter: joins, the implicit own-id room, leave and disconnect', async ({ server }) => {
  const nsp = server.io.of('/mimo');
  const client = await connectClient(`${server.url}/mimo`, { transports: ['websocket'], auth: { room: 'task:1' } });
  const adapter = nsp.adapter!;
  assert.ok(adapter.rooms.get('task:1')?.has(client.id!));
  assert.ok(adapter.rooms.get(client.id!)?.has(client.id!));
  const socket = nsp.sockets.get(client.id!)!;
  socket.join('extra');
  assert.equal([...adapter.sids.get(client.id!)!].sort(), [client.id!, 'extra', 'task:1'].sort());
  socket.leave('extra');
  assert.not.ok(adapter.rooms.has('extra'));
  const id = client.id!;
  client.close(); // (the client forgets its id here)
  await eventually(() => !adapter.sids.has(id), 2_000, 'the adapter to forget the socket');
  assert.not.ok(adapter.rooms.has(id));
  assert.not.ok(adapter.rooms.has('task:1'), JSON.stringify([...adapter.rooms].map(([r, ids]) => [r, [...ids]])));
});

test('broadcasts go through the adapter: to, except, socket.to excludes the sender', async ({ server }) => {
  const nsp = server.io.of('/mimo');
  const [one, two, other] = await Promise.all([
    connectClient(`${server.url}/mimo`, { transports: ['websocket'], auth: { room: 'r' } }),
    connectClient(`${server.url}/mimo`, { transports: ['websocket'], auth: { room: 'r' } }),
    connectClient(`${server.url}/mimo`, { transports: ['websocket'], auth: { room: 'elsewhere' } }),
  ]);
  const seen: Record<string, unknown[]> = { one: [], two: [], other: [] };
  one.on('e', (x) => seen.one!.push(x));
  two.on('e', (x) => seen.two!.push(x));
  other.on('e', (x) => seen.other!.push(x));
  nsp.to('r').emit('e', 1);
  nsp.except('r').emit('e', 2);
  nsp.sockets.get(one.id!)!.to('r').emit('e', 3);
  const marker = once(other, 'done');
  nsp.emit('done');
  await marker;
  await eventually(() => seen.one!.length === 1 && seen.two!.length === 2, 2_000, 'deliveries');
  assert.equal(seen, { one: [1], two: [1, 3], other: [2] });
  for (const c of [one, two, other]) c.close();
});

test("broadcast acks: every client answers once; ids never collide with a socket's own acks", async ({ server }) => {
  const nsp = server.io.of('/mimo');
  const clients = await Promise.all(
    [1, 2].map(() => connectClient(`${server.url}/mimo`, { transports: ['websocket'], auth: { room: 'plugins' } })),
  );
  clients.forEach((c, i) => {
    c.on('ask', (x: number, ack: (r: unknown) => void) => ack({ from: i, x }));
    c.on('own', (ack: (r: unknown) => void) => ack(`own-${i}`));
  });
  const own = nsp.sockets.get(clients[0]!.id!)!.timeout(2_000).emitWithAck('own');
  const all = nsp.to('plugins').timeout(2_000).emitWithAck('ask', 7);
  const own2 = nsp.sockets.get(clients[1]!.id!)!.timeout(2_000).emitWithAck('own');
  assert.equal(
    ((await all) as Array<{ from: number; x: number }>).sort((a, b) => a.from - b.from),
    [
      { from: 0, x: 7 },
      { from: 1, x: 7 },
    ],
  );
  assert.is(await own, 'own-0');
  assert.is(await own2, 'own-1');
  // A silent client: the timeout reports what arrived.
  clients[1]!.off('ask');
  const error = await nsp
    .to('plugins')
    .timeout(300)
    .emitWithAck('ask', 8)
    .catch((e) => e);
  assert.match(String(error), /timed out/);
  for (const c of clients) c.close();
});

test.run();
