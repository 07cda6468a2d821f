// Failover: every `intervalMs` a node asks the database which nodes are alive (their node locks)
// and which running tasks have no live owner, claims those it can (one node wins each lock) and
// adopts them (cluster-control.ts takeOver). A handed-over task is found the same way, at once:
// the leaving node tells the others (`tick` on its handoff event). Nodes that vanished since the
// last look have their plugins dropped here, and their unfinished MCP template runs marked interrupted (once, by whichever node gets there first).
import type { ClusterPlugins } from './cluster-plugins.ts';
import type { ClusterControl } from './cluster-control.ts';
import { LIVE_NODES_SQL, type TaskOwnership } from './task-ownership.ts';

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface FailoverWatcher {
  /** One look now (the interval calls it too); resolves with the tasks this node adopted. */
  tick(): Promise<string[]>;
  stop(): void;
}

export function startFailoverWatcher(deps: {
  ownership: TaskOwnership;
  plugins: ClusterPlugins;
  control: ClusterControl;
  /** Template runs: those of nodes not alive become canceled (RUN_CANCELED, node_lost). */
  runs?: { interruptOrphans(liveNodesSql: string): Promise<string[]> };
  intervalMs: number;
  /** This node is leaving (graceful stop): it adopts nothing more. */
  leaving?: () => boolean;
  log: (entry: object) => void;
  timers?: Timers;
}): FailoverWatcher {
  const { ownership, plugins, control, log } = deps;
  const timers: Timers = deps.timers ?? {
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
  };
  let known: Set<string> | null = null;
  let reloadPlugins = true;
  let busy: Promise<string[]> | null = null;

  async function look(): Promise<string[]> {
    // While this node cannot prove its own locks, or just after it got them back, the live set is
    // not to be trusted (the other nodes may be re-connecting too): no node is declared gone, no
    // task adopted, no run marked. A node truly lost meanwhile is seen at the first look after.
    if (ownership.fenced() || ownership.inGrace()) {
      reloadPlugins = true; // what other nodes told meanwhile may not have reached this one
      return [];
    }
    const live = new Set(await ownership.liveNodes());
    if (known)
      for (const node of known)
        if (!live.has(node)) {
          log({ event: 'node_gone', node });
          plugins.nodeGone(node);
        }
    // Nodes seen for the first time (or back), and every node after this one's own start or
    // outage: their plugins, which this node may never have been told about (the relay was away
    // when they connected).
    const appeared = [...live].filter((node) => reloadPlugins || !known?.has(node));
    reloadPlugins = false;
    known = live;
    if (appeared.length > 0) await plugins.loadRemote(appeared);
    const adopted: string[] = [];
    if (deps.leaving?.()) return adopted; // a leaving node adopts nothing more
    for (const taskId of await ownership.orphans()) {
      if (await control.takeOver(taskId)) adopted.push(taskId);
    }
    const interrupted = (await deps.runs?.interruptOrphans(LIVE_NODES_SQL)) ?? [];
    if (interrupted.length > 0) log({ event: 'mcp_runs_interrupted', reason: 'node_lost', runs: interrupted });
    return adopted;
  }

  const tick = () =>
    (busy ??= look()
      .catch((error: unknown) => {
        log({ event: 'failover_check_failed', error: String(error) });
        return [];
      })
      .finally(() => (busy = null)));
  const handle = timers.setInterval(() => void tick(), deps.intervalMs);
  return {
    tick,
    stop: () => timers.clearInterval(handle),
  };
}
