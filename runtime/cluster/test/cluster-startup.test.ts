// A node that starts while PostgreSQL is away (restarting, or started after the nodes) waits for
// it with backoff and then goes on, as a running node rides out an outage; it exits 1 only when
// the database stays away past MIMO_DATABASE_OUTAGE_MAX_MS. Real node processes, real PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestClock } from '../../clock/index.ts';
import { waitForDatabase } from '../db-retry.ts';
import { startFakePlugin } from '../../test-util/fake-plugin.ts';
import { eventually } from '../../test/util.ts';
import { authHeaders, CLUSTER_TOKEN, startClusterHarness, type ClusterHarness } from './cluster-harness.ts';

const startup = suite<{ h: ClusterHarness }>('cluster node start while the database is away');

startup.before(async (ctx) => {
  ctx.h = await startClusterHarness();
});
startup.after(async (ctx) => {
  await ctx.h.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

startup('a node started during a PostgreSQL restart waits for it, then serves', async ({ h }) => {
  const restarted = h.pg.restart!(3_000);
  await sleep(500); // the server is down now
  const started = Date.now();
  const node = await h.startNode('node-late', { MIMO_DATABASE_OUTAGE_MAX_MS: '30000' });
  const waited = Date.now() - started;
  await restarted;
  assert.ok(waited >= 1_500, `it listened after the database came back (${waited} ms)`);
  const response = await fetch(`${node.url}/api/task/list`, { headers: authHeaders });
  assert.is(response.status, 200);
  await node.stop();
});

startup(
  'an extension that connects while PostgreSQL restarts is seen by the other nodes once it is back',
  async ({ h }) => {
    const a = await h.startNode('node-a');
    const b = await h.startNode('node-b');
    let plugin: Awaited<ReturnType<typeof startFakePlugin>> | undefined;
    try {
      const restarted = h.pg.restart!(3_000);
      await sleep(500); // the database is down: A's relay and its writes are away
      plugin = await startFakePlugin({ url: a.url, clientId: 'plugin-in-outage', token: CLUSTER_TOKEN });
      await restarted;
      // B hears nothing through the relay; after its own reconnect it reads A's plugins from the table.
      await eventually(
        async () => {
          const body = (await (
            await fetch(`${b.url}/api/extension/extension-list`, { headers: authHeaders })
          ).json()) as {
            data: Array<{ clientId: string; socketConnected: boolean }>;
          };
          return body.data.some((e) => e.clientId === 'plugin-in-outage' && e.socketConnected);
        },
        15_000,
        'node B to see the extension connected to A during the outage',
      );
    } finally {
      plugin?.close();
      await b.stop();
      await a.stop();
    }
  },
);

startup('a node whose database never answers exits 1 once MIMO_DATABASE_OUTAGE_MAX_MS is over', async ({ h }) => {
  const nowhere = 'postgres://mimo@127.0.0.1:1/mimo'; // nothing listens there: ECONNREFUSED, a transient error
  const error = await h
    .startNode('node-gives-up', { MIMO_DATABASE_URL: nowhere, MIMO_DATABASE_OUTAGE_MAX_MS: '2000' })
    .catch((e: Error) => e);
  assert.instance(error, Error);
  assert.match(String((error as Error).message), /exited with 1/);
});

const bound = suite('waiting for the database at start (simulated time)');

bound('retries with backoff while the database is away, then goes on; says so once', async () => {
  const clock = createTestClock(0);
  const logs: any[] = [];
  let calls = 0;
  await waitForDatabase(
    async () => {
      if (clock.now() < 4_000) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      calls++;
    },
    { maxMs: 30_000, sleep: async (ms) => clock.increment(ms), now: () => clock.now(), log: (e) => logs.push(e) },
  );
  assert.is(calls, 1);
  assert.equal(
    logs.map((e) => e.event),
    ['database_waiting', 'database_reachable'],
  );
  assert.ok(logs[1].waitedMs >= 4_000 && logs[1].waitedMs < 6_500, `waited ${logs[1].waitedMs} ms`);
});

bound('gives up past the bound; a real error is thrown at once', async () => {
  const clock = createTestClock(0);
  const options = { maxMs: 2_000, sleep: async (ms: number) => clock.increment(ms), now: () => clock.now() };
  const away = await waitForDatabase(async () => {
    throw Object.assign(new Error('the database system is starting up'), { code: '57P03' });
  }, options).catch((e: Error) => e);
  assert.match(String(away), /starting up/);
  assert.ok(clock.now() >= 2_000 && clock.now() <= 4_100, `gave up at ${clock.now()} ms`);
  const start = clock.now();
  const real = await waitForDatabase(async () => {
    throw Object.assign(new Error('password authentication failed'), { code: '28P01' });
  }, options).catch((e: Error) => e);
  assert.match(String(real), /password/);
  assert.is(clock.now(), start);
});

bound.run();
startup.run();
