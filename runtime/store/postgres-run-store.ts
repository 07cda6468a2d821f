// MCP template runs (seed 003 §4.3) in PostgreSQL for cluster mode: the same `RunStore` as the
// file one (runtime/mcp/runs/run-store.ts), one row per run, with the node that runs it and its
// status as columns (migration 2). Writes of one run go in call order (keyed queue), so the last
// `put` is what stays, as with the file store.
// - get/list read the table, so every node answers get_task_run / list_task_runs for runs any
//   node stored, also after it started.
// - A terminal row is final: a late write of a node cannot undo what another node decided.
// - interruptOrphans(): runs of nodes that are not alive (their node lock is gone) become
//   canceled with RUN_CANCELED reason node_lost, each by exactly one node (FOR UPDATE SKIP LOCKED).
//   A run is not resumed elsewhere: its tabs were in the dead node's browser session, and its
//   steps (form fills, clicks) are not idempotent, so replaying them could act twice.
import type pg from 'pg';
import { RUN_ID_PATTERN, type RunListFilter, type RunRecord, type RunStore } from '../mcp/runs/run-store.ts';
import { markInterrupted } from '../mcp/runs/run-view.ts';
import { createInFlight } from './in-flight.ts';
import { createKeyedQueue } from './keyed-queue.ts';
import { inTransaction } from './postgres-transaction.ts';

const LIVE = `('queued', 'running')`;

export interface PostgresRunStore extends RunStore {
  get(runId: string): Promise<RunRecord | undefined>;
  list(filter: RunListFilter): Promise<{ total: number; runs: RunRecord[] }>;
  /**
   * Marks the unfinished runs of nodes that are not alive as interrupted (node_lost); returns
   * their ids. `liveNodesSql` selects the node_id of every live node.
   */
  interruptOrphans(liveNodesSql: string): Promise<string[]>;
}

export function createPostgresRunStore({
  pool,
  nodeId = null,
  clock = { now: () => Date.now() },
}: {
  pool: pg.Pool;
  nodeId?: string | null;
  clock?: { now(): number };
}): PostgresRunStore {
  const queue = createKeyedQueue();
  const inFlight = createInFlight();
  const valid = (row: { run_id: string; record: RunRecord }) => row.record?.runId === row.run_id;

  return {
    async init() {
      // Shared store: only what a previous life of this node id left unfinished is ours to mark
      // (the manager marks it interrupted by a restart); other nodes' runs are read on demand.
      const result =
        nodeId === null
          ? await pool.query<{ run_id: string; record: RunRecord }>(
              'SELECT run_id, record FROM mimo_mcp_runs ORDER BY updated_at',
            )
          : await pool.query<{ run_id: string; record: RunRecord }>(
              `SELECT run_id, record FROM mimo_mcp_runs WHERE node_id = $1 AND status IN ${LIVE} ORDER BY updated_at`,
              [nodeId],
            );
      const runs: RunRecord[] = [];
      const skipped: string[] = [];
      for (const row of result.rows) {
        if (valid(row)) runs.push(row.record);
        else skipped.push(row.run_id);
      }
      return { runs, skipped };
    },
    put(run) {
      if (!RUN_ID_PATTERN.test(run.runId)) return Promise.reject(new TypeError(`bad run id ${run.runId}`));
      const text = JSON.stringify(run);
      const job = queue.run(run.runId, async () => {
        await pool.query(
          `INSERT INTO mimo_mcp_runs (run_id, record, updated_at, node_id, status, template_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (run_id) DO UPDATE SET record = EXCLUDED.record, updated_at = EXCLUDED.updated_at, status = EXCLUDED.status,
             node_id = EXCLUDED.node_id, template_id = EXCLUDED.template_id, created_at = EXCLUDED.created_at
           WHERE mimo_mcp_runs.status IS NULL OR mimo_mcp_runs.status IN ${LIVE}`,
          [run.runId, text, run.updatedAt, nodeId, run.status, run.templateId, run.createdAt],
        );
      });
      return inFlight.track(job);
    },
    async flush() {
      await inFlight.drain();
    },
    async get(runId) {
      const row = (
        await pool.query<{ run_id: string; record: RunRecord }>(
          'SELECT run_id, record FROM mimo_mcp_runs WHERE run_id = $1',
          [runId],
        )
      ).rows[0];
      return row && valid(row) ? row.record : undefined;
    },
    async list(filter) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.status) where.push(`status = $${params.push(filter.status)}`);
      if (filter.templateId) where.push(`template_id = $${params.push(filter.templateId)}`);
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = Number(
        (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM mimo_mcp_runs ${clause}`, params)).rows[0]!.n,
      );
      const limit = filter.limit ?? 20;
      const offset = filter.offset ?? 0;
      const rows = await pool.query<{ run_id: string; record: RunRecord }>(
        `SELECT run_id, record FROM mimo_mcp_runs ${clause} ORDER BY created_at DESC, run_id DESC LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`,
        params,
      );
      return { total, runs: rows.rows.filter(valid).map((r) => r.record) };
    },
    interruptOrphans(liveNodesSql) {
      return inTransaction(pool, async (client) => {
        const rows = await client.query<{ run_id: string; record: RunRecord; node_id: string | null }>(
          `SELECT run_id, record, node_id FROM mimo_mcp_runs
           WHERE status IN ${LIVE} AND (node_id IS NULL OR node_id NOT IN (${liveNodesSql}))
           FOR UPDATE SKIP LOCKED`,
        );
        const now = clock.now();
        const marked: string[] = [];
        for (const row of rows.rows) {
          if (!valid(row)) continue;
          const run = row.record;
          markInterrupted(run, now, { nodeId: row.node_id });
          await client.query('UPDATE mimo_mcp_runs SET record = $2, updated_at = $3, status = $4 WHERE run_id = $1', [
            row.run_id,
            JSON.stringify(run),
            now,
            run.status,
          ]);
          marked.push(row.run_id);
        }
        return marked;
      });
    },
  };
}
