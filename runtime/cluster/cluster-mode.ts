// Cluster mode: `MIMO_DATABASE_URL=postgres://...` puts a node on a shared PostgreSQL.
// - The task store and the MCP run store are the PostgreSQL ones (migrations applied at start),
//   so any node serves any task's history and any run.
// - Namespace `/mimo` gets the LISTEN/NOTIFY adapter (ordered-postgres-adapter.ts): rooms and
//   broadcasts (task events, the extension list, snapshots) reach sockets on every node.
// - Without the variable nothing here runs: one process, lowdb files, as before.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { RunStore } from '../mcp/runs/run-store.ts';
import { createPostgresRunStore } from '../store/postgres-run-store.ts';
import { createPostgresTaskStore } from '../store/postgres-task-store.ts';
import { migrate } from '../store/postgres-migrations.ts';
import type { TaskStore } from '../store/task-types.ts';
import type { Namespace } from '../../transport/server/index.ts';
import { createOrderedPostgresPubSub, type OrderedPubSub } from './ordered-postgres-adapter.ts';

export interface ClusterConfig {
  databaseUrl: string;
  nodeId: string;
  poolSize: number;
}

export type ClusterConfigResult = { ok: true; config: ClusterConfig | null } | { ok: false; errors: string[] };

/** Reads MIMO_DATABASE_URL, MIMO_NODE_ID, MIMO_DATABASE_POOL_SIZE; null config: embedded mode. */
export function readClusterConfig(env: Record<string, string | undefined>): ClusterConfigResult {
  const databaseUrl = env.MIMO_DATABASE_URL;
  if (!databaseUrl) return { ok: true, config: null };
  const errors: string[] = [];
  try {
    const url = new URL(databaseUrl);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') errors.push(`MIMO_DATABASE_URL must be a postgres:// URL, got "${url.protocol}//..."`);
  } catch {
    errors.push('MIMO_DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database)');
  }
  const poolText = env.MIMO_DATABASE_POOL_SIZE ?? '10';
  const poolSize = Number(poolText);
  if (!/^\d+$/.test(poolText) || poolSize < 2 || poolSize > 100) errors.push(`MIMO_DATABASE_POOL_SIZE must be 2-100, got "${poolText}"`);
  const nodeId = env.MIMO_NODE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(nodeId)) errors.push(`MIMO_NODE_ID must be 1-64 of [A-Za-z0-9._-], got "${nodeId}"`);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, config: { databaseUrl, nodeId, poolSize } };
}

export interface ClusterNode {
  config: ClusterConfig;
  pool: pg.Pool;
  taskStore: TaskStore;
  runStore: RunStore;
  /** Puts the namespace on the cross-node adapter; resolves once it listens. */
  attachNamespace(nsp: Namespace): Promise<void>;
  close(): Promise<void>;
}

export async function startClusterNode(config: ClusterConfig, deps: { clock: { now(): number }; log: (entry: object) => void }): Promise<ClusterNode> {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolSize });
  // An idle client's error (the server restarted, a network cut) must not kill the node.
  pool.on('error', (error) => deps.log({ event: 'database_pool_error', error: String(error) }));
  const { applied } = await migrate(pool);
  if (applied.length > 0) deps.log({ event: 'database_migrated', versions: applied });
  const taskStore = createPostgresTaskStore({ pool, clock: deps.clock, migrate: false });
  const runStore = createPostgresRunStore({ pool });
  let pubsub: OrderedPubSub | undefined;
  return {
    config,
    pool,
    taskStore,
    runStore,
    async attachNamespace(nsp) {
      pubsub ??= createOrderedPostgresPubSub({ connectionString: config.databaseUrl, onError: (error) => deps.log({ event: 'socket_adapter_error', error: String(error) }) });
      await nsp.setAdapter((n) => pubsub!.adapterFor(n));
      await pubsub.ready();
    },
    async close() {
      await pubsub?.close();
      await runStore.flush();
      await pool.end();
    },
  };
}
