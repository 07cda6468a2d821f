// Task ownership by PostgreSQL advisory locks (the pattern of graphile-worker and pg-boss).
//
// Each node keeps ONE dedicated connection for its locks:
// - a node lock (NODE_LOCK_SPACE, its lock_key from mimo_nodes): the node is alive while it holds it;
// - a task lock (TASK_LOCK_SPACE, hashtext(taskId)) for each task whose actor tree it runs.
// Session-level advisory locks belong to the connection: when the node dies (kill -9, OOM, a cut
// cable), PostgreSQL ends its backend and every lock it held is free at once. No lease to expire.
// `mimo_task_owners` only says whom to ask about a task; the lock is the truth. A node that leaves
// on purpose writes `handoff:<node>` there before it unlocks (a handoff record: the next owner
// carries on without a "node stopped" note).
//
// When the lock connection drops (a database restart, a cut), ownership is unknown: the node is
// FENCED (owns() stays true so commands still queue locally, but `fenced()` tells the action
// channel and the store to hold everything of its tasks), reconnects with a capped backoff (see
// lock-connection.ts), takes its node lock again and re-claims each task: those another node took
// meanwhile are LOST (the caller drops its actor for them), the others are kept. For `graceMs`
// after its own reconnect, and after it started, a node adopts no orphan, so the other nodes can
// re-claim theirs first.
// Two task ids that hash alike share a lock (2^-32 per pair): they then run on the same node.
import pg from 'pg';
import { openLockConnection, type LockConnection } from './lock-connection.ts';

export const NODE_LOCK_SPACE = 0x6d6e6f64; // "mnod"
export const TASK_LOCK_SPACE = 0x6d74736b; // "mtsk"
export const HANDOFF_PREFIX = 'handoff:';

/**
 * A claim: `fresh` when this node did not hold the task before; `previous` is who last claimed it;
 * `generation` counts the task's fresh claims (0 for its first owner).
 */
export type Claim = { ok: false } | { ok: true; fresh: boolean; previous: string | null; generation: number };

export type OwnershipChange = { type: 'fenced' } | { type: 'restored'; kept: string[]; lost: string[] };

export interface TaskOwnership {
  readonly nodeId: string;
  /** Takes the task's lock if no live node holds it; true when this node owns the task now. */
  claim(taskId: string): Promise<boolean>;
  claimTask(taskId: string): Promise<Claim>;
  owns(taskId: string): boolean;
  /** The lock connection is down: this node must not act for its tasks. */
  fenced(): boolean;
  /** Shortly after this node's own reconnect: it adopts no orphans yet. */
  inGrace(): boolean;
  release(taskId: string): Promise<void>;
  /** Graceful leave: every owned task gets a handoff record and its lock is released. */
  handOffAll(): Promise<string[]>;
  owned(): string[];
  /** The live node that claimed the task last, if any (null: nobody alive owns it). */
  ownerOf(taskId: string): Promise<string | null>;
  /** Who last claimed the task, alive or not (`handoff:<node>` after a handoff). */
  recordedOwner(taskId: string): Promise<string | null>;
  /** Node ids whose node lock is held right now. */
  liveNodes(): Promise<string[]>;
  /**
   * Failover candidates: tasks whose owner is not alive (or handed them over) that were running,
   * in takeover, just created, or ongoing or in error with a message stored after the last answer.
   */
  orphans(): Promise<string[]>;
  onChange(listener: (change: OwnershipChange) => void): void;
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
  /** Fencing is impossible (the database stayed away past `maxOutageMs`, or the node id was taken). */
  onLost?: (error: unknown) => void;
  /** How long the database may stay away before the node gives up (default 60 s). */
  maxOutageMs?: number;
  /** No adoption of orphans this long after this node's own reconnect (default 3 s). */
  graceMs?: number;
}

export const LIVE_NODES_SQL = `
  SELECT n.node_id FROM mimo_nodes n
  JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.classid = ${NODE_LOCK_SPACE}::oid AND l.objid = n.lock_key::oid AND l.objsubid = 2`;

