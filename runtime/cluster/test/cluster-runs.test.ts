// MCP template runs in cluster mode: two MCP runtimes (each with its fake browser and the real MCP
// SDK client) share the PostgreSQL run store, each holding its node lock as a cluster node does.
// - Node B, started before any run exists, lists and reads the runs node A stores afterwards
//   (get_task_run / list_task_runs read PostgreSQL, not a start-time cache).
// - Node A "dies" (its lock connection is terminated on the server side, as when the process is
//   killed): B's failover watcher marks A's unfinished run canceled with RUN_CANCELED, reason
//   node_lost, once; a late write of the zombie A cannot undo it.
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gate, startMcp, waitForRun, type McpHarness } from '../../mcp/test/mcp-harness.ts';
import { migrate } from '../../store/postgres-migrations.ts';
import { createPostgresArtifactStore } from '../../store/postgres-artifact-store.ts';
import { createPostgresRunStore, type PostgresRunStore } from '../../store/postgres-run-store.ts';
import { startPostgres } from '../../test-util/postgres-server.ts';
import { eventually } from '../../test/util.ts';
import type { ClusterControl } from '../cluster-control.ts';
import type { ClusterPlugins } from '../cluster-plugins.ts';
import { startFailoverWatcher } from '../failover-watcher.ts';
import { createTaskOwnership, LIVE_NODES_SQL, type TaskOwnership } from '../task-ownership.ts';

const server = await startPostgres();
const databaseUrl = await server.createDatabase();
const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
admin.on('error', () => undefined);
await migrate(admin);
const clock = { now: () => Date.now() };

interface Node {
  name: string;
  pool: pg.Pool;
  store: PostgresRunStore;
  ownership: TaskOwnership;
  lost: unknown[];
  mcp: McpHarness;
}

async function startNode(
  name: string,
  pages: Record<string, { title: string; text: string; hold?: Promise<void> }>,
): Promise<Node> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on('error', () => undefined);
  const store = createPostgresRunStore({ pool, nodeId: name, clock });
  const lost: unknown[] = [];
  const ownership = await createTaskOwnership({
    connectionString: databaseUrl,
    pool,
    nodeId: name,
    url: `http://${name}.invalid`,
    clock,
    onLost: (e) => lost.push(e),
    graceMs: 0, // no database restart here: B may look for orphans the moment it started
  });
  // Only the stores are the cluster's here (no socket adapter, no task forwarding: not needed for runs).
  const cluster = {
    channel: (local: any) => local,
    services: (services: any) => services,
    control: (control: any) => control,
    artifactStore: createPostgresArtifactStore({ pool }),
  };
  const mcp = await startMcp({ pages, routes: { runStore: store }, server: { cluster } });
  return { name, pool, store, ownership, lost, mcp };
}

const held = gate();
const pages = {
  'https://one.test/': { title: 'One', text: 'page one' },
  'https://held.test/': { title: 'Held', text: 'page held', hold: held.promise },
};
const test = suite<{ a: Node; b: Node }>('cluster: MCP template runs on PostgreSQL');

test.before(async (ctx) => {
  ctx.b = await startNode('node-b', pages); // B starts first: it cannot have cached what A stores later
  ctx.a = await startNode('node-a', pages);
});

test.after(async (ctx) => {
  held.open();
  for (const node of [ctx.a, ctx.b]) {
    await node?.mcp.close().catch(() => undefined);
    await node?.ownership.close().catch(() => undefined);
    await node?.pool.end().catch(() => undefined);
  }
  await admin.end();
  await server.stop();
});

test('a run stored by A after B started: B lists it and reads it, through to its result', async ({ a, b }) => {
  assert.equal((await b.mcp.ok('list_task_runs', {})).total, 0);
  const done = await a.mcp.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls: ['https://one.test/'] },
    options: { mode: 'sync' },
  });
  assert.is(done.status, 'succeeded');
  await a.store.flush();
  const listed = await b.mcp.ok('list_task_runs', {});
  assert.equal([listed.total, listed.runs.map((r: any) => [r.runId, r.status])], [1, [[done.runId, 'succeeded']]]);
  const onB = await b.mcp.ok('get_task_run', { runId: done.runId });
  assert.equal([onB.status, onB.result], ['succeeded', done.result]);
  assert.equal((await b.mcp.ok('list_task_runs', { status: 'running' })).total, 0, 'filters run in PostgreSQL');
  // The run's result artifact: stored by A in PostgreSQL, read through B's get_artifact (B finds
  // the owning run in PostgreSQL too).
  assert.ok(onB.artifacts.length > 0);
  const artifact = await b.mcp.ok('get_artifact', { artifactId: onB.artifacts[0].artifactId });
  assert.equal([artifact.size, artifact.complete], [onB.artifacts[0].size, true]);
  assert.is(done.result.summary.total, 1);
  assert.equal(JSON.parse(Buffer.from(artifact.data, 'base64').toString('utf8')).summary, done.result.summary);
  const missing = await b.mcp.fail('get_task_run', { runId: 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
  assert.is(missing.errorCode, 'RUN_NOT_FOUND');
});

