// Namespace /mimo with the real socket.io-client: auth validation, token, rooms.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectClient, eventually, startTestServer, type TestServer } from '../../server/test/util.ts';
import { rooms } from '../../contracts/socket-auth.ts';
import { mimoAuthOf, setupMimoNamespace } from '../mimo-namespace.ts';

const test = suite<{ server: TestServer }>('namespace /mimo', { server: undefined as never });

test.before.each(async (ctx) => {
  ctx.server = await startTestServer();
  setupMimoNamespace(ctx.server.io, { token: 'sesame' });
});
test.after.each(async (ctx) => {
  await ctx.server.close();
});

async function refusalOf(url: string, auth: unknown): Promise<{ message: string; data: any }> {
  try {
    const socket = await connectClient(url, { transports: ['websocket'], auth: auth as object });
    socket.close();
  } catch (error) {
    return { message: (error as Error).message, data: (error as Error & { data: unknown }).data };
  }
  throw new Error('connection was accepted');
}

test('a frontend with the token joins room "frontend"', async ({ server }) => {
  const client = await connectClient(`${server.url}/mimo`, {
    transports: ['websocket'],
    auth: { clientType: 'frontend', token: 'sesame' },
  });
  const socket = [...server.io.of('/mimo').sockets.values()][0]!;
  assert.ok(socket.rooms.has(rooms.frontend));
  assert.is(mimoAuthOf(socket).clientType, 'frontend');
  client.close();
});

test('a plugin joins room client:{clientId} and receives what is sent there', async ({ server }) => {
  const client = await connectClient(`${server.url}/mimo`, {
    transports: ['websocket'],
    auth: { clientType: 'plugin', clientId: 'plugin-abc', token: 'sesame' },
  });
  const got: unknown[] = [];
  client.on('plugin_message', (m: unknown) => got.push(m));
  server.io.of('/mimo').to(rooms.client('plugin-abc')).emit('plugin_message', { hello: 1 });
  server.io.of('/mimo').to(rooms.client('someone-else')).emit('plugin_message', { hello: 2 });
  await eventually(() => got.length === 1, 2_000, 'room delivery');
  assert.equal(got, [{ hello: 1 }]);
  client.close();
});

test('a wrong token is refused with UNAUTHORIZED', async ({ server }) => {
  const refused = await refusalOf(`${server.url}/mimo`, { clientType: 'frontend', token: 'nope' });
  assert.match(refused.message, /token/);
  assert.is(refused.data.code, 'UNAUTHORIZED');
});

test('a missing token is refused with UNAUTHORIZED', async ({ server }) => {
  const refused = await refusalOf(`${server.url}/mimo`, { clientType: 'frontend' });
  assert.is(refused.data.code, 'UNAUTHORIZED');
});

test('a plugin without clientId is refused with a field error', async ({ server }) => {
  const refused = await refusalOf(`${server.url}/mimo`, { clientType: 'plugin', token: 'sesame' });
  assert.is(refused.data.code, 'BAD_REQUEST');
  assert.ok(refused.data.details.fieldErrors.some((e: { field: string }) => e.field === 'clientId'));
});

test('an unknown clientType is refused', async ({ server }) => {
  const refused = await refusalOf(`${server.url}/mimo`, { clientType: 'robot', token: 'sesame' });
  assert.is(refused.data.code, 'BAD_REQUEST');
});

test('without a configured token, connections need no token', async ({ server }) => {
  await server.close();
  const open = await startTestServer();
  setupMimoNamespace(open.io, {});
  const client = await connectClient(`${open.url}/mimo`, {
    transports: ['websocket'],
    auth: { clientType: 'frontend' },
  });
  assert.ok(client.connected);
  client.close();
  await open.close();
});

test.run();
