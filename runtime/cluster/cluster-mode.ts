// Cluster mode: `MIMO_DATABASE_URL=postgres://...` puts a node on a shared PostgreSQL.
// - The task store, the MCP run store and the artifact store are the PostgreSQL ones (migrations
//   applied at start), so any node serves any task's history, any run and any artifact.
// - Namespace `/mimo` gets the LISTEN/NOTIFY adapter (ordered-postgres-adapter.ts): rooms and
//   broadcasts (task events, the extension list, snapshots) reach sockets on every node.
// - Extensions, snapshots and action results are shared between nodes (cluster-plugins.ts);
//   every task command goes to the task's owner (cluster-control.ts), which holds its advisory
//   lock (task-ownership.ts); a task whose owner died is adopted by another node
//   (failover-watcher.ts) and its turn replayed with idempotent actions (action-ledger.ts); MCP
//   template runs of a dead node are marked canceled (RUN_CANCELED, reason node_lost) by the
//   same watcher (postgres-run-store.ts says why they are not resumed).
// - Without the variable nothing here runs: one process, lowdb files, as before.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { RunStore } from '../mcp/runs/run-store.ts';
import { createPostgresArtifactStore } from '../store/postgres-artifact-store.ts';
import { createPostgresRunStore } from '../store/postgres-run-store.ts';
import { createPostgresTaskStore } from '../store/postgres-task-store.ts';
import { migrate } from '../store/postgres-migrations.ts';
import type { TaskStore } from '../store/task-types.ts';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';
import type { Namespace } from '../../transport/server/index.ts';
import type { ListeningServer, ServerClusterHooks } from '../services/runtime-services.ts';
import { createActionLedger } from './action-ledger.ts';
import { taskStatusOf } from '../../machines/index.ts';
import type { TaskSession } from '../agent/task-session.ts';
import { createClusterControl, type ClusterControl, type ResumableControl } from './cluster-control.ts';
import { createClusterPlugins } from './cluster-plugins.ts';
import { startFailoverWatcher, type FailoverWatcher } from './failover-watcher.ts';
import { createOrderedPostgresPubSub, type OrderedPubSub } from './ordered-postgres-adapter.ts';
import { createTaskOwnership, type TaskOwnership } from './task-ownership.ts';
import { createFencedTaskStore } from './fenced-task-store.ts';
import { createTaskFence } from './task-fence.ts';
import { leaveCluster } from './graceful-leave.ts';
import { seedOwnerSeq } from './owner-seq.ts';
import { createHeldEvents, type HeldEvents } from './held-events.ts';
import { waitForDatabase, withDbRetry } from './db-retry.ts';
import type { TaskSeq } from '../socket/task-seq.ts';
import type { Clock } from '../clock/index.ts';

const HANDOFF = 'mimo:handoff';

export interface ClusterConfig {
  databaseUrl: string;
  nodeId: string;
  poolSize: number;
  /** How often a node looks for tasks whose owner died (MIMO_FAILOVER_CHECK_MS, default 1000). */
  failoverCheckMs: number;
  /** How long the database may stay away before the node exits (MIMO_DATABASE_OUTAGE_MAX_MS, default 60000). */
  maxOutageMs: number;
}

export type ClusterConfigResult = { ok: true; config: ClusterConfig | null } | { ok: false; errors: string[] };

/** Reads MIMO_DATABASE_URL, MIMO_NODE_ID, MIMO_DATABASE_POOL_SIZE; null config: embedded mode. */
export function readClusterConfig(env: Record<string, string | undefined>): ClusterConfigResult {
  const databaseUrl = env.MIMO_DATABASE_URL;
  if (!databaseUrl) return { ok: true, config: null };
  const errors: string[] = [];
  try {
    const url = new URL(databaseUrl);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
      errors.push(`MIMO_DATABASE_URL must be a postgres:// URL, got "${url.protocol}//..."`);
  } catch {
    errors.push('MIMO_DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database)');
  }
  const poolText = env.MIMO_DATABASE_POOL_SIZE ?? '10';
  const poolSize = Number(poolText);
  if (!/^\d+$/.test(poolText) || poolSize < 2 || poolSize > 100)
    errors.push(`MIMO_DATABASE_POOL_SIZE must be 2-100, got "${poolText}"`);
  const nodeId = env.MIMO_NODE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(nodeId))
    errors.push(`MIMO_NODE_ID must be 1-64 of [A-Za-z0-9._-], got "${nodeId}"`);
  const checkText = env.MIMO_FAILOVER_CHECK_MS ?? '1000';
  const failoverCheckMs = Number(checkText);
  if (!/^\d+$/.test(checkText) || failoverCheckMs < 100 || failoverCheckMs > 60_000)
    errors.push(`MIMO_FAILOVER_CHECK_MS must be 100-60000, got "${checkText}"`);
  const outageText = env.MIMO_DATABASE_OUTAGE_MAX_MS ?? '60000';
  const maxOutageMs = Number(outageText);
  if (!/^\d+$/.test(outageText) || maxOutageMs < 1_000 || maxOutageMs > 600_000)
    errors.push(`MIMO_DATABASE_OUTAGE_MAX_MS must be 1000-600000, got "${outageText}"`);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, config: { databaseUrl, nodeId, poolSize, failoverCheckMs, maxOutageMs } };
}

