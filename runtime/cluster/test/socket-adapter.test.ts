// Socket.IO across nodes: three of our socket servers on one PostgreSQL, real socket.io-client
// peers. Run with the official @socket.io/postgres-adapter, unmodified (it proves our namespaces
// give it the surface it uses), and with ours (ordered-postgres-adapter.ts), which also keeps
// order when payloads go over NOTIFY's 8000-byte limit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Socket as ClientSocket } from 'socket.io-client';
import { startPostgres } from '../../test-util/postgres-server.ts';
import { migrate } from '../../store/postgres-migrations.ts';
import { createOrderedPostgresPubSub } from '../ordered-postgres-adapter.ts';
import { connectClient, once, startTestServer, type TestServer } from '../../../transport/server/test/util.ts';
import type { Namespace } from '../../../transport/server/index.ts';

const server = await startPostgres();
const databaseUrl = await server.createDatabase();
const setupPool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
await migrate(setupPool); // creates socket_io_attachments
await setupPool.end();

interface Node {
  server: TestServer;
  nsp: Namespace;
  url: string;
  close(): Promise<void>;
}

type AdapterKind = 'official @socket.io/postgres-adapter' | 'ours (ordered)';

async function startNode(kind: AdapterKind): Promise<Node> {
  const test = await startTestServer();
  const nsp = test.io.of('/mimo');
  nsp.use((socket, next) => {
    const room = (socket.handshake.auth as { room?: string }).room;
    if (room) socket.join(room);
    next();
  });
  let closeAdapter: () => Promise<void>;
  if (kind === 'ours (ordered)') {
    const pubsub = createOrderedPostgresPubSub({ connectionString: databaseUrl });
    await nsp.setAdapter((n) => pubsub.adapterFor(n));
    await pubsub.ready();
    closeAdapter = () => pubsub.close();
  } else {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    pool.on('error', () => undefined);
    await nsp.setAdapter(createAdapter(pool) as never);
    closeAdapter = async () => {
      nsp.adapter?.close();
      await new Promise((r) => setTimeout(r, 50)); // the adapter's ADAPTER_CLOSE publish is fire-and-forget
      await pool.end();
    };
  }
  return {
    server: test,
    nsp,
    url: `${test.url}/mimo`,
    async close() {
      await closeAdapter();
      await test.close();
    },
  };
}

/** Waits until every node's adapter has heard of every other (heartbeats over NOTIFY). */
async function untilMeshed(nodes: Node[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const counts = await Promise.all(nodes.map((n) => n.nsp.adapter!.serverCount()));
    if (counts.every((c) => c === nodes.length)) return;
    if (Date.now() > deadline) throw new Error(`adapters did not see each other: ${counts}`);
    await new Promise((r) => setTimeout(r, 20)); // real peers over PostgreSQL, no simulated clock
  }
}

function collect(client: ClientSocket, event: string): unknown[][] {
  const seen: unknown[][] = [];
  client.on(event, (...args: unknown[]) => seen.push(args));
  return seen;
}

