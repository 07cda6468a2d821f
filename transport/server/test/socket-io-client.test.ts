// Our server against the real socket.io-client v4, over websocket and over polling-then-upgrade.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectClient, eventually, once, startTestServer, transportsUnderTest, type TestServer } from './util.ts';

for (const { name, options } of transportsUnderTest) {
  const test = suite<{ server: TestServer }>(`socket.io-client over ${name}`, { server: undefined as never });

  test.before.each(async (ctx) => {
    ctx.server = await startTestServer({ pingInterval: 1_000, pingTimeout: 1_000 });
  });
  test.after.each(async (ctx) => {
    await ctx.server.close();
  });

  test('connects to a namespace with auth and gets its sid', async ({ server }) => {
    let seenAuth: unknown;
    let serverSocketId = '';
    server.io.of('/mimo').on('connection', (socket) => {
      seenAuth = socket.handshake.auth;
      serverSocketId = socket.id;
    });
    const client = await connectClient(`${server.url}/mimo`, {
      ...options,
      auth: { clientType: 'frontend', token: 't' },
    });
    assert.equal(seenAuth, { clientType: 'frontend', token: 't' });
    assert.is(client.id, serverSocketId);
    client.close();
  });

  test('middleware refusal reaches the client as connect_error with message and data', async ({ server }) => {
    server.io.of('/mimo').use((socket, next) => {
      if (socket.handshake.auth.token !== 'right') {
        const error = Object.assign(new Error('UNAUTHORIZED'), { data: { code: 'UNAUTHORIZED' } });
        return next(error);
      }
      next();
    });
    try {
      await connectClient(`${server.url}/mimo`, { ...options, auth: { token: 'wrong' } });
      assert.unreachable('should have been refused');
    } catch (error) {
      assert.instance(error, Error);
      assert.is((error as Error).message, 'UNAUTHORIZED');
      assert.equal((error as Error & { data: unknown }).data, { code: 'UNAUTHORIZED' });
    }
    const ok = await connectClient(`${server.url}/mimo`, { ...options, auth: { token: 'right' } });
    assert.ok(ok.connected);
    ok.close();
  });

  test('events both ways and acks both ways', async ({ server }) => {
    server.io.of('/mimo').on('connection', (socket) => {
      socket.on('add', (a: number, b: number, ack: (sum: number) => void) => ack(a + b));
      socket.on('ask-me', async () => {
        const answer = await socket.timeout(2_000).emitWithAck('question', 'ping?');
        socket.emit('answer-was', answer);
      });
    });
    const client = await connectClient(`${server.url}/mimo`, options);
    client.on('question', (text: string, ack: (reply: string) => void) => ack(`${text} pong!`));
    assert.is(await client.emitWithAck('add', 2, 3), 5);
    const answerWas = once<string>(client, 'answer-was');
    client.emit('ask-me');
    assert.is(await answerWas, 'ping? pong!');
    client.close();
  });

  test('server emitWithAck times out when the client never acks', async ({ server }) => {
    let outcome: unknown;
    server.io.of('/mimo').on('connection', async (socket) => {
      try {
        await socket.timeout(200).emitWithAck('silent');
        outcome = 'acked';
      } catch (error) {
        outcome = (error as Error).message;
      }
    });
    const client = await connectClient(`${server.url}/mimo`, options);
    client.on('silent', () => {});
    await eventually(() => outcome !== undefined, 3_000, 'ack timeout');
    assert.is(outcome, 'operation has timed out');
    client.close();
  });

  test('binary payloads round trip in both directions', async ({ server }) => {
    server.io.of('/mimo').on('connection', (socket) => {
      socket.on('echo', (payload: { name: string; bytes: Buffer; nested: Buffer[] }, ack: (x: unknown) => void) => {
        ack({ name: payload.name, bytes: payload.bytes, nested: payload.nested, size: payload.bytes.length });
      });
    });
    const client = await connectClient(`${server.url}/mimo`, options);
    const bytes = new Uint8Array(1024).map((_, i) => i % 251);
    const reply = (await client.emitWithAck('echo', {
      name: 'png',
      bytes,
      nested: [new Uint8Array([1, 2]), new Uint8Array([3])],
    })) as { name: string; bytes: ArrayBuffer | Uint8Array; nested: Array<ArrayBuffer | Uint8Array>; size: number };
    assert.is(reply.name, 'png');
    assert.is(reply.size, 1024);
    assert.equal([...new Uint8Array(reply.bytes as ArrayBuffer)], [...bytes]);
    assert.equal(
      reply.nested.map((b) => [...new Uint8Array(b as ArrayBuffer)]),
      [[1, 2], [3]],
    );
    client.close();
  });

  test('text frames of every WebSocket length class arrive intact (7-bit, 16-bit, 64-bit lengths)', async ({
    server,
  }) => {
    server.io.of('/mimo').on('connection', (socket) => {
      socket.on('make', (size: number, ack: (s: string) => void) => ack('é'.repeat(size)));
    });
    const client = await connectClient(`${server.url}/mimo`, options);
    for (const size of [1, 50, 62, 63, 100, 32_000, 40_000, 200_000]) {
      const text = (await client.emitWithAck('make', size)) as string;
      assert.is(text.length, size);
      assert.ok(/^é+$/.test(text));
    }
    client.close();
  });

  test('two namespaces share one connection; leaving one keeps the other', async ({ server }) => {
    const engineIds: string[] = [];
    for (const nsp of ['/mimo', '/admin']) {
      server.io.of(nsp).on('connection', (socket) => {
        engineIds.push(socket.client.id);
        socket.on('who', (ack: (x: string) => void) => ack(nsp));
      });
    }
    const mimo = await connectClient(`${server.url}/mimo`, { ...options, forceNew: false, multiplex: true });
    const admin = await connectClient(`${server.url}/admin`, { ...options, forceNew: false, multiplex: true });
    assert.is(mimo.io, admin.io);
    assert.is(engineIds.length, 2);
    assert.is(engineIds[0], engineIds[1]);
    assert.is(await mimo.emitWithAck('who'), '/mimo');
    assert.is(await admin.emitWithAck('who'), '/admin');
    admin.disconnect();
    await eventually(() => server.io.of('/admin').sockets.size === 0, 2_000, 'admin socket gone');
    assert.is(await mimo.emitWithAck('who'), '/mimo');
    assert.is(server.io.clientsCount, 1);
    mimo.io.engine.close();
  });

  test('unknown namespace gets "Invalid namespace" and the connection stays usable', async ({ server }) => {
    server.io.of('/mimo').on('connection', (socket) => socket.on('ping', (ack: (x: string) => void) => ack('pong')));
    try {
      await connectClient(`${server.url}/nope`, { ...options, forceNew: false, multiplex: true });
      assert.unreachable('should fail');
    } catch (error) {
      assert.is((error as Error).message, 'Invalid namespace');
    }
    const mimo = await connectClient(`${server.url}/mimo`, { ...options, forceNew: false, multiplex: true });
    assert.is(await mimo.emitWithAck('ping'), 'pong');
    mimo.io.engine.close();
  });

  test('server-side disconnect reaches the client with "io server disconnect"', async ({ server }) => {
    let serverReason = '';
    server.io.of('/mimo').on('connection', (socket) => {
      socket.on('disconnect', (reason: string) => (serverReason = reason));
      socket.on('kick-me', () => socket.disconnect());
    });
    const client = await connectClient(`${server.url}/mimo`, options);
    const reason = once<string>(client, 'disconnect');
    client.emit('kick-me');
    assert.is(await reason, 'io server disconnect');
    assert.is(serverReason, 'server namespace disconnect');
    client.close();
  });

  test('client disconnect is seen by the server with its reason', async ({ server }) => {
    const reasons: string[] = [];
    server.io.of('/mimo').on('connection', (socket) => socket.on('disconnect', (r: string) => reasons.push(r)));
    const client = await connectClient(`${server.url}/mimo`, options);
    client.disconnect();
    await eventually(() => reasons.length === 1, 2_000, 'server disconnect event');
    assert.equal(reasons, ['client namespace disconnect']);
  });

  test('rooms: to(room).emit reaches only the room, once per socket', async ({ server }) => {
    server.io.of('/mimo').on('connection', (socket) => {
      socket.on('join', (room: string, ack: () => void) => {
        socket.join(room);
        ack();
      });
      socket.on('shout', (room: string, text: string) => server.io.of('/mimo').to(room).to('also').emit('heard', text));
    });
    const a = await connectClient(`${server.url}/mimo`, options);
    const b = await connectClient(`${server.url}/mimo`, options);
    await a.emitWithAck('join', 'task:1');
    await a.emitWithAck('join', 'also');
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    a.on('heard', (t: string) => heardByA.push(t));
    b.on('heard', (t: string) => heardByB.push(t));
    b.emit('shout', 'task:1', 'hello room');
    await eventually(() => heardByA.length === 1, 2_000, 'room message');
    // A round trip on each connection after the broadcast: anything the server wrote to it before
    // (a second copy to A, a copy to B) has arrived by the time the ack does.
    await a.emitWithAck('join', 'barrier-a');
    await b.emitWithAck('join', 'barrier-b');
    assert.equal(heardByA, ['hello room']);
    assert.equal(heardByB, []);
    a.close();
    b.close();
  });

  test('a listener that throws does not break the connection or the server', async (ctx) => {
    const errors: unknown[] = [];
    await ctx.server.close();
    const server = (ctx.server = await startTestServer({ onListenerError: (e) => errors.push(e) }));
    server.io.of('/mimo').on('connection', (socket) => {
      socket.on('boom', () => {
        throw new Error('handler bug');
      });
      socket.on('ok', (ack: (x: string) => void) => ack('still here'));
    });
    const client = await connectClient(`${server.url}/mimo`, options);
    client.emit('boom');
    assert.is(await client.emitWithAck('ok'), 'still here');
    assert.is(errors.length, 1);
    client.close();
  });

  test.run();
}