/**
 * A user message without an outcome: no answer and no failure note carries its traceId (messages
 * queued during a turn are stored before that turn's answer, so the order of rows alone does not
 * tell). A message stored without a traceId counts as unanswered when no answer follows it.
 */
const UNANSWERED_SQL = `
  SELECT 1 FROM mimo_messages u WHERE u.task_id = t.task_id AND u.role = 'user' AND CASE
    WHEN u.meta->>'traceId' IS NULL THEN u.seq > COALESCE((SELECT max(a.seq) FROM mimo_messages a WHERE a.task_id = t.task_id AND a.role = 'assistant'), 0)
    ELSE NOT EXISTS (SELECT 1 FROM mimo_messages a WHERE a.task_id = t.task_id AND a.meta->>'traceId' = u.meta->>'traceId'
      AND (a.role = 'assistant' OR (a.role = 'system' AND a.meta->>'outcome' IS NOT NULL)))
  END`;

export async function createTaskOwnership(options: TaskOwnershipOptions): Promise<TaskOwnership> {
  const { pool, nodeId, clock } = options;
  const owned = new Set<string>();
  const generations = new Map<string, number>();
  const listeners: Array<(change: OwnershipChange) => void> = [];
  const tell = (change: OwnershipChange) => listeners.forEach((l) => l(change));
  // A node that just started is in the grace too: it may start during or right after a database
  // restart, when the live nodes have not re-taken their locks yet and look dead.
  let graceUntil = clock.now() + (options.graceMs ?? 3_000);

  const row = await pool.query<{ lock_key: number }>(
    `INSERT INTO mimo_nodes (node_id, url, started_at) VALUES ($1, $2, $3)
     ON CONFLICT (node_id) DO UPDATE SET url = EXCLUDED.url, started_at = EXCLUDED.started_at RETURNING lock_key`,
    [nodeId, options.url, clock.now()],
  );
  const lockKey = row.rows[0]!.lock_key;

  async function reclaim(client: pg.Client): Promise<{ kept: string[]; lost: string[] }> {
    const kept: string[] = [];
    const lost: string[] = [];
    for (const taskId of [...owned]) {
      const got = (
        await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
          TASK_LOCK_SPACE,
          taskId,
        ])
      ).rows[0]!.ok;
      // Still ours only if nobody claimed it meanwhile (another node may have adopted and released it).
      const still =
        got &&
        (
          await client.query('UPDATE mimo_task_owners SET claimed_at = $3 WHERE task_id = $1 AND node_id = $2', [
            taskId,
            nodeId,
            clock.now(),
          ])
        ).rowCount === 1;
      if (still) kept.push(taskId);
      else {
        if (got) await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TASK_LOCK_SPACE, taskId]);
        // Still counted as owned (fenced: held) until the listeners marked it lost: a write or an
        // event waiting on it must never see it as just "not ours" (open) in between.
        lost.push(taskId);
      }
    }
    return { kept, lost };
  }

  const connection: LockConnection = await openLockConnection({
    connectionString: options.connectionString,
    nodeId,
    lockSql: ['SELECT pg_try_advisory_lock($1, $2) AS ok', [NODE_LOCK_SPACE, lockKey]],
    maxOutageMs: options.maxOutageMs ?? 60_000,
    onDown: () => tell({ type: 'fenced' }),
    onUp: async (client) => {
      const result = await reclaim(client);
      graceUntil = clock.now() + (options.graceMs ?? 3_000);
      tell({ type: 'restored', ...result });
      for (const taskId of result.lost) {
        owned.delete(taskId);
        generations.delete(taskId);
      }
    },
    onGiveUp: (error) => options.onLost?.(error),
  });

  async function claimTask(taskId: string): Promise<Claim> {
    return connection
      .serial(async (locks): Promise<Claim> => {
        if (owned.has(taskId))
          return { ok: true, fresh: false, previous: nodeId, generation: generations.get(taskId) ?? 0 };
        const result = await locks.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
          TASK_LOCK_SPACE,
          taskId,
        ]);
        if (!result.rows[0]!.ok) return { ok: false };
        try {
          const upsert = await pool.query<{ previous: string | null; generation: number }>(
            `WITH old AS (SELECT node_id FROM mimo_task_owners WHERE task_id = $1)
           INSERT INTO mimo_task_owners (task_id, node_id, claimed_at, generation) VALUES ($1, $2, $3, 0)
           ON CONFLICT (task_id) DO UPDATE SET node_id = EXCLUDED.node_id, claimed_at = EXCLUDED.claimed_at,
             generation = mimo_task_owners.generation + 1
           RETURNING (SELECT node_id FROM old) AS previous, generation`,
            [taskId, nodeId, clock.now()],
          );
          owned.add(taskId);
          const generation = upsert.rows[0]?.generation ?? 0;
          generations.set(taskId, generation);
          return { ok: true, fresh: true, previous: upsert.rows[0]?.previous ?? null, generation };
        } catch (error) {
          await locks
            .query('SELECT pg_advisory_unlock($1, hashtext($2))', [TASK_LOCK_SPACE, taskId])
            .catch(() => undefined);
          throw error;
        }
      })
      .catch(() => ({ ok: false }) as Claim);
  }

  return {
    nodeId,
    claimTask,
    claim: async (taskId) => (await claimTask(taskId)).ok,
    owns: (taskId) => owned.has(taskId),
    fenced: () => !connection.up(),
    inGrace: () => clock.now() < graceUntil,
    owned: () => [...owned],
    onChange: (listener) => void listeners.push(listener),
    release(taskId) {
      return connection
        .serial(async (locks) => {
          generations.delete(taskId);
          if (!owned.delete(taskId)) return;
          await locks.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TASK_LOCK_SPACE, taskId]);
        })
        .catch(() => undefined); // the connection died: the lock went with it
    },
    handOffAll() {
      return connection.serial(async (locks) => {
        const tasks = [...owned];
        await pool.query('UPDATE mimo_task_owners SET node_id = $2 WHERE task_id = ANY($1) AND node_id = $3', [
          tasks,
          HANDOFF_PREFIX + nodeId,
          nodeId,
        ]);
        for (const taskId of tasks) {
          owned.delete(taskId);
          generations.delete(taskId);
          await locks.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TASK_LOCK_SPACE, taskId]);
        }
        return tasks;
      });
    },
    async ownerOf(taskId) {
      if (owned.has(taskId)) return nodeId;
      const result = await pool.query<{ node_id: string }>(
        `SELECT o.node_id FROM mimo_task_owners o WHERE o.task_id = $1 AND o.node_id IN (${LIVE_NODES_SQL})`,
        [taskId],
      );
      return result.rows[0]?.node_id ?? null;
    },
    async recordedOwner(taskId) {
      return (
        (await pool.query<{ node_id: string }>('SELECT node_id FROM mimo_task_owners WHERE task_id = $1', [taskId]))
          .rows[0]?.node_id ?? null
      );
    },
    async liveNodes() {
      return (await pool.query<{ node_id: string }>(LIVE_NODES_SQL)).rows.map((r) => r.node_id);
    },
    async orphans() {
      const result = await pool.query<{ task_id: string }>(
        `SELECT t.task_id FROM mimo_tasks t LEFT JOIN mimo_task_owners o ON o.task_id = t.task_id
         WHERE (o.node_id IS NULL OR o.node_id = $1 OR o.node_id NOT IN (${LIVE_NODES_SQL}))
           AND (t.status IN ('running', 'takeover', 'created') OR (t.status IN ('ongoing', 'error') AND EXISTS (${UNANSWERED_SQL})))
         ORDER BY t.updated_at`,
        [nodeId],
      );
      return result.rows.map((r) => r.task_id).filter((id) => !owned.has(id));
    },
    async close() {
      owned.clear();
      generations.clear();
      await connection.close();
    },
  };
}
