// A node that starts while PostgreSQL is away (restarting, or started after the nodes) waits for
// it with backoff and then goes on, as a running node rides out an outage; it exits 1 only when
// the database stays away past MIMO_DATABASE_OUTAGE_MAX_MS. Real node processes, real PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { authHeaders, startClusterHarness, type ClusterHarness } from './cluster-harness.ts';

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

startup('a node whose database stays away past MIMO_DATABASE_OUTAGE_MAX_MS exits 1', async ({ h }) => {
  const restarted = h.pg.restart!(6_000);
  await sleep(500);
  const started = Date.now();
  const error = await h.startNode('node-gives-up', { MIMO_DATABASE_OUTAGE_MAX_MS: '2000' }).catch((e: Error) => e);
  const gaveUpAfter = Date.now() - started;
  await restarted;
  assert.instance(error, Error);
  assert.match(String((error as Error).message), /exited with 1/);
  assert.ok(gaveUpAfter >= 2_000 && gaveUpAfter < 5_500, `gave up after ${gaveUpAfter} ms`);
});

startup.run();
