// Idempotent actions across a failover, at the plugin channel (the one place every browser
// action of a task passes, whether the task actor spawned it or an MCP session ran it).
// Each browser_action frame of a turn gets a key that a replay of the same turn computes again:
// (taskId, the turn's traceId (one per user message, kept with it in the store), the action's
// name, its count of that name in the turn; a retry of a frame keeps its key). Counting by name
// keeps the key stable when page preparations and steps interleave differently on a replay.
// Before the frame leaves, the key is looked up in mimo_actions:
// - new: recorded with the frame's actionId and sent;
// - answered before (the plugin's result was recorded by the node it reached, even if the owner
//   had died): not sent; the stored result is handed to the waiting action as if just received;
// - sent but unanswered (in flight when the owner died): sent again under the FIRST actionId,
//   which the plugin deduplicates (seed 001 §4.2); its answers are translated back to the new id.
// Fencing (task-fence.ts): a frame of a task whose ownership is unknown waits (held) before it is
// keyed, and is dropped if the task was lost. Frames without a traceId pass straight through.
import type pg from 'pg';
import type { NormalizedActionResult } from '../../transport/contracts/index.ts';
import type { PluginChannel } from '../scheduler/action-scheduler.ts';
import { withDbRetry } from './db-retry.ts';
import type { TaskFence } from './task-fence.ts';
import type { Clock } from '../clock/index.ts';

export interface ActionLedger {
  /** `deliver` hands a stored result to this node's scheduler (handleResult). */
  wrapChannel(inner: PluginChannel, deliver: (clientId: string, result: NormalizedActionResult) => void): PluginChannel;
  /** A plugin's result reached this node: recorded once, and renamed if it answers a re-sent frame. */
  noteResult(result: NormalizedActionResult): NormalizedActionResult;
  endTask(taskId: string): void;
  /** Actions this node sent for the task that have no result yet. */
  inFlight(taskId?: string): number;
}

interface Frame {
  type?: string;
  id?: string;
  taskId?: string;
  traceId?: string;
  timeoutMs?: number;
  action?: Record<string, unknown>;
}

const TURNS_KEPT = 16;

