// The shared TaskStore behaviour (task-store-behaviour.ts, also run by the file and memory
// stores) against the PostgreSQL store, on a throwaway server (runtime/test-util/postgres-server.ts).
// Each case gets its own schema; writes are broken on the database side by a trigger.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { startPostgres } from '../../test-util/postgres-server.ts';
import { migrate, MIGRATIONS } from '../postgres-migrations.ts';
import { createPostgresTaskStore } from '../postgres-task-store.ts';
import { defineTaskStoreBehaviour } from './task-store-behaviour.ts';
import { T0 } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const server = await startPostgres();
const databaseUrl = await server.createDatabase();
const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
admin.on('error', () => undefined);
let schemas = 0;

async function freshSchema(): Promise<{ schema: string; pool: () => pg.Pool }> {
  const schema = `s${schemas++}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const pool = () => {
    const p = new pg.Pool({ connectionString: databaseUrl, max: 4, options: `-c search_path=${schema}` });
    p.on('error', () => undefined); // an idle client told of the server's shutdown at the end
    return p;
  };
  return { schema, pool };
}

defineTaskStoreBehaviour('postgres task store', async (clock) => {
  const { schema, pool } = await freshSchema();
  const store = createPostgresTaskStore({ pool: pool(), clock, ownsPool: true });
  await store.init();
  // Test-only: a trigger that fails writes of the tasks listed in `broken`, as a full disk would.
  await admin.query(`
    CREATE TABLE ${schema}.broken (task_id text PRIMARY KEY);
    CREATE FUNCTION ${schema}.fail_broken() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM ${schema}.broken WHERE task_id = NEW.task_id) THEN RAISE EXCEPTION 'simulated write failure'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER fail_tasks BEFORE INSERT OR UPDATE ON ${schema}.mimo_tasks FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_broken();
    CREATE TRIGGER fail_messages BEFORE INSERT OR UPDATE ON ${schema}.mimo_messages FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_broken();
  `);
  return {
    clock,
    store,
    reopen: () => createPostgresTaskStore({ pool: pool(), clock, ownsPool: true }),
    breakWrites: async (taskId) =>
      void (await admin.query(`INSERT INTO ${schema}.broken VALUES ($1) ON CONFLICT DO NOTHING`, [taskId])),
    healWrites: async (taskId) => void (await admin.query(`DELETE FROM ${schema}.broken WHERE task_id = $1`, [taskId])),
    cleanup: async () => void (await admin.query(`DROP SCHEMA ${schema} CASCADE`)),
  };
});

const cluster = suite('postgres task store: several nodes, one database');

cluster.after(async () => {
  await admin.end();
  await server.stop();
});

cluster('migrations run once even when nodes start together', async () => {
  const { pool } = await freshSchema();
  const pools = [pool(), pool(), pool()];
  const results = await Promise.all(pools.map((p) => migrate(p)));
  assert.equal(
    results.map((r) => r.applied).flat(),
    MIGRATIONS.map((m) => m.version),
  );
  const rows = await pools[0]!.query('SELECT version FROM mimo_schema_migrations ORDER BY version');
  assert.equal(
    rows.rows.map((r) => r.version),
    MIGRATIONS.map((m) => m.version),
  );
  await Promise.all(pools.map((p) => p.end()));
});

cluster('two stores on one database see each other: any node serves any history', async () => {
  const { pool } = await freshSchema();
  const clock = createTestClock(T0);
  const a = createPostgresTaskStore({ pool: pool(), clock, ownsPool: true });
  const b = createPostgresTaskStore({ pool: pool(), clock, ownsPool: true });
  await a.createTaskIfAbsent({ taskId: 'shared', title: 'on node A' });
  const appended = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).appendMessage('shared', { id: `m${i}`, role: 'user', content: `c${i}`, timestamp: i }),
    ),
  );
  assert.ok(appended.every((r) => r.appended));
  const fromA = await a.listMessages('shared');
  assert.equal(
    (await b.listMessages('shared')).map((m) => m.id),
    fromA.map((m) => m.id),
  );
  assert.is(new Set(fromA.map((m) => m.id)).size, 20);
  // Idempotency by message id holds across nodes.
  const again = await a.appendMessage('shared', { id: 'm1', role: 'user', content: 'c1', timestamp: 1 });
  assert.is(again.appended, false);
  const conflict = await b
    .appendMessage('shared', { id: 'm1', role: 'user', content: 'other', timestamp: 1 })
    .catch((e) => e);
  assert.is(conflict.code, 'CONFLICT');
  assert.equal((await b.getTask('shared'))?.title, 'on node A');
  await a.close();
  await b.close();
});

cluster('a database that is down: INTERNAL, retryable, and no crash', async () => {
  const clock = createTestClock(T0);
  const store = createPostgresTaskStore({
    pool: new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 }),
    clock,
    ownsPool: true,
  });
  const error = await store.getTask('t1').catch((e) => e);
  assert.is(error.code, 'INTERNAL');
  assert.is(error.details.retryable, true);
  await store.close();
});

cluster.run();
