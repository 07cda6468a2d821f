// Fencing: whether this node may act for a task right now. Three answers:
// - open: it owns the task and its lock connection is up (or the task is not one of its own);
// - held: it owns the task but cannot prove it (the database is away) or it is leaving (draining):
//   actions and writes of the task wait;
// - lost: it held the task and no longer does (another node took it while the database was away,
//   or it handed it over): what waits is dropped, and nothing of the task leaves this node again.
// `gate(taskId)` waits while held and throws CLUSTER_TASK_LOST when lost.
import type { Clock } from '../clock/index.ts';
import type { TaskOwnership } from './task-ownership.ts';

export type FenceState = 'open' | 'held' | 'lost';

export interface TaskFence {
  /** `whileLeaving: 'open'`: a node that is leaving counts as open (a write already under way finishes). */
  state(taskId: string, whileLeaving?: FenceState): FenceState;
  gate(taskId: string, whileLeaving?: FenceState): Promise<void>;
  /** The node leaves: new actions of its tasks are held from now on. */
  drain(): void;
  draining(): boolean;
  markLost(taskIds: string[]): void;
  /** This node claimed the task afresh: it is its own again. */
  regained(taskId: string): void;
  /** Something changed (reconnect, loss): waiters look again. */
  changed(): void;
  /** Called on every change (after the waiters are woken). */
  onChange(listener: () => void): void;
}

export const taskLost = (taskId: string) =>
  Object.assign(new Error(`task ${taskId} is now run by another node`), { code: 'CLUSTER_TASK_LOST' });

/** How often a held gate looks again without being told (a reconnect may not call changed()). */
export const FENCE_RECHECK_MS = 500;

export function createTaskFence(ownership: () => TaskOwnership | undefined, clock: Clock): TaskFence {
  const lost = new Set<string>();
  let leaving = false;
  let waiters: Array<() => void> = [];
  const listeners: Array<() => void> = [];

  const state = (taskId: string, whileLeaving: FenceState = 'held'): FenceState => {
    if (lost.has(taskId)) return 'lost';
    const own = ownership();
    if (!own?.owns(taskId)) return 'open';
    if (own.fenced()) return 'held';
    return leaving ? whileLeaving : 'open';
  };
  const changed = () => {
    const woken = waiters;
    waiters = [];
    woken.forEach((w) => w());
    listeners.forEach((l) => l());
  };

  return {
    state,
    async gate(taskId, whileLeaving) {
      for (;;) {
        const now = state(taskId, whileLeaving);
        if (now === 'open') return;
        if (now === 'lost') throw taskLost(taskId);
        // Re-checked on every change and at least every FENCE_RECHECK_MS on the node's clock.
        await new Promise<void>((resolve) => {
          const timer = clock.setTimeout(wake, FENCE_RECHECK_MS);
          function wake() {
            clock.clearTimeout(timer);
            resolve();
          }
          waiters.push(wake);
        });
      }
    },
    drain() {
      leaving = true;
      changed();
    },
    draining: () => leaving,
    markLost(taskIds) {
      for (const id of taskIds) lost.add(id);
      changed();
    },
    regained: (taskId) => void lost.delete(taskId),
    changed,
    onChange: (listener) => void listeners.push(listener),
  };
}
