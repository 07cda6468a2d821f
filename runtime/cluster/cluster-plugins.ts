// Extensions across nodes. A plugin's socket lives on one node; the task that drives it may run
// on another. Every node keeps the same view through `serverSideEmit` over the adapter:
// - registry: connects, disconnects, registrations and task bindings are applied on every node
//   (the durable part, metadata and which node holds the socket, is in mimo_extensions, read by
//   a node that starts later and for every node it sees appear, e.g. back after a database
//   restart); a dead node's plugins are dropped by `nodeGone`, after a grace to come back;
// - snapshots: each node applies every plugin's full_state_sync / tab_event, and tells only its
//   own frontends (server.ts), so the owner of a task sees its tabs and no web client gets two copies;
// - action results: a browser_action_result reaches the node whose scheduler has the action;
// - the channel: an action for a plugin on another node is a room broadcast with an ack
//   (`nsp.to('client:id').timeout(ms).emit(...)`): the ack comes back to the dispatching node.
import type pg from 'pg';
import type { Clock } from '../clock/index.ts';
import { withDbRetry } from './db-retry.ts';
import { SocketPacketType } from '../../transport/codec/index.ts';
import { rooms, type NormalizedActionResult } from '../../transport/contracts/index.ts';
import type { Namespace } from '../../transport/server/index.ts';
import type { ExtensionMetadata, ExtensionRegistry } from '../registry/registry-types.ts';
import type { ActionScheduler, PluginChannel } from '../scheduler/action-scheduler.ts';
import type { SnapshotStore } from '../snapshot/snapshot-types.ts';

const EXTENSION = 'mimo:extension';
const SNAPSHOT = 'mimo:snapshot';
const ACTION_RESULT = 'mimo:action_result';

type ExtensionNote =
  | { nodeId: string; op: 'connected' | 'disconnected'; clientId: string }
  | { nodeId: string; op: 'registered'; clientId: string; metadata: ExtensionMetadata }
  | { nodeId: string; op: 'bind'; clientId: string; taskId: string }
  | { nodeId: string; op: 'unbind'; taskId: string }
  | { nodeId: string; op: 'select'; taskId: string; clientId: string | null };

export interface ClusterPluginsOptions {
  nodeId: string;
  pool: pg.Pool;
  clock: Pick<Clock, 'now' | 'setTimeout'>;
  log: (entry: object) => void;
  /**
   * A plugin whose socket was on another node that died or closed it is most likely fine: it
   * reconnects to a live node (the load balancer's pick) within a second or two and sends the
   * results that were ready meanwhile. It counts as offline (its actions failing with
   * PLUGIN_OFFLINE) only if it is not back within this long (default 5 s). A plugin whose socket
   * on this node closes is offline at once, as on one node.
   */
  pluginReturnGraceMs?: number;
  /** How long a cross-node action ack is awaited at most (the scheduler's T_ack decides earlier). */
  remoteAckWaitMs?: number;
  /**
   * A frame for a plugin on another node crosses the adapter (PostgreSQL NOTIFY): while the
   * database is away the frame or its ack is lost on that hop, not by the extension. Until an ack
   * comes the frame is delivered again under the same actionId (the extension runs an actionId
   * once and acks it again, seed 001 §4.2) every `remoteRedeliverMs` (default 1 s), for at most
   * `remoteRedeliverForMs` (default 10 s), while the action still awaits the ack; each delivery
   * restarts T_ack (the machine itself never resends after a missed ack, seed 001 §4.1).
   */
  remoteRedeliverMs?: number;
  remoteRedeliverForMs?: number;
}

export interface ClusterPlugins {
  channel(local: PluginChannel, deps: { nsp: Namespace; registry: ExtensionRegistry }): PluginChannel;
  wrapRegistry(inner: ExtensionRegistry): ExtensionRegistry;
  wrapSnapshots(inner: SnapshotStore): SnapshotStore;
  /** `noteResult` sees every plugin result that reaches this node (the action ledger). */
  wrapScheduler(
    inner: ActionScheduler,
    noteResult?: (result: NormalizedActionResult) => NormalizedActionResult,
  ): ActionScheduler;
  /** Plugins whose socket was on live nodes when this node started (from mimo_extensions). */
  loadRemote(liveNodes: string[]): Promise<void>;
  /** A node died: its plugins are offline here too, and their actions in flight fail now. */
  nodeGone(nodeId: string): void;
}

