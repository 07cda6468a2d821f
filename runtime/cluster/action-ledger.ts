// Idempotent actions across a failover. Each action of a turn gets a key that a replay of the
// same turn computes again: (taskId, turn = the user message id, step n). Before an action is
// sent, its key is looked up in mimo_actions:
// - settled before (the dead node had its result): the stored output is returned, nothing is sent;
// - dispatched but unsettled (in flight when the node died): it is sent again under the SAME
//   actionId as the first time, so the plugin deduplicates it (seed 001 §4.2);
// - new: recorded, sent, and its output stored once it settles.
// Actions outside a turn (MCP template runs) pass straight through.
import type pg from 'pg';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';

export interface ActionLedger {
  wrap(inner: ActionScheduler): ActionScheduler;
  /** A turn starts (or is replayed) on this node: its steps count from 0 again. */
  startTurn(taskId: string, turnId: string): void;
  endTask(taskId: string): void;
}

type Output = Awaited<ReturnType<ActionScheduler['run']>>;

export function createActionLedger(options: { pool: pg.Pool; nodeId: string; clock: { now(): number }; log: (entry: object) => void }): ActionLedger {
  const { pool, nodeId, clock, log } = options;
  const turns = new Map<string, { turnId: string; step: number }>();
  return {
    startTurn(taskId, turnId) {
      turns.set(taskId, { turnId, step: 0 });
    },
    endTask(taskId) {
      turns.delete(taskId);
    },
    wrap(inner) {
      return {
        ...inner,
        async run(request) {
          const turn = turns.get(request.taskId);
          if (!turn) return inner.run(request);
          const key = `${request.taskId}:${turn.turnId}:${turn.step++}`;
          const proposedId = request.actionId ?? `act-${key}`;
          const inserted = await pool.query<{ action_id: string }>(
            `INSERT INTO mimo_actions (action_key, action_id, task_id, node_id, dispatched_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (action_key) DO NOTHING RETURNING action_id`,
            [key, proposedId, request.taskId, nodeId, clock.now()],
          );
          let actionId = proposedId;
          if (!inserted.rows[0]) {
            const row = (await pool.query<{ action_id: string; output: Output | null }>('SELECT action_id, output FROM mimo_actions WHERE action_key = $1', [key])).rows[0]!;
            if (row.output) {
              log({ event: 'action_replayed_from_ledger', taskId: request.taskId, actionId: row.action_id, actionName: request.actionName });
              return row.output;
            }
            actionId = row.action_id;
            log({ event: 'action_resent_same_id', taskId: request.taskId, actionId, actionName: request.actionName });
          }
          const output = await inner.run({ ...request, actionId });
          await pool.query('UPDATE mimo_actions SET output = $2 WHERE action_key = $1', [key, JSON.stringify(output)]).catch((error) =>
            log({ event: 'action_ledger_write_failed', actionId, error: String(error) }),
          );
          return output;
        },
      };
    },
  };
}
