// Room lookups (`nsp.to(room).sockets()`, the runtime's way to find a plugin's socket): the
// one-room fast path and the general path give the same sockets, with the real client.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectClient, eventually, startTestServer, type TestServer } from './util.ts';

const test = suite<{ server: TestServer }>('rooms', { server: undefined as never });
test.before.each(async (ctx) => {
  ctx.server = await startTestServer();
});
test.after.each(async (ctx) => {
  await ctx.server.close();
});

test('to(room).sockets(): members only, the implicit own-id room, an unknown room, after a member leaves', async ({
  server,
}) => {
  const nsp = server.io.of('/mimo');
  nsp.on('connection', (socket) => {
    socket.on('join', (room: string, ack: () => void) => {
      socket.join(room);
      ack();
    });
  });
  const [a, b, c] = await Promise.all(
    [0, 1, 2].map(() => connectClient(`${server.url}/mimo`, { transports: ['websocket'] })),
  );
  await a!.emitWithAck('join', 'client:p');
  await b!.emitWithAck('join', 'client:p');
  await c!.emitWithAck('join', 'other');
  const ids = (room: string | string[]) =>
    nsp
      .to(room)
      .sockets()
      .map((s) => s.id)
      .sort();
  assert.equal(ids('client:p'), [a!.id, b!.id].sort());
  assert.equal(ids(c!.id!), [c!.id], 'a socket id is a room of one');
  assert.equal(ids('nobody'), []);
  assert.equal(ids(['client:p', 'other']), [a!.id, b!.id, c!.id].sort(), 'two rooms: the general path');
  assert.equal(
    nsp
      .to('client:p')
      .except(a!.id!)
      .sockets()
      .map((s) => s.id),
    [b!.id],
    'with an exception: the general path',
  );
  b!.close();
  await eventually(() => ids('client:p').length === 1, 2_000, 'b left');
  assert.equal(ids('client:p'), [a!.id]);
  a!.close();
  c!.close();
});

test.run();
