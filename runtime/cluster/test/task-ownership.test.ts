// Task ownership on advisory locks: one owner at a time, and when the owner process is killed
// with SIGKILL its locks are free at once (PostgreSQL ends its backend), so another node claims
// the task within seconds.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { startPostgres } from '../../test-util/postgres-server.ts';
import { migrate } from '../../store/postgres-migrations.ts';
import { createTaskOwnership, type TaskOwnership } from '../task-ownership.ts';

const server = await startPostgres();
const databaseUrl = await server.createDatabase();
const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
pool.on('error', () => undefined);
await migrate(pool);
const clock = { now: () => Date.now() };
const node = (nodeId: string) =>
  createTaskOwnership({ connectionString: databaseUrl, pool, nodeId, url: `http://${nodeId}`, clock });

const test = suite<{ nodes: TaskOwnership[] }>('task ownership', { nodes: [] });
test.after.each(async (ctx) => {
  for (const n of ctx.nodes) await n.close();
  ctx.nodes = [];
});
test.after(async () => {
  await pool.end();
  await server.stop();
});

test('one owner at a time; the others know whom to ask; release hands it on', async (ctx) => {
  const a = await node('node-a');
  const b = await node('node-b');
  ctx.nodes.push(a, b);
  assert.equal((await a.liveNodes()).sort(), ['node-a', 'node-b']);
  assert.is(await a.claim('task-1'), true);
  assert.is(await a.claim('task-1'), true, 'claiming again is idempotent');
  assert.is(await b.claim('task-1'), false);
  assert.is(b.owns('task-1'), false);
  assert.is(await b.ownerOf('task-1'), 'node-a');
  // Racing claims: exactly one winner per task.
  const claims = await Promise.all([a, b, a, b].map((n, i) => n.claim(`task-x${i >> 1}`)));
  assert.is(claims[0]! !== claims[1]!, true);
  assert.is(claims[2]! !== claims[3]!, true);
  await a.release('task-1');
  assert.is(await b.claim('task-1'), true);
  assert.is(await a.ownerOf('task-1'), 'node-b');
});

test('a node id in use by a live node is refused', async (ctx) => {
  const a = await node('node-same');
  ctx.nodes.push(a);
  const error = await node('node-same').catch((e) => e);
  assert.match(String(error), /already in use/);
});

test('kill -9 of the owner: its locks are free within seconds and its running task is an orphan', async (ctx) => {
  await pool.query(
    `INSERT INTO mimo_tasks (task_id, title, status, created_at, updated_at, usage) VALUES ('task-k', 'k', 'running', 1, 1, '{}')`,
  );
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./ownership-child.ts', import.meta.url)),
      databaseUrl,
      'node-doomed',
      'task-k',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('claimed') && resolve());
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  const b = await node('node-survivor');
  ctx.nodes.push(b);
  assert.is(await b.claim('task-k'), false);
  assert.is(await b.ownerOf('task-k'), 'node-doomed');
  assert.equal(await b.orphans(), []);
  const killedAt = Date.now();
  child.kill('SIGKILL');
  // Real process death over a real socket: poll the database, bounded.
  let claimed = false;
  while (!claimed && Date.now() - killedAt < 5_000) {
    claimed = await b.claim('task-k');
    if (!claimed) await new Promise((r) => setTimeout(r, 25));
  }
  const tookMs = Date.now() - killedAt;
  assert.ok(claimed, 'the survivor claims the task');
  assert.ok(tookMs < 3_000, `took ${tookMs} ms`);
  assert.not.ok((await b.liveNodes()).includes('node-doomed'));
  assert.is(await b.ownerOf('task-k'), 'node-survivor');
});

test('orphans: running tasks whose owner is gone or never was, not those a live node holds', async (ctx) => {
  const a = await node('node-o1');
  const b = await node('node-o2');
  ctx.nodes.push(a, b);
  await pool.query(
    `INSERT INTO mimo_tasks (task_id, title, status, created_at, updated_at, usage) VALUES ('o-run', 'x', 'running', 1, 2, '{}'), ('o-idle', 'x', 'ongoing', 1, 3, '{}'), ('o-held', 'x', 'takeover', 1, 4, '{}')`,
  );
  assert.is(await a.claim('o-held'), true);
  const orphans = await b.orphans();
  assert.ok(orphans.includes('o-run'));
  assert.not.ok(orphans.includes('o-idle'));
  assert.not.ok(orphans.includes('o-held'));
});

