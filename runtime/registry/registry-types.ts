// Public shapes of the extension registry (seed 000 §1 ExtensionRegistry, seed 001 §2.3, §4.1).
import type { ErrorValue } from '../../spec/index.ts';
import type { ExtensionListItem } from '../../transport/contracts/index.ts';

/** The runtime's one clock type (runtime/clock); this module only reads `now()`. */
import type { WallClock } from '../clock/index.ts';
export type Clock = WallClock;

/**
 * What a plugin tells us about itself: the body of POST /api/extension/extension-id or the
 * fields of an `activate_extension` message. Only `clientId` is required; a field left out
 * keeps the value an earlier registration gave.
 */
export interface ExtensionMetadata {
  clientId: string;
  extensionId?: string | undefined;
  extensionName?: string | undefined;
  ua?: string | undefined;
  version?: string | undefined;
  browserName?: string | undefined;
  allowOtherClient?: boolean | undefined;
}

/** Why selectFor picked a client: seed 000 §1 order, explicit > task binding > single > most recent. */
export type SelectionReason = 'explicit' | 'task' | 'single' | 'recent';

export interface PluginOfflineError {
  code: 'PLUGIN_OFFLINE';
  message: string;
  retryable: true;
  details?: { clientId: string };
}

export type Selection =
  { ok: true; clientId: string; reason: SelectionReason } | { ok: false; error: PluginOfflineError };

/** The one error value (spec/). */
export type TurnBlockError = ErrorValue;

export interface RegistryBadInput {
  code: 'BAD_REQUEST';
  message: string;
}

export type RegisterResult = { ok: true; item: ExtensionListItem } | { ok: false; error: RegistryBadInput };

/** What changed, for listeners that push the extension list to the web. */
export type RegistryChangeReason = 'registered' | 'connected' | 'disconnected' | 'unhealthy';

export interface RegistryChange {
  type: 'change';
  clientId: string;
  reason: RegistryChangeReason;
  /** The list as `list()` returns it right after the change. */
  extensions: ExtensionListItem[];
}

export type RegistryListener = (change: RegistryChange) => void;

export interface ExecTimeoutOutcome {
  /** Exec timeouts in a row so far for this client. */
  streak: number;
  unhealthy: boolean;
  /** True on the call that flipped the client to unhealthy. */
  becameUnhealthy: boolean;
}

export interface ExtensionRegistry {
  /** Upsert by clientId; metadata not given keeps its earlier value; bumps lastSeenAt. */
  register(registration: ExtensionMetadata): RegisterResult;
  /** A plugin socket joined (counted: two sockets of one client are fine). Clears `unhealthy`. */
  socketConnected(clientId: string): void;
  /** A plugin socket left; the client is offline when its last socket leaves. */
  socketDisconnected(clientId: string): void;
  /** Bumps lastSeenAt (any message from the plugin). Does not notify listeners. */
  touch(clientId: string): void;
  isOnline(clientId: string): boolean;
  /** Online first, then most recently seen. */
  list(): ExtensionListItem[];
  get(clientId: string): ExtensionListItem | undefined;
  /** explicit argument > the task's selection (select) > binding > single > most recent. */
  selectFor(taskId: string, explicitClientId?: string | null): Selection;
  bind(taskId: string, clientId: string): void;
  /** The user's pick for a task (select_extension, persisted as task.selectedClientId): selectFor honours it. */
  select(taskId: string, clientId: string | null): void;
  selectionOf(taskId: string): string | undefined;
  /** Known (registered or connected at least once) and not flagged unhealthy. */
  isHealthy(clientId: string): boolean;
  /**
   * Seed 001 §4.1: a plugin that missed an ack gets nothing more from this task's turn. The block
   * holds until the task's next turn (`clearTurnBlock`); the scheduler refuses to send meanwhile.
   */
  blockForTurn(taskId: string, clientId: string, error: TurnBlockError): void;
  clearTurnBlock(taskId: string): void;
  turnBlockOf(taskId: string): { clientId: string; error: TurnBlockError } | undefined;
  unbind(taskId: string): void;
  bindingOf(taskId: string): string | undefined;
  /** The client was just used for an action (the "most recently used" tie-breaker). */
  markUsed(clientId: string): void;
  recordExecTimeout(clientId: string): ExecTimeoutOutcome;
  /** A non-timeout outcome (any result, even an error) resets the exec-timeout streak. */
  recordActionSettled(clientId: string): void;
  subscribe(listener: RegistryListener): () => void;
  on(event: 'change', listener: RegistryListener): () => void;
}
