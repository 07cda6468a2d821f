// The frontend events of a node's tasks follow its fencing (task-fence.ts), as its actions and
// writes do. While the node cannot prove it owns a task (the database is away) another node may
// take the task over and run its turn again; what this node's actor goes on telling meanwhile (a
// streamed answer, a step) would reach the clients on this node as if it were the task's, after
// the new owner's takeover note. So a held task's events are kept here, each with the seq it took
// when it happened: sent in order once the node owns the task again, dropped if it lost it. A lost
// task's events never leave the node. A node that is leaving counts as owning: the actions that
// settle before the handoff are told.
import type { FrontendEvent } from '../../transport/contracts/index.ts';
import type { Clock } from '../clock/index.ts';
import type { FrontendEventInput, FrontendEventSink } from '../socket/frontend-events.ts';
import type { TaskFence } from './task-fence.ts';

export interface HeldEvents {
  /** FrontendEventSink.toTask under the fence: sent, held or (a lost task) built and dropped. */
  toTask(taskId: string, event: FrontendEventInput, traceId?: string, seq?: number): FrontendEvent;
  /** An envelope built but not sent yet (a replay to a subscriber leaves it out: it comes live). */
  isHeld(envelope: FrontendEvent): boolean;
  /** Events held now (all tasks). */
  heldCount(): number;
}

export function createHeldEvents(deps: {
  fence: TaskFence;
  sink: FrontendEventSink;
  clock: Pick<Clock, 'setTimeout'>;
  /** While anything is held it is looked at again this often (a reconnect may end without a fence change); default 500 ms. */
  recheckMs?: number;
}): HeldEvents {
  const { fence, sink } = deps;
  const held = new Map<string, FrontendEvent[]>();
  const heldIds = new Set<string>();
  let rechecking = false;

  /** Sends or drops what a task holds, as its fence says now; true when nothing is held any more. */
  function review(taskId: string): boolean {
    const state = fence.state(taskId, 'open');
    if (state === 'held') return false;
    const queue = held.get(taskId) ?? [];
    held.delete(taskId);
    for (const envelope of queue) {
      heldIds.delete(envelope.id);
      if (state === 'open') sink.send(envelope);
    }
    return true;
  }
  const reviewAll = () => {
    for (const taskId of [...held.keys()]) review(taskId);
  };
  function recheck(): void {
    if (rechecking || held.size === 0) return;
    rechecking = true;
    deps.clock.setTimeout(() => {
      rechecking = false;
      reviewAll();
      recheck();
    }, deps.recheckMs ?? 500);
  }
  fence.onChange(reviewAll);

  return {
    toTask(taskId, event, traceId, seq) {
      if (!review(taskId)) {
        const envelope = sink.prepare(taskId, event, traceId, seq);
        held.get(taskId)?.push(envelope) ?? held.set(taskId, [envelope]);
        heldIds.add(envelope.id);
        recheck();
        return envelope;
      }
      if (fence.state(taskId, 'open') === 'lost') return sink.envelope(event, taskId);
      return sink.toTask(taskId, event, traceId, seq);
    },
    isHeld: (envelope) => heldIds.has(envelope.id),
    heldCount: () => heldIds.size,
  };
}
