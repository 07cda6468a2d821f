// Idempotent actions across a failover, at the plugin channel (the one place every browser
// action of a task passes, whether the task actor spawned it or an MCP session ran it).
// Each browser_action frame of a turn gets a key that a replay of the same turn computes again:
// (taskId, turn = the user message id, step n; a retry of a frame keeps its step). Before the
// frame leaves, the key is looked up in mimo_actions:
// - new: recorded with the frame's actionId and sent;
// - answered before (the plugin's result was recorded by the node it reached, even if the owner
//   had died): not sent; the stored result is handed to the waiting action as if just received;
// - sent but unanswered (in flight when the owner died): sent again under the FIRST actionId,
//   which the plugin deduplicates (seed 001 §4.2); its answers are translated back to the new id.
// Frames outside a turn (MCP template runs) pass straight through.
import type pg from 'pg';
import type { NormalizedActionResult } from '../../transport/contracts/index.ts';
import type { PluginChannel } from '../scheduler/action-scheduler.ts';

export interface ActionLedger {
  /** `deliver` hands a stored result to this node's scheduler (handleResult). */
  wrapChannel(inner: PluginChannel, deliver: (clientId: string, result: NormalizedActionResult) => void): PluginChannel;
  /** A plugin's result reached this node: recorded once, and renamed if it answers a re-sent frame. */
  noteResult(result: NormalizedActionResult): NormalizedActionResult;
  /** A turn starts (or is replayed) on this node: its steps count from 0 again. */
  startTurn(taskId: string, turnId: string): void;
  endTask(taskId: string): void;
}

interface Frame {
  type?: string;
  id?: string;
  taskId?: string;
}

export function createActionLedger(options: { pool: pg.Pool; nodeId: string; clock: { now(): number }; log: (entry: object) => void }): ActionLedger {
  const { pool, nodeId, clock, log } = options;
  const turns = new Map<string, { turnId: string; step: number; keys: Map<string, string> }>();
  /** first actionId (what the plugin answers to) -> the live action's id on this node */
  const aliases = new Map<string, string>();

  return {
    startTurn(taskId, turnId) {
      turns.set(taskId, { turnId, step: 0, keys: new Map() });
    },
    endTask(taskId) {
      turns.delete(taskId);
    },

    noteResult(result) {
      void pool
        .query('UPDATE mimo_actions SET output = $2 WHERE action_id = $1 AND output IS NULL', [result.actionId, JSON.stringify(result)])
        .catch((error) => log({ event: 'action_ledger_write_failed', actionId: result.actionId, error: String(error) }));
      const alias = aliases.get(result.actionId);
      return alias ? { ...result, actionId: alias } : result;
    },

    wrapChannel(inner, deliver) {
      return {
        isConnected: (clientId) => inner.isConnected(clientId),
        emitWithAck(clientId, rawFrame, onAck) {
          const frame = rawFrame as Frame;
          const turn = frame.type === 'browser_action' && frame.taskId && frame.id ? turns.get(frame.taskId) : undefined;
          if (!turn) return inner.emitWithAck(clientId, rawFrame, onAck);
          if (!inner.isConnected(clientId)) return false;
          const actionId = frame.id!;
          let key = turn.keys.get(actionId);
          if (!key) {
            key = `${frame.taskId}:${turn.turnId}:${turn.step++}`;
            turn.keys.set(actionId, key);
          }
          const send = (out: unknown) => {
            if (!inner.emitWithAck(clientId, out, onAck)) log({ event: 'action_ledger_send_failed', actionId, clientId });
          };
          void (async () => {
            const inserted = await pool.query<{ action_id: string }>(
              `INSERT INTO mimo_actions (action_key, action_id, task_id, node_id, dispatched_at) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (action_key) DO NOTHING RETURNING action_id`,
              [key, actionId, frame.taskId, nodeId, clock.now()],
            );
            if (inserted.rows[0]) return send(rawFrame);
            const row = (await pool.query<{ action_id: string; output: NormalizedActionResult | null }>('SELECT action_id, output FROM mimo_actions WHERE action_key = $1', [key])).rows[0]!;
            if (row.action_id === actionId) return send(rawFrame); // a retry of this very frame
            if (row.output) {
              log({ event: 'action_replayed_from_ledger', taskId: frame.taskId, actionId: row.action_id, replayedAs: actionId });
              onAck({ ok: true });
              deliver(clientId, { ...row.output, actionId });
              return;
            }
            log({ event: 'action_resent_same_id', taskId: frame.taskId, actionId: row.action_id, replayedAs: actionId });
            aliases.set(row.action_id, actionId);
            send({ ...(rawFrame as object), id: row.action_id });
          })().catch((error: unknown) => {
            log({ event: 'action_ledger_unavailable', actionId, error: String(error) });
            send(rawFrame); // without the ledger the action still runs (not idempotent across a failover)
          });
          return true;
        },
      };
    },
  };
}