test('A dies mid-run: B marks the run canceled (RUN_CANCELED, node_lost) once, and a late write of A cannot undo it', async ({
  a,
  b,
}) => {
  const { runId } = await a.mcp.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls: ['https://held.test/'] },
    options: { mode: 'async' },
  });
  // The runId A handed back is already in PostgreSQL: B reads it at once (no RUN_NOT_FOUND window).
  assert.ok(['queued', 'running'].includes((await b.mcp.ok('get_task_run', { runId })).status));
  await eventually(
    async () => (await b.mcp.ok('get_task_run', { runId })).status === 'running',
    5000,
    'B to see the run running',
  );
  const runningOnB = await b.mcp.ok('list_task_runs', { status: 'running' });
  assert.equal(
    runningOnB.runs.map((r: any) => r.runId),
    [runId],
  );

  // A watcher on B (timers injected: ticks by hand). Nothing is orphaned while A is alive.
  const timers = { setInterval: () => 0, clearInterval: () => undefined };
  const log: any[] = [];
  const noTasks = { nodeGone: () => undefined, loadRemote: async () => undefined } as unknown as ClusterPlugins;
  const control = { adopt: async () => undefined } as unknown as ClusterControl;
  const watcher = startFailoverWatcher({
    ownership: b.ownership,
    plugins: noTasks,
    control,
    runs: b.store,
    intervalMs: 1000,
    log: (e) => log.push(e),
    timers,
  });
  await watcher.tick();
  assert.is((await b.mcp.ok('get_task_run', { runId })).status, 'running', 'A is alive: its run is left alone');

  // A "dies": its lock connection ends, as when its process is killed (a mere cut would be
  // ridden out: A reconnects and re-claims, see task-ownership.test.ts).
  await a.ownership.close();
  await watcher.tick();
  watcher.stop();
  const marked = await b.mcp.ok('get_task_run', { runId });
  assert.is(marked.status, 'canceled');
  assert.equal(
    [marked.error.errorCode, marked.error.details.reason, marked.error.details.nodeId],
    ['RUN_CANCELED', 'node_lost', 'node-a'],
  );
  assert.equal(marked.steps, [{ stepId: 'extract-1', status: 'skipped' }]);
  assert.ok(
    log.some((e) => e.event === 'mcp_runs_interrupted' && e.runs.includes(runId)),
    JSON.stringify(log),
  );
  // A second look (by any node) marks nothing more.
  assert.equal(await b.store.interruptOrphans(LIVE_NODES_SQL), []);

  // The zombie A finishes its run and writes "succeeded": the terminal row stays as B decided.
  held.open();
  const zombie = await a.mcp.routes.mcp.runs.waitForEnd(runId);
  assert.is(zombie.status, 'succeeded');
  await a.store.flush();
  const after = await b.mcp.ok('get_task_run', { runId });
  assert.equal([after.status, after.error.details.reason], ['canceled', 'node_lost']);
});

test('several nodes looking at once mark each orphaned run exactly once', async () => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  pool.on('error', () => undefined);
  const ghost = createPostgresRunStore({ pool, nodeId: 'node-ghost', clock }); // never took a node lock: not alive
  const ids = Array.from({ length: 10 }, (_, i) => `run_01ARZ3NDEKTSV4RRFFQ69G5FA${'ABCDEFGHJK'[i]}`);
  for (const runId of ids) {
    await ghost.put({
      runId,
      templateId: 'batch_extract_pages',
      templateVersion: '1.0.0',
      status: 'running',
      sessionId: 'sess',
      sessionCreated: true,
      trustLevel: 'open',
      mode: 'async',
      inputs: {},
      timeoutMs: 1000,
      concurrency: 1,
      createdAt: 1,
      updatedAt: 1,
      cancelRequested: false,
      progress: { totalSteps: 1, doneSteps: 0 },
      steps: [{ stepId: 's', status: 'running' }],
    } as never);
  }
  const stores = [0, 1, 2].map(() => createPostgresRunStore({ pool, nodeId: 'node-x', clock }));
  const results = await Promise.all(stores.map((s) => s.interruptOrphans(LIVE_NODES_SQL)));
  const all = results.flat();
  assert.equal([...all].sort(), [...ids].sort(), 'each once');
  await pool.end();
});

test.run();