/**
 * One value for the whole cluster: the first node to ask stores `make()`'s, the others read it.
 * The artifact secret is one: an upload URL presigned by one node is redeemed on whichever node
 * the load balancer picks.
 */
export async function sharedSetting(pool: pg.Pool, key: string, make: () => string): Promise<string> {
  await pool.query('INSERT INTO mimo_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    key,
    make(),
  ]);
  return (await pool.query<{ value: string }>('SELECT value FROM mimo_settings WHERE key = $1', [key])).rows[0]!.value;
}

export interface ClusterNode {
  config: ClusterConfig;
  /** A value every node shares (made by the first node that asks, kept in mimo_settings). */
  setting(key: string, make: () => string): Promise<string>;
  /** MIMO_ARTIFACT_SECRET when set, else the cluster's own (made by the first node, in mimo_settings). */
  artifactSecret(configured: string | undefined): Promise<string>;
  pool: pg.Pool;
  taskStore: TaskStore;
  runStore: RunStore;
  /** For createServer({ cluster }): wraps the channel, services and control. */
  hooks: ServerClusterHooks;
  /** Once the server listens: the adapter, this node's lock, the plugins of other nodes, failover. */
  join(server: ListeningServer): Promise<void>;
  ownership(): TaskOwnership | undefined;
  failover(): FailoverWatcher | undefined;
  /** Graceful leave (SIGTERM): no new tasks, in-flight actions settle, tasks handed over. */
  leave(options?: { settleMs?: number }): Promise<string[]>;
  close(): Promise<void>;
}

export interface ClusterNodeDeps {
  clock: Clock;
  log: (entry: object) => void;
  /**
   * Fencing is impossible (the database stayed away past MIMO_DATABASE_OUTAGE_MAX_MS, or this
   * node's id was taken meanwhile): the node can no longer prove which tasks it owns, and must stop
   * running them; the default ends the process (a supervisor restarts it). A shorter outage is
   * ridden out (task-ownership.ts).
   */
  onFatal?: (error: unknown) => void;
}

