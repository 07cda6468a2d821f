// Task ownership by PostgreSQL advisory locks (the pattern of graphile-worker and pg-boss).
//
// Each node keeps ONE dedicated connection for its locks:
// - a node lock (NODE_LOCK_SPACE, its lock_key from mimo_nodes): the node is alive while it holds it;
// - a task lock (TASK_LOCK_SPACE, hashtext(taskId)) for each task whose actor tree it runs.
// Session-level advisory locks belong to the connection: when the node dies (kill -9, OOM, a cut
// cable), PostgreSQL ends its backend and every lock it held is free at once. No lease to expire.
// `mimo_task_owners` only says whom to ask about a task; the lock is the truth.
// Two task ids that hash alike share a lock (2^-32 per pair): they then run on the same node.
import pg from 'pg';

export const NODE_LOCK_SPACE = 0x6d6e6f64; // "mnod"
export const TASK_LOCK_SPACE = 0x6d74736b; // "mtsk"

export interface TaskOwnership {
  readonly nodeId: string;
  /** Takes the task's lock if no live node holds it; true when this node owns the task now. */
  claim(taskId: string): Promise<boolean>;
  owns(taskId: string): boolean;
  release(taskId: string): Promise<void>;
  /** The live node that claimed the task last, if any (null: nobody alive owns it). */
  ownerOf(taskId: string): Promise<string | null>;
  /** Node ids whose node lock is held right now. */
  liveNodes(): Promise<string[]>;
  /** Tasks in running or takeover whose owner is not alive: failover candidates. */
  orphans(): Promise<string[]>;
  /** Ends the lock connection: every lock is released. */
  close(): Promise<void>;
}

export interface TaskOwnershipOptions {
  connectionString: string;
  /** Queries that need no lock (owners, orphans) go through the shared pool. */
  pool: pg.Pool;
  nodeId: string;
  url: string;
  clock: { now(): number };
  /** The lock connection died (the node can no longer prove it owns anything). */
  onLost?: (error: unknown) => void;
}

export const LIVE_NODES_SQL = `
  SELECT n.node_id FROM mimo_nodes n
  JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.classid = ${NODE_LOCK_SPACE}::oid AND l.objid = n.lock_key::oid AND l.objsubid = 2`;

export async function createTaskOwnership(options: TaskOwnershipOptions): Promise<TaskOwnership> {
  const { pool, nodeId, clock } = options;
  const locks = new pg.Client({ connectionString: options.connectionString, application_name: `mimo-locks:${nodeId}` });
  let closing = false;
  let lost = false;
  const loseOnce = (error: unknown) => {
    if (closing || lost) return;
    lost = true;
    options.onLost?.(error);
  };
  locks.on('error', loseOnce);
  locks.on('end', () => loseOnce(new Error('the lock connection ended')));
  await locks.connect();
  const row = await pool.query<{ lock_key: number }>(
    `INSERT INTO mimo_nodes (node_id, url, started_at) VALUES ($1, $2, $3)
     ON CONFLICT (node_id) DO UPDATE SET url = EXCLUDED.url, started_at = EXCLUDED.started_at RETURNING lock_key`,
    [nodeId, options.url, clock.now()],
  );
  const nodeLock = await locks.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [NODE_LOCK_SPACE, row.rows[0]!.lock_key]);
  if (!nodeLock.rows[0]!.ok) {
    await locks.end();
    throw new Error(`node id ${nodeId} is already in use by a live node (set a different MIMO_NODE_ID)`);
  }
  const owned = new Set<string>();
  // One lock query at a time on the lock connection, in call order.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const next = chain.then(job, job);
    chain = next.catch(() => undefined);
    return next;
  };

  return {
    nodeId,
    claim(taskId) {
      return serial(async () => {
        if (owned.has(taskId)) return true;
        const result = await locks.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [TASK_LOCK_SPACE, taskId]);
        if (!result.rows[0]!.ok) return false;
        owned.add(taskId);
        await pool.query(
          `INSERT INTO mimo_task_owners (task_id, node_id, claimed_at) VALUES ($1, $2, $3)
           ON CONFLICT (task_id) DO UPDATE SET node_id = EXCLUDED.node_id, claimed_at = EXCLUDED.claimed_at`,
          [taskId, nodeId, clock.now()],
        );
        return true;
      });
    },
    owns: (taskId) => owned.has(taskId),
    release(taskId) {
      return serial(async () => {
        if (!owned.delete(taskId)) return;
        await locks.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TASK_LOCK_SPACE, taskId]);
      });
    },
    async ownerOf(taskId) {
      if (owned.has(taskId)) return nodeId;
      const result = await pool.query<{ node_id: string }>(`SELECT o.node_id FROM mimo_task_owners o WHERE o.task_id = $1 AND o.node_id IN (${LIVE_NODES_SQL})`, [taskId]);
      return result.rows[0]?.node_id ?? null;
    },
    async liveNodes() {
      return (await pool.query<{ node_id: string }>(LIVE_NODES_SQL)).rows.map((r) => r.node_id);
    },
    async orphans() {
      const result = await pool.query<{ task_id: string }>(
        `SELECT t.task_id FROM mimo_tasks t LEFT JOIN mimo_task_owners o ON o.task_id = t.task_id
         WHERE t.status IN ('running', 'takeover') AND (o.node_id IS NULL OR o.node_id = $1 OR o.node_id NOT IN (${LIVE_NODES_SQL}))
         ORDER BY t.updated_at`,
        [nodeId],
      );
      return result.rows.map((r) => r.task_id).filter((id) => !owned.has(id));
    },
    async close() {
      closing = true;
      owned.clear();
      await chain;
      await locks.end().catch(() => undefined);
    },
  };
}