for (const kind of ['official @socket.io/postgres-adapter', 'ours (ordered)'] as AdapterKind[]) {
  const s = suite<{ nodes: Node[]; clients: ClientSocket[] }>(`socket.io across 3 nodes on PostgreSQL: ${kind}`);
  s.before(async (ctx) => {
    ctx.nodes = await Promise.all([startNode(kind), startNode(kind), startNode(kind)]);
    await untilMeshed(ctx.nodes);
  });
  s.after.each((ctx) => {
    for (const c of ctx.clients ?? []) c.close();
    ctx.clients = [];
  });
  s.after(async (ctx) => {
    await Promise.all(ctx.nodes.map((n) => n.close()));
  });

  s('a room broadcast from node A reaches its sockets on nodes B and C, not the others', async (ctx) => {
    const [a, b, c] = ctx.nodes as [Node, Node, Node];
    const onB = await connectClient(b.url, { transports: ['websocket'], auth: { room: 'task:1' } });
    const onC = await connectClient(c.url, { transports: ['websocket'], auth: { room: 'task:1' } });
    const other = await connectClient(c.url, { transports: ['websocket'], auth: { room: 'task:2' } });
    ctx.clients = [onB, onC, other];
    const otherSeen = collect(other, 'frontend_event');
    const gotB = once(onB, 'frontend_event');
    const gotC = once(onC, 'frontend_event');
    a.nsp.to('task:1').emit('frontend_event', { type: 'chatDelta', n: 1 });
    assert.equal(await gotB, { type: 'chatDelta', n: 1 });
    assert.equal(await gotC, { type: 'chatDelta', n: 1 });
    // A later broadcast to task:2 arrives after the first one would have: task:2 saw only its own.
    const gotOther = once(other, 'frontend_event');
    a.nsp.to('task:2').emit('frontend_event', { type: 'second' });
    assert.equal(await gotOther, { type: 'second' });
    assert.equal(otherSeen, [[{ type: 'second' }]]);
  });

  s('socket.to(room) from a socket on node B reaches the room on A and C but not the sender', async (ctx) => {
    const [a, b, c] = ctx.nodes as [Node, Node, Node];
    const sender = await connectClient(b.url, { transports: ['websocket'], auth: { room: 'r' } });
    const onA = await connectClient(a.url, { transports: ['websocket'], auth: { room: 'r' } });
    const onC = await connectClient(c.url, { transports: ['websocket'], auth: { room: 'r' } });
    ctx.clients = [sender, onA, onC];
    const senderSeen = collect(sender, 'hello');
    const serverSocket = [...b.nsp.sockets.values()].find((x) => x.id === sender.id)!;
    const gotA = once(onA, 'hello');
    const gotC = once(onC, 'hello');
    serverSocket.to('r').emit('hello', 'from B');
    assert.is(await gotA, 'from B');
    assert.is(await gotC, 'from B');
    const echo = once(sender, 'direct');
    serverSocket.emit('direct', 'only to you');
    await echo;
    assert.equal(senderSeen, []);
  });

  s(
    'broadcast with acks across nodes: an action dispatched on A reaches the plugin on B, its ack comes back to A',
    async (ctx) => {
      const [a, b] = ctx.nodes as [Node, Node, Node];
      const plugin = await connectClient(b.url, { transports: ['websocket'], auth: { room: 'client:p1' } });
      ctx.clients = [plugin];
      plugin.on('plugin_message', (frame: { id: string }, ack: (r: unknown) => void) =>
        ack({ ok: true, accepted: frame.id }),
      );
      const responses = await a.nsp
        .to('client:p1')
        .timeout(3000)
        .emitWithAck('plugin_message', { type: 'browser_action', id: 'act-1' });
      assert.equal(responses, [{ ok: true, accepted: 'act-1' }]);
      // Nobody in the room anywhere: done at once with no responses (every node counted 0 clients).
      assert.equal(await a.nsp.to('client:nobody').timeout(3000).emitWithAck('plugin_message', {}), []);
    },
  );

  s('serverSideEmit reaches the other nodes', async (ctx) => {
    const [a, b, c] = ctx.nodes as [Node, Node, Node];
    const got = Promise.all(
      [b, c].map((n) => new Promise((resolve) => n.nsp.on('cluster:ping', (x: unknown) => resolve(x)))),
    );
    a.nsp.serverSideEmit('cluster:ping', { from: 'A' });
    assert.equal(await got, [{ from: 'A' }, { from: 'A' }]);
  });

  if (kind === 'ours (ordered)') {
    s('a node whose database connections are cut reconnects and hears broadcasts again', async (ctx) => {
      const [a, b] = ctx.nodes as [Node, Node, Node];
      const web = await connectClient(b.url, { transports: ['websocket'], auth: { room: 'task:reconnect' } });
      ctx.clients = [web];
      const seen = collect(web, 'frontend_event');
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      // Every pub/sub connection of every node is cut (as a server restart would).
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mimo-pubsub'`,
      );
      await admin.end();
      assert.ok(cut.rowCount! >= 6);
      const deadline = Date.now() + 10_000;
      let n = 0;
      while (seen.length === 0 && Date.now() < deadline) {
        a.nsp.to('task:reconnect').emit('frontend_event', { n: n++ });
        await new Promise((r) => setTimeout(r, 100)); // real reconnection (1-2 s backoff), bounded
      }
      assert.ok(seen.length > 0, 'B hears A again after reconnecting');
      await untilMeshed(ctx.nodes);
    });

    s('order holds across nodes with payloads over the NOTIFY limit (attachments) between small ones', async (ctx) => {
      const [a, b] = ctx.nodes as [Node, Node, Node];
      const web = await connectClient(b.url, { transports: ['websocket'], auth: { room: 'task:order' } });
      ctx.clients = [web];
      const seen = collect(web, 'frontend_event');
      const big = 'x'.repeat(20_000);
      for (let i = 0; i < 60; i++)
        a.nsp.to('task:order').emit('frontend_event', { i, text: i % 3 === 0 ? big : 'small' });
      const deadline = Date.now() + 10_000;
      while (seen.length < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(
        seen.map(([e]) => (e as { i: number }).i),
        Array.from({ length: 60 }, (_, i) => i),
      );
    });
  }

  s.run();
}

const done = suite('postgres server');
done.after(async () => server.stop());
done('stops', () => {});
done.run();
