// ExtensionRegistry (seed 000 §1): plugin instances by clientId, online state from socket
// presence, task -> client bindings, auto-selection and the exec-timeout health rule
// (seed 001 §4.1: two exec timeouts in a row mark a plugin unhealthy until it reconnects).
import type { ExtensionListItem } from '../../transport/contracts/index.ts';
import { isPluginUnhealthy } from '../../machines/plugin-health.ts';
import { selectExtension } from './select-extension.ts';
import type { Candidate } from './select-extension.ts';
import type {
  Clock,
  ExecTimeoutOutcome,
  ExtensionMetadata,
  ExtensionRegistry,
  RegisterResult,
  RegistryChangeReason,
  RegistryListener,
  Selection,
  TurnBlockError,
} from './registry-types.ts';

export interface ExtensionRegistryOptions {
  clock: Clock;
  /** Called when a listener throws; the registry and the other listeners carry on. */
  onListenerError?: (error: unknown) => void;
}

interface ClientRecord {
  clientId: string;
  meta: Omit<ExtensionMetadata, 'clientId'>;
  sockets: number;
  lastSeenAt: number;
  lastUsedAt: number | undefined;
  execTimeoutStreak: number;
  unhealthy: boolean;
}

const METADATA_KEYS = ['extensionId', 'extensionName', 'ua', 'version', 'browserName', 'allowOtherClient'] as const;

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function toListItem(record: ClientRecord): ExtensionListItem {
  const item: ExtensionListItem = {
    clientId: record.clientId,
    socketConnected: record.sockets > 0,
    lastSeenAt: record.lastSeenAt,
    health: record.unhealthy ? 'unhealthy' : 'healthy',
  };
  const { extensionId, extensionName, ua, version, browserName } = record.meta;
  if (extensionId !== undefined) item.extensionId = extensionId;
  if (extensionName !== undefined) item.extensionName = extensionName;
  if (ua !== undefined) item.ua = ua;
  if (version !== undefined) item.version = version;
  if (browserName !== undefined) item.browserName = browserName;
  if (record.lastUsedAt !== undefined) item.lastUsedAt = record.lastUsedAt;
  return item;
}

function listOrder(a: ClientRecord, b: ClientRecord): number {
  const online = Number(b.sockets > 0) - Number(a.sockets > 0);
  if (online !== 0) return online;
  if (b.lastSeenAt !== a.lastSeenAt) return b.lastSeenAt - a.lastSeenAt;
  return a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0;
}

export function createExtensionRegistry(options: ExtensionRegistryOptions): ExtensionRegistry {
  const { clock } = options;
  const clients = new Map<string, ClientRecord>();
  const bindings = new Map<string, string>();
  const selections = new Map<string, string>();
  const turnBlocks = new Map<string, { clientId: string; error: TurnBlockError }>();
  const listeners = new Set<RegistryListener>();

  function recordOf(clientId: string): ClientRecord {
    let record = clients.get(clientId);
    if (record === undefined) {
      record = {
        clientId,
        meta: {},
        sockets: 0,
        lastSeenAt: clock.now(),
        lastUsedAt: undefined,
        execTimeoutStreak: 0,
        unhealthy: false,
      };
      clients.set(clientId, record);
    }
    return record;
  }

  function list(): ExtensionListItem[] {
    return [...clients.values()].sort(listOrder).map(toListItem);
  }

  function emit(clientId: string, reason: RegistryChangeReason): void {
    if (listeners.size === 0) return;
    const change = { type: 'change' as const, clientId, reason, extensions: list() };
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        options.onListenerError?.(error);
      }
    }
  }

  function subscribe(listener: RegistryListener): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  return {
    register(registration) {
      if (typeof registration !== 'object' || registration === null || !isNonEmptyString(registration.clientId)) {
        return { ok: false, error: { code: 'BAD_REQUEST', message: 'registration needs a non-empty string clientId' } };
      }
      const record = recordOf(registration.clientId);
      for (const key of METADATA_KEYS) {
        const value = registration[key];
        if (value !== undefined) (record.meta as Record<string, unknown>)[key] = value;
      }
      record.lastSeenAt = clock.now();
      emit(record.clientId, 'registered');
      return { ok: true, item: toListItem(record) } satisfies RegisterResult;
    },

    socketConnected(clientId) {
      if (!isNonEmptyString(clientId)) return;
      const record = recordOf(clientId);
      record.sockets += 1;
      record.lastSeenAt = clock.now();
      record.unhealthy = false;
      record.execTimeoutStreak = 0;
      emit(clientId, 'connected');
    },

    socketDisconnected(clientId) {
      const record = clients.get(clientId);
      if (record === undefined || record.sockets === 0) return;
      record.sockets -= 1;
      record.lastSeenAt = clock.now();
      emit(clientId, 'disconnected');
    },

    touch(clientId) {
      const record = clients.get(clientId);
      if (record !== undefined) record.lastSeenAt = clock.now();
    },

    isOnline: (clientId) => (clients.get(clientId)?.sockets ?? 0) > 0,

    list,

    get(clientId) {
      const record = clients.get(clientId);
      return record === undefined ? undefined : toListItem(record);
    },

    selectFor(taskId, explicitClientId): Selection {
      const candidates: Candidate[] = [...clients.values()].map((r) => ({
        clientId: r.clientId,
        online: r.sockets > 0,
        unhealthy: r.unhealthy,
        lastUsedAt: r.lastUsedAt,
        lastSeenAt: r.lastSeenAt,
      }));
      const explicit = isNonEmptyString(explicitClientId) ? explicitClientId : selections.get(taskId);
      return selectExtension(candidates, bindings.get(taskId), explicit);
    },

    bind(taskId, clientId) {
      if (isNonEmptyString(taskId) && isNonEmptyString(clientId)) bindings.set(taskId, clientId);
    },

    unbind(taskId) {
      bindings.delete(taskId);
    },

    select(taskId, clientId) {
      if (!isNonEmptyString(taskId)) return;
      if (isNonEmptyString(clientId)) {
        selections.set(taskId, clientId);
        bindings.set(taskId, clientId);
      } else selections.delete(taskId);
    },

    selectionOf: (taskId) => selections.get(taskId),

    blockForTurn(taskId, clientId, error) {
      turnBlocks.set(taskId, { clientId, error });
    },
    clearTurnBlock(taskId) {
      turnBlocks.delete(taskId);
    },
    turnBlockOf: (taskId) => turnBlocks.get(taskId),

    isHealthy: (clientId) => {
      const record = clients.get(clientId);
      return record !== undefined && !record.unhealthy;
    },

    bindingOf: (taskId) => bindings.get(taskId),

    markUsed(clientId) {
      const record = clients.get(clientId);
      if (record !== undefined) record.lastUsedAt = clock.now();
    },

    recordExecTimeout(clientId): ExecTimeoutOutcome {
      const record = clients.get(clientId);
      if (record === undefined) return { streak: 0, unhealthy: false, becameUnhealthy: false };
      record.execTimeoutStreak += 1;
      const becameUnhealthy = !record.unhealthy && isPluginUnhealthy(record.execTimeoutStreak);
      if (becameUnhealthy) {
        record.unhealthy = true;
        emit(clientId, 'unhealthy');
      }
      return { streak: record.execTimeoutStreak, unhealthy: record.unhealthy, becameUnhealthy };
    },

    recordActionSettled(clientId) {
      const record = clients.get(clientId);
      if (record !== undefined) record.execTimeoutStreak = 0;
    },

    subscribe,
    on: (_event, listener) => subscribe(listener),
  };
}
