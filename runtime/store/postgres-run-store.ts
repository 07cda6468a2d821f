// MCP template runs (seed 003 §4.3) in PostgreSQL for cluster mode: the same `RunStore` as the
// file one (runtime/mcp/runs/run-store.ts), one row per run. Writes of one run go in call order
// (keyed queue), so the last `put` is what stays, as with the file store.
import type pg from 'pg';
import { RUN_ID_PATTERN, type RunRecord, type RunStore } from '../mcp/runs/run-store.ts';
import { createKeyedQueue } from './keyed-queue.ts';

export function createPostgresRunStore({ pool }: { pool: pg.Pool }): RunStore {
  const queue = createKeyedQueue();
  const inFlight = new Set<Promise<unknown>>();
  return {
    async init() {
      const result = await pool.query<{ run_id: string; record: RunRecord }>('SELECT run_id, record FROM mimo_mcp_runs ORDER BY updated_at');
      const runs: RunRecord[] = [];
      const skipped: string[] = [];
      for (const row of result.rows) {
        if (row.record?.runId === row.run_id) runs.push(row.record);
        else skipped.push(row.run_id);
      }
      return { runs, skipped };
    },
    put(run) {
      if (!RUN_ID_PATTERN.test(run.runId)) return Promise.reject(new TypeError(`bad run id ${run.runId}`));
      const text = JSON.stringify(run);
      const job = queue.run(run.runId, async () => {
        await pool.query(
          'INSERT INTO mimo_mcp_runs (run_id, record, updated_at) VALUES ($1, $2, $3) ON CONFLICT (run_id) DO UPDATE SET record = EXCLUDED.record, updated_at = EXCLUDED.updated_at',
          [run.runId, text, run.updatedAt],
        );
      });
      const settled = job.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return job;
    },
    async flush() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