export function createClusterPlugins(options: ClusterPluginsOptions): ClusterPlugins {
  const { nodeId, pool, clock, log } = options;
  let nsp: Namespace | undefined;
  let registry: ExtensionRegistry | undefined;
  let scheduler: ActionScheduler | undefined;
  // Sockets that other nodes reported, per node, per clientId.
  const remote = new Map<string, Map<string, number>>();

  const publish = (event: string, payload: unknown) => {
    try {
      nsp?.serverSideEmit(event, payload);
    } catch (error) {
      log({ event: 'cluster_publish_failed', what: event, error: String(error) });
    }
  };
  // Retried while the database is away (a plugin that connects during a restart must be findable after it).
  const persist = (sql: string, values: unknown[]) =>
    void withDbRetry(() => pool.query(sql, values)).catch((error) =>
      log({ event: 'cluster_extension_persist_failed', error: String(error) }),
    );

  function countRemote(node: string, clientId: string, delta: number): void {
    const clients = remote.get(node) ?? new Map<string, number>();
    remote.set(node, clients);
    const next = (clients.get(clientId) ?? 0) + delta;
    if (next > 0) clients.set(clientId, next);
    else clients.delete(clientId);
  }

  /**
   * A socket of the plugin on another node is gone. The plugin counts as connected for the
   * return grace still: it reconnects to a live node and its frames, delivered again to its room
   * every second, reach it there. Only if it has no socket anywhere after the grace is it offline
   * and its actions in flight fail (PLUGIN_OFFLINE).
   */
  function remoteDisconnect(clientId: string, why: string): void {
    const drop = () => {
      registry?.socketDisconnected(clientId);
      if (registry && !registry.isOnline(clientId)) scheduler?.pluginGone(clientId, why);
    };
    const graceMs = options.pluginReturnGraceMs ?? 5_000;
    if (graceMs <= 0) return drop();
    clock.setTimeout(drop, graceMs);
  }

  function onExtensionNote(note: ExtensionNote): void {
    if (!registry || note.nodeId === nodeId) return;
    switch (note.op) {
      case 'connected':
        countRemote(note.nodeId, note.clientId, 1);
        registry.socketConnected(note.clientId);
        return;
      case 'select':
        registry.select(note.taskId, note.clientId);
        return;
      case 'disconnected':
        countRemote(note.nodeId, note.clientId, -1);
        remoteDisconnect(note.clientId, `the browser extension disconnected from node ${note.nodeId}`);
        return;
      case 'registered':
        registry.register(note.metadata);
        return;
      case 'bind':
        registry.bind(note.taskId, note.clientId);
        return;
      case 'unbind':
        registry.unbind(note.taskId);
        return;
    }
  }

  return {
    channel(local, deps) {
      nsp = deps.nsp;
      nsp.on(EXTENSION, (note: ExtensionNote) => onExtensionNote(note));
      const waitMs = options.remoteAckWaitMs ?? 120_000;
      return {
        isConnected: (clientId) => local.isConnected(clientId) || deps.registry.isOnline(clientId),
        emitWithAck(clientId, frame, onAck, onHeldFrameSent) {
          if (local.isConnected(clientId)) return local.emitWithAck(clientId, frame, onAck, onHeldFrameSent);
          if (!deps.registry.isOnline(clientId)) return false;
          const adapter = deps.nsp.adapter;
          if (!adapter) return false;
          // The adapter's broadcast with acks, one level down from `nsp.to(room).timeout().emit()`:
          // that one answers once every node has counted its clients, which a node that just died
          // never does; here the plugin's ack is handed on the moment it arrives.
          let answered = false;
          const deliver = () =>
            adapter.broadcastWithAck(
              { type: SocketPacketType.EVENT, nsp: deps.nsp.name, data: ['plugin_message', frame] },
              { rooms: new Set([rooms.client(clientId)]), except: new Set(), flags: { timeout: waitMs } },
              () => undefined,
              (response) => {
                if (answered) return;
                answered = true;
                onAck(response);
              },
            );
          deliver();
          const every = options.remoteRedeliverMs ?? 1_000;
          const until = clock.now() + (options.remoteRedeliverForMs ?? 10_000);
          const again = () => {
            if (answered || clock.now() > until) return;
            // Only while the action still awaits this ack (not after a result, a Stop or its T_ack).
            // A plugin away (its node died; it is back on another within the return grace, or its
            // actions fail as offline) holds the frame: the wait restarts, the frame goes when it is back.
            if (!onHeldFrameSent?.()) return;
            if (deps.registry.isOnline(clientId)) deliver();
            clock.setTimeout(again, every);
          };
          clock.setTimeout(again, every);
          return true;
        },
      };
    },

    wrapRegistry(inner) {
      registry = inner;
      const metaOf = (clientId: string): ExtensionMetadata => {
        const item = inner.get(clientId) as (ExtensionMetadata & Record<string, unknown>) | undefined;
        const meta: ExtensionMetadata = { clientId };
        for (const key of [
          'extensionId',
          'extensionName',
          'ua',
          'version',
          'browserName',
          'allowOtherClient',
        ] as const) {
          if (item?.[key] !== undefined) (meta as unknown as Record<string, unknown>)[key] = item[key];
        }
        return meta;
      };
      // The row names a node that holds a socket of the plugin (whom a node that starts later, or
      // that missed the relay, asks about it): this one while it has one; when its last goes, the
      // row is left alone if it names another node.
      const saveRow = (clientId: string, online: boolean) =>
        persist(
          `INSERT INTO mimo_extensions (client_id, metadata, node_id, last_seen_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (client_id) DO UPDATE SET metadata = EXCLUDED.metadata, last_seen_at = EXCLUDED.last_seen_at,
             node_id = CASE WHEN EXCLUDED.node_id IS NOT NULL OR mimo_extensions.node_id = $5 THEN EXCLUDED.node_id ELSE mimo_extensions.node_id END`,
          [clientId, JSON.stringify(metaOf(clientId)), online ? nodeId : null, clock.now(), nodeId],
        );
      const localSockets = new Map<string, number>();
      return {
        ...inner,
        register(registration) {
          const result = inner.register(registration);
          if (result.ok) {
            publish(EXTENSION, { nodeId, op: 'registered', clientId: registration.clientId, metadata: registration });
            saveRow(registration.clientId, inner.isOnline(registration.clientId));
          }
          return result;
        },
        socketConnected(clientId) {
          inner.socketConnected(clientId);
          localSockets.set(clientId, (localSockets.get(clientId) ?? 0) + 1);
          publish(EXTENSION, { nodeId, op: 'connected', clientId });
          saveRow(clientId, true);
        },
        socketDisconnected(clientId) {
          inner.socketDisconnected(clientId);
          const left = (localSockets.get(clientId) ?? 1) - 1;
          if (left > 0) localSockets.set(clientId, left);
          else localSockets.delete(clientId);
          publish(EXTENSION, { nodeId, op: 'disconnected', clientId });
          saveRow(clientId, left > 0);
        },
        bind(taskId, clientId) {
          inner.bind(taskId, clientId);
          publish(EXTENSION, { nodeId, op: 'bind', taskId, clientId });
        },
        unbind(taskId) {
          inner.unbind(taskId);
          publish(EXTENSION, { nodeId, op: 'unbind', taskId });
        },
        select(taskId, clientId) {
          inner.select(taskId, clientId);
          publish(EXTENSION, { nodeId, op: 'select', taskId, clientId: clientId ?? null });
        },
      };
    },

    wrapSnapshots(inner) {
      nsp?.on(SNAPSHOT, (note: { nodeId: string; kind: 'full' | 'tab'; clientId: string; message: unknown }) => {
        if (note.nodeId === nodeId) return;
        if (note.kind === 'full') inner.applyFullSync(note.clientId, note.message);
        else inner.applyTabEvent(note.clientId, note.message);
      });
      return {
        ...inner,
        applyFullSync(clientId, message) {
          const result = inner.applyFullSync(clientId, message);
          publish(SNAPSHOT, { nodeId, kind: 'full', clientId, message });
          return result;
        },
        applyTabEvent(clientId, message) {
          const result = inner.applyTabEvent(clientId, message);
          publish(SNAPSHOT, { nodeId, kind: 'tab', clientId, message });
          return result;
        },
      };
    },

    wrapScheduler(inner, noteResult = (result) => result) {
      scheduler = inner;
      nsp?.on(ACTION_RESULT, (note: { nodeId: string; clientId: string; result: NormalizedActionResult }) => {
        if (note.nodeId === nodeId) return;
        const result = noteResult(note.result);
        if (inner.taskOf(result.actionId) !== undefined) inner.handleResult(note.clientId, result);
      });
      return {
        ...inner,
        handleResult(clientId, raw) {
          const result = noteResult(raw);
          if (inner.taskOf(result.actionId) !== undefined) return inner.handleResult(clientId, result);
          publish(ACTION_RESULT, { nodeId, clientId, result: raw });
          return 'foreign';
        },
      };
    },

    async loadRemote(liveNodes) {
      if (!registry) return;
      const others = liveNodes.filter((n) => n !== nodeId);
      if (others.length === 0) return;
      const rows = await pool.query<{ client_id: string; metadata: ExtensionMetadata; node_id: string }>(
        // Rows written by the node's current run only (a node restarted under the same id has none yet).
        `SELECT e.client_id, e.metadata, e.node_id FROM mimo_extensions e JOIN mimo_nodes n ON n.node_id = e.node_id
         WHERE e.node_id = ANY($1) AND e.last_seen_at >= n.started_at`,
        [others],
      );
      for (const row of rows.rows) {
        if ((remote.get(row.node_id)?.get(row.client_id) ?? 0) > 0) continue; // already heard live
        registry.register({ ...row.metadata, clientId: row.client_id });
        countRemote(row.node_id, row.client_id, 1);
        registry.socketConnected(row.client_id);
      }
    },

    nodeGone(gone) {
      const clients = remote.get(gone);
      if (!clients) return;
      remote.delete(gone);
      for (const [clientId, count] of clients) {
        for (let i = 0; i < count; i++)
          remoteDisconnect(clientId, `node ${gone} stopped; the browser extension was connected to it`);
      }
      // Its rows stay: a node that only looked gone (its lock connection was down) still has those
      // plugins, and a restarted one's older rows are not read (loadRemote).
    },
  };
}