export async function startClusterNode(config: ClusterConfig, deps: ClusterNodeDeps): Promise<ClusterNode> {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolSize });
  // An idle client's error (the server restarted, a network cut) must not kill the node.
  pool.on('error', (error) => deps.log({ event: 'database_pool_error', error: String(error) }));
  // A pooled connection the server drops while checked out (a restart) may emit 'error' twice,
  // or between two statements, where the pool listens to it no more: without a listener of its
  // own that would end the process. The query in progress fails and is retried (db-retry.ts).
  pool.on('connect', (client) => client.on('error', () => undefined));
  await waitForDatabase(() => pool.query('SELECT 1'), { maxMs: config.maxOutageMs, log: deps.log });
  const { applied } = await withDbRetry(() => migrate(pool), { maxMs: config.maxOutageMs });
  if (applied.length > 0) deps.log({ event: 'database_migrated', versions: applied });
  const baseStore = createPostgresTaskStore({ pool, clock: deps.clock, migrate: false });
  const runStore = createPostgresRunStore({ pool, nodeId: config.nodeId, clock: deps.clock });
  const plugins = createClusterPlugins({ nodeId: config.nodeId, pool, clock: deps.clock, log: deps.log });
  let pubsub: OrderedPubSub | undefined;
  let ownership: TaskOwnership | undefined;
  let control: ClusterControl | undefined;
  let watcher: FailoverWatcher | undefined;
  let nsp: Namespace | undefined;
  let scheduler: ActionScheduler | undefined;
  const fence = createTaskFence(() => ownership, deps.clock);
  const ledger = createActionLedger({ pool, nodeId: config.nodeId, clock: deps.clock, log: deps.log, fence });

  let localControl: ResumableControl | undefined;
  let taskSeq: TaskSeq | undefined;
  let heldEvents: HeldEvents | undefined;
  const taskStore = createFencedTaskStore(baseStore, {
    fence,
    onEnded(taskId) {
      // A message queued behind a failed turn starts at once (task machine): the task is running
      // again on this node by the time `error` is stored, so it keeps its lock. So does a task a
      // command still runs for here (a message being stored): looked at again once none does.
      void (async () => {
        await control?.whenIdle(taskId);
        const session = localControl?.sessionOf?.(taskId) as TaskSession | undefined;
        const now = session ? taskStatusOf(session.actor.getSnapshot()) : null;
        if (now && now !== 'completed' && now !== 'error') return;
        ledger.endTask(taskId);
        await ownership?.release(taskId);
      })().catch((error) => deps.log({ event: 'task_release_failed', taskId, error: String(error) }));
    },
  });

  const hooks: ServerClusterHooks = {
    // Artifacts (metadata and bytes) in PostgreSQL: any node presigns, accepts, serves and sweeps any.
    artifactStore: createPostgresArtifactStore({ pool }),
    channel(local, channelDeps) {
      nsp = channelDeps.nsp;
      // Results the ledger replays go to this node's scheduler, as a plugin's would.
      return ledger.wrapChannel(plugins.channel(local, channelDeps), (clientId, result) =>
        scheduler?.handleResult(clientId, result),
      );
    },
    services(services) {
      taskSeq = services.events.seq;
      return {
        ...services,
        registry: plugins.wrapRegistry(services.registry),
        snapshots: plugins.wrapSnapshots(services.snapshots),
        // Nothing of a task another node runs now leaves this node (its actor is being stopped), and
        // nothing of a task whose owner is unknown until this node holds it again (held-events.ts).
        events: {
          ...services.events,
          toTask: (heldEvents = createHeldEvents({ fence, sink: services.events, clock: deps.clock })).toTask,
        },
        scheduler: (scheduler = plugins.wrapScheduler(services.scheduler, (result) => ledger.noteResult(result))),
      };
    },
    control(local) {
      const lazyOwnership = new Proxy({} as TaskOwnership, {
        get: (_target, key) => {
          if (!ownership) throw new Error('cluster node has not joined yet');
          const value = (ownership as unknown as Record<string | symbol, unknown>)[key];
          return typeof value === 'function' ? value.bind(ownership) : value;
        },
      });
      control = createClusterControl({
        nsp: nsp!,
        ownership: lazyOwnership,
        fence,
        taskStore,
        log: deps.log,
        clock: deps.clock,
        claimed: async (taskId, generation) => {
          // A task claimed for its first message is not stored yet: nothing before it.
          const stored = (id: string) =>
            taskStore.listMessages(id).catch((error: { code?: string }) => {
              if (error?.code === 'NOT_FOUND') return [];
              throw error;
            });
          if (taskSeq) await seedOwnerSeq(taskSeq, taskId, generation, stored);
        },
      });
      localControl = local;
      const wrapped = control.wrap(local);
      // A subscriber gets the steps in flight already told; a held one comes live when it is sent.
      const steps = wrapped?.stepsInFlight;
      if (wrapped && steps)
        wrapped.stepsInFlight = (taskId) => steps(taskId).filter((envelope) => !heldEvents?.isHeld(envelope));
      return wrapped;
    },
  };

  return {
    config,
    setting: (key, make) => sharedSetting(pool, key, make),
    artifactSecret: async (configured) =>
      configured ?? (await sharedSetting(pool, 'artifact_secret', () => randomBytes(32).toString('base64url'))),
    pool,
    taskStore,
    runStore,
    hooks,
    async join(server) {
      pubsub = createOrderedPostgresPubSub({
        connectionString: config.databaseUrl,
        onError: (error) => deps.log({ event: 'socket_adapter_error', error: String(error) }),
      });
      await server.nsp.setAdapter((n) => pubsub!.adapterFor(n));
      await pubsub.ready();
      ownership = await createTaskOwnership({
        connectionString: config.databaseUrl,
        pool,
        nodeId: config.nodeId,
        url: server.url,
        clock: deps.clock,
        maxOutageMs: config.maxOutageMs,
        onLost: (error) => {
          deps.log({
            event: 'cluster_fencing_impossible',
            node: config.nodeId,
            code: (error as { code?: string }).code,
            error: String((error as Error).message ?? error),
          });
          (deps.onFatal ?? (() => process.exit(1)))(error);
        },
      });
      ownership.onChange((change) => {
        if (change.type === 'fenced')
          deps.log({ event: 'cluster_fenced', node: config.nodeId, tasks: ownership!.owned().length });
        else {
          deps.log({ event: 'cluster_reconnected', node: config.nodeId, kept: change.kept.length, lost: change.lost });
          control?.dropTasks(change.lost);
        }
        fence.changed();
      });
      await plugins.loadRemote(await ownership.liveNodes());
      if (control) {
        watcher = startFailoverWatcher({
          ownership,
          plugins,
          control,
          runs: runStore,
          intervalMs: config.failoverCheckMs,
          leaving: () => fence.draining(),
          log: deps.log,
        });
        server.nsp.on(HANDOFF, () => void watcher?.tick());
      }
    },
    async leave(options = {}) {
      if (!ownership || !control) return [];
      watcher?.stop();
      return leaveCluster({
        ownership,
        control,
        fence,
        ledger,
        taskStore,
        log: deps.log,
        announce: () => nsp?.serverSideEmit(HANDOFF, { node: config.nodeId }),
        ...options,
      });
    },
    ownership: () => ownership,
    failover: () => watcher,
    async close() {
      watcher?.stop();
      await pubsub?.close();
      await ownership?.close();
      await runStore.flush();
      await pool.end();
    },
  };
}
