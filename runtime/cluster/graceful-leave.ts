// Graceful leave (SIGTERM on a cluster node), as Akka Cluster Sharding's handoff:
// 1. the node takes no new task and adopts none; new actions of its tasks are held, not sent;
// 2. the actions already at an extension settle (bounded: `settleMs`, default 10 s), and the
//    store writes under way finish;
// 3. every task it holds gets a handoff record and its lock is released in one go; its actors
//    here stop (nothing more of them leaves this node), and the other nodes are told, so one of
//    them claims each running task at once and carries on (no "node stopped" note: the replay
//    answers the finished actions from the ledger and sends the held ones for the first time).
import type { ActionLedger } from './action-ledger.ts';
import type { ClusterControl } from './cluster-control.ts';
import type { TaskFence } from './task-fence.ts';
import type { TaskOwnership } from './task-ownership.ts';

export async function leaveCluster(deps: {
  ownership: TaskOwnership;
  control: ClusterControl;
  fence: TaskFence;
  ledger: ActionLedger;
  taskStore: { settled(): Promise<void> };
  log: (entry: object) => void;
  announce: () => void;
  settleMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}): Promise<string[]> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = deps.now ?? Date.now;
  const settleMs = deps.settleMs ?? 10_000;
  const started = now();
  deps.fence.drain();
  deps.log({
    event: 'cluster_leaving',
    node: deps.ownership.nodeId,
    tasks: deps.ownership.owned().length,
    inFlight: deps.ledger.inFlight(),
  });
  while (deps.ledger.inFlight() > 0 && now() - started < settleMs) await sleep(50);
  const unsettled = deps.ledger.inFlight();
  await Promise.race([deps.taskStore.settled(), sleep(Math.max(0, settleMs - (now() - started)))]);
  // Lost here before their locks go: a write or an event still waiting behind the drain must
  // not get out once another node may have claimed the task (it would answer a message twice).
  deps.fence.markLost(deps.ownership.owned());
  const tasks = await deps.ownership.handOffAll();
  deps.control.dropTasks(tasks);
  deps.announce();
  deps.log({
    event: 'cluster_left',
    node: deps.ownership.nodeId,
    handedOver: tasks,
    unsettledActions: unsettled,
    ms: now() - started,
  });
  return tasks;
}