export function createActionLedger(options: {
  pool: pg.Pool;
  nodeId: string;
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** While a frame is held (fenced, or the ledger's database away) its ack wait is restarted this often; default 500 ms. */
  holdTickMs?: number;
  log: (entry: object) => void;
  fence?: TaskFence;
}): ActionLedger {
  const { pool, nodeId, clock, log, fence } = options;
  /** taskId -> traceId -> counts by action name and the key of each actionId */
  const turns = new Map<string, Map<string, { counts: Map<string, number>; keys: Map<string, string> }>>();
  /** first actionId (what the plugin answers to) -> the live action's id on this node */
  const aliases = new Map<string, string>();
  /** wire actionId -> its task and until when it can be answered, sent by this node and not answered yet */
  const pending = new Map<string, { taskId: string; until: number }>();
  /** Past its own execution timeout (the frame's timeoutMs, else 2 min) and a margin an action has failed. */
  const untilOf = (frame: Frame) =>
    clock.now() + (typeof frame.timeoutMs === 'number' ? frame.timeoutMs : 120_000) + 5_000;

  function keyOf(frame: Frame): string {
    let byTrace = turns.get(frame.taskId!);
    if (!byTrace) turns.set(frame.taskId!, (byTrace = new Map()));
    let turn = byTrace.get(frame.traceId!);
    if (!turn) {
      byTrace.set(frame.traceId!, (turn = { counts: new Map(), keys: new Map() }));
      if (byTrace.size > TURNS_KEPT) byTrace.delete(byTrace.keys().next().value!);
    }
    const known = turn.keys.get(frame.id!);
    if (known) return known;
    const name = Object.keys(frame.action ?? {})[0] ?? 'action';
    const n = turn.counts.get(name) ?? 0;
    turn.counts.set(name, n + 1);
    const key = `${frame.taskId}:${frame.traceId}:${name}:${n}`;
    turn.keys.set(frame.id!, key);
    return key;
  }

  return {
    endTask(taskId) {
      turns.delete(taskId);
      for (const [id, entry] of pending) if (entry.taskId === taskId) pending.delete(id);
    },
    inFlight(taskId) {
      let n = 0;
      for (const [id, entry] of pending) {
        if (clock.now() > entry.until) pending.delete(id);
        else if (!taskId || entry.taskId === taskId) n++;
      }
      return n;
    },

    noteResult(result) {
      pending.delete(result.actionId);
      void withDbRetry(() =>
        pool.query('UPDATE mimo_actions SET output = $2 WHERE action_id = $1 AND output IS NULL', [
          result.actionId,
          JSON.stringify(result),
        ]),
      ).catch((error) => log({ event: 'action_ledger_write_failed', actionId: result.actionId, error: String(error) }));
      const alias = aliases.get(result.actionId);
      return alias ? { ...result, actionId: alias } : result;
    },

    wrapChannel(inner, deliver) {
      return {
        isConnected: (clientId) => inner.isConnected(clientId),
        emitWithAck(clientId, rawFrame, onAck, onHeldFrameSent) {
          const frame = rawFrame as Frame;
          const keyed = frame.type === 'browser_action' && !!frame.taskId && !!frame.id && !!frame.traceId;
          if (!keyed) return inner.emitWithAck(clientId, rawFrame, onAck, onHeldFrameSent);
          if (!inner.isConnected(clientId)) return false;
          const taskId = frame.taskId!;
          const actionId = frame.id!;
          // Held frames have not left: their T_ack must not run out meanwhile (it counts from the
          // real send), so the wait is restarted until they go or the action stops waiting.
          let holding: unknown;
          const hold = () => {
            holding = clock.setTimeout(() => {
              if (onHeldFrameSent?.()) hold();
            }, options.holdTickMs ?? 500);
          };
          hold();
          const send = (out: Frame) => {
            clock.clearTimeout(holding);
            if (fence && fence.state(taskId) !== 'open')
              return log({ event: 'action_fenced', taskId, actionId: out.id });
            pending.set(out.id!, { taskId, until: untilOf(out) });
            if (!inner.emitWithAck(clientId, out, onAck, onHeldFrameSent))
              log({ event: 'action_ledger_send_failed', actionId, clientId });
            // Held behind the fence and the ledger write: T_ack starts now (h22a: a missed ack is not resent).
            else onHeldFrameSent?.();
          };
          void (async () => {
            await fence?.gate(taskId);
            const key = keyOf(frame);
            const row = await withDbRetry(
              async () => {
                const inserted = await pool.query<{ action_id: string }>(
                  `INSERT INTO mimo_actions (action_key, action_id, task_id, node_id, dispatched_at) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (action_key) DO NOTHING RETURNING action_id`,
                  [key, actionId, taskId, nodeId, clock.now()],
                );
                if (inserted.rows[0]) return { action_id: actionId, output: null, fresh: true };
                const found = (
                  await pool.query<{ action_id: string; output: NormalizedActionResult | null }>(
                    'SELECT action_id, output FROM mimo_actions WHERE action_key = $1',
                    [key],
                  )
                ).rows[0]!;
                return { ...found, fresh: false };
              },
              fence ? { gate: () => fence.gate(taskId) } : {},
            );
            if (row.fresh || row.action_id === actionId) return send(frame); // new, or a retry of this very frame
            if (row.output) {
              clock.clearTimeout(holding);
              log({ event: 'action_replayed_from_ledger', taskId, actionId: row.action_id, replayedAs: actionId });
              onAck({ ok: true });
              deliver(clientId, { ...row.output, actionId });
              return;
            }
            log({ event: 'action_resent_same_id', taskId, actionId: row.action_id, replayedAs: actionId });
            aliases.set(row.action_id, actionId);
            send({ ...frame, id: row.action_id });
          })().catch((error: unknown) => {
            clock.clearTimeout(holding);
            // Lost to another node, or the ledger stayed away past the retry: the action is not
            // sent (sending it unrecorded could run it twice); its ack timeout settles it here.
            log({
              event: 'action_not_sent',
              taskId,
              actionId,
              code: (error as { code?: string }).code,
              error: String(error),
            });
          });
          return true;
        },
      };
    },
  };
}