test('orphans: an ongoing task whose messages queued during its last turn were never answered', async (ctx) => {
  const b = await node('node-o3');
  ctx.nodes.push(b);
  await pool.query(
    `INSERT INTO mimo_tasks (task_id, title, status, created_at, updated_at, usage) VALUES ('q-queued', 'x', 'ongoing', 1, 2, '{}'), ('q-done', 'x', 'ongoing', 1, 3, '{}')`,
  );
  // m2 and m3 were stored while m1's turn ran, so before its answer; the owner died before running them.
  const rows = (task: string, answered: string[]) =>
    [
      ['m1', 'user', 'trace-m1'],
      ['m2', 'user', 'trace-m2'],
      ['m3', 'user', 'trace-m3'],
      ['a1', 'assistant', 'trace-m1'],
      ...answered.map((t, i) => [`a${i + 2}`, i === 0 ? 'assistant' : 'system', t]),
    ].map(([id, role, trace], i) =>
      pool.query(`INSERT INTO mimo_messages (task_id, id, role, content, ts, meta) VALUES ($1, $2, $3, 'x', $4, $5)`, [
        task,
        id,
        role,
        i,
        JSON.stringify({ traceId: trace, ...(role === 'system' ? { outcome: 'error' } : {}) }),
      ]),
    );
  for (const q of rows('q-queued', [])) await q;
  for (const q of rows('q-done', ['trace-m2', 'trace-m3'])) await q; // m3 ended by a failure note
  const orphans = await b.orphans();
  assert.ok(orphans.includes('q-queued'), 'its queued messages are unanswered');
  assert.not.ok(orphans.includes('q-done'));
});

test('a cut lock connection fences the node, which reconnects and keeps the tasks nobody took', async (ctx) => {
  const changes: string[] = [];
  const a = await createTaskOwnership({
    connectionString: databaseUrl,
    pool,
    nodeId: 'node-cut',
    url: 'http://cut',
    clock,
    graceMs: 50,
  });
  a.onChange((c) =>
    changes.push(c.type === 'fenced' ? 'fenced' : `restored kept=${c.kept.join(',')} lost=${c.lost.join(',')}`),
  );
  const b = await node('node-watching');
  ctx.nodes.push(a, b);
  assert.is(await a.claim('task-keep'), true);
  assert.is(await a.claim('task-taken'), true);
  await pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mimo-locks:node-cut'`,
  );
  const deadline = Date.now() + 5_000;
  while (!a.fenced() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.ok(a.fenced(), 'fenced at once');
  assert.is(a.owns('task-keep'), true, 'still its own while fenced (commands queue here)');
  // While A is away, B takes one of its tasks (A's locks went with the connection).
  assert.is(await b.claim('task-taken'), true);
  while (changes.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(changes, ['fenced', 'restored kept=task-keep lost=task-taken']);
  assert.not.ok(a.fenced());
  assert.is(a.owns('task-taken'), false);
  assert.is(await b.claim('task-keep'), false, 'A holds task-keep again');
  assert.ok((await b.liveNodes()).includes('node-cut'), 'A is alive again');
});

test('a database that stays away past maxOutageMs: the node gives up, saying why (it can no longer fence)', async () => {
  const url = await server.createDatabase();
  const own = new pg.Pool({ connectionString: url, max: 2 });
  own.on('error', () => undefined);
  await migrate(own);
  const dbName = new URL(url).pathname.slice(1);
  let lost: (Error & { code?: string }) | undefined;
  const a = await createTaskOwnership({
    connectionString: url,
    pool: own,
    nodeId: 'node-stranded',
    url: 'http://x',
    clock,
    maxOutageMs: 1_000,
    onLost: (e) => (lost = e as Error),
  });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mimo-locks:node-stranded'`,
  );
  const deadline = Date.now() + 8_000;
  while (!lost && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
  await admin.end();
  assert.is(lost?.code, 'CLUSTER_DATABASE_UNREACHABLE');
  assert.match(String(lost?.message), /can no longer prove which tasks it owns/);
  assert.ok(a.fenced());
  await a.close();
  await own.end();
});

test('handoff: every task released with a handoff record; a running one is an orphan at once', async (ctx) => {
  const a = await node('node-leaving');
  const b = await node('node-staying');
  ctx.nodes.push(a, b);
  await pool.query(
    `INSERT INTO mimo_tasks (task_id, title, status, created_at, updated_at, usage) VALUES ('h-run', 'x', 'running', 1, 5, '{}')`,
  );
  assert.is(await a.claim('h-run'), true);
  assert.not.ok((await b.orphans()).includes('h-run'));
  assert.equal(await a.handOffAll(), ['h-run']);
  assert.is(await a.recordedOwner('h-run'), 'handoff:node-leaving');
  assert.ok((await b.orphans()).includes('h-run'), 'A is still alive, yet its handed-over task is free');
  const claim = await b.claimTask('h-run');
  // The task's second owner: generation 1 (its events are numbered above every one of node-leaving's).
  assert.equal(claim, { ok: true, fresh: true, previous: 'handoff:node-leaving', generation: 1 });
  assert.equal(await b.claimTask('h-run'), { ok: true, fresh: false, previous: 'node-staying', generation: 1 });
  await b.release('h-run');
  assert.equal(await b.claimTask('h-run'), { ok: true, fresh: true, previous: 'node-staying', generation: 2 });
});

test.run();
