// `plugin_message` from browser extensions (seed 001 §3.5): registration, snapshot sync, action
// results, takeover reports and overlay commands. The sender is the authenticated plugin socket;
// every message is validated against the shared contracts and dispatched by a handler map, and
// the Socket.IO ack carries the server's decision: `{ ok: true, data? }` when it was applied,
// `{ ok: false, error: { code, message } }` when it was refused (nothing changed).
import {
  isLegacyActionResult,
  LEGACY_PLUGIN_MESSAGE_EVENT,
  LIVE_FRAME_EVENT,
  normalizeActionResult,
  PLUGIN_MESSAGE_EVENT,
  ackOk,
  ackRefused,
  validatePluginMessage,
  type IncomingPluginMessage,
  type NormalizedActionResult,
  type SocketAck,
} from '../../transport/contracts/index.ts';
import { mimoAuthOf } from '../../transport/mimo/mimo-namespace.ts';
import type { ServerSocket } from '../../transport/server/index.ts';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';
import type { LiveViewRelay } from './live-view-relay.ts';
import { answerNavigationCheck, type NavigationCheckDeps } from './navigation-check.ts';
import type { TaskControl } from '../services/task-control.ts';

export interface PluginRegistryPort {
  register(registration: Record<string, unknown> & { clientId: string }): unknown;
  socketConnected(clientId: string): void;
  socketDisconnected(clientId: string): void;
  touch(clientId: string): void;
}

export interface PluginSnapshotPort {
  applyFullSync(clientId: string, message: never): unknown;
  applyTabEvent(clientId: string, message: never): unknown;
}

export interface PluginGatewayDeps {
  registry: PluginRegistryPort;
  snapshots: PluginSnapshotPort;
  scheduler: ActionScheduler;
  /** The agent side, built before the gateways (undefined: a server without one). */
  control: TaskControl | undefined;
  /** Sockets currently open for a plugin clientId (to know when the last one leaves). */
  socketsOf(clientId: string): number;
  log(entry: Record<string, unknown>): void;
  /** The live view relay: `live_frame` events go there (never to the recorder). */
  live?: Pick<LiveViewRelay, 'onFrame'>;
  /** Every valid message that belongs to a task (the recorder). */
  onMessage?(taskId: string, message: unknown): void;
  /** The URL policy the extension enforces on task tabs (navigation_check). */
  navigation?: NavigationCheckDeps;
  /**
   * True while the server itself shuts down: its own closing of the sockets is not the extension
   * going offline; the turns in flight stay `running` in the store and a restart
   * restores them as interrupted.
   */
  closing?(): boolean;
}

type Ack = ((response: unknown) => void) | undefined;
type Handler<T extends string> = (clientId: string, message: Extract<IncomingPluginMessage, { type: T }>) => unknown;

/** A handler's return value as an ack: an `{ ok: false, error }` is a refusal; anything else applied. */
function ackOf(outcome: unknown): SocketAck {
  const value = outcome as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (value && value.ok === false && typeof value.error?.code === 'string') {
    return ackRefused({
      code: value.error.code,
      message: typeof value.error.message === 'string' ? value.error.message : value.error.code,
    });
  }
  const data = (value as { data?: unknown } | undefined)?.data;
  return value?.ok === true && typeof data === 'object' && data !== null
    ? ackOk(data as Record<string, unknown>)
    : ackOk();
}

/** What became of a browser_action_result, for the plugin. */
function resultAck(actionId: string, disposition: ReturnType<ActionScheduler['handleResult']>): SocketAck {
  switch (disposition) {
    case 'accepted':
    case 'duplicate':
      return ackOk({ actionId, disposition });
    case 'late':
      return ackRefused({
        code: 'CONFLICT',
        message: `action ${actionId} has already settled (timed out or answered); this result was ignored`,
      });
    default:
      return ackRefused({ code: 'NOT_FOUND', message: `no action ${actionId} is waiting for this plugin's result` });
  }
}

export function attachPluginSocket(socket: ServerSocket, deps: PluginGatewayDeps): void {
  const auth = mimoAuthOf(socket);
  if (auth.clientType !== 'plugin') return;
  const clientId = auth.clientId;
  deps.registry.socketConnected(clientId);
  deps.log({ event: 'plugin_connected', clientId, socketId: socket.id });

  const handlers: { [T in Extract<IncomingPluginMessage, { type: string }>['type']]: Handler<T> } = {
    activate_extension: (id, m) => deps.registry.register({ ...m, clientId: id }),
    full_state_sync: (id, m) => deps.snapshots.applyFullSync(id, m as never),
    tab_event: (id, m) => deps.snapshots.applyTabEvent(id, m as never),
    browser_action_result: (id, m) => handleResult(id, normalizeActionResult(m)),
    takeover_report: (_id, m) => deps.control?.takeoverReport?.(m),
    overlay_command: (_id, m) => deps.control?.overlayCommand?.(m),
    // The person answered a held step on the page overlay.
    confirmation_answer: (_id, m) => deps.control?.overlayConfirmation?.(m),
    page_interruption: (_id, m) => deps.control?.pageInterruption?.(m),
    // Answered in its own ack (see onMessage): the verdict is the reply.
    navigation_check: () => undefined,
  };

  const handleResult = (id: string, result: NormalizedActionResult): SocketAck => {
    const disposition = deps.scheduler.handleResult(id, result);
    // A late result under a retry's dispatch id (`<actionId>~2`) speaks for its action.
    if (disposition === 'late')
      deps.control?.lateResult?.({ ...result, actionId: deps.scheduler.registry.resolve(result.actionId) });
    return resultAck(result.actionId, disposition);
  };

  const onMessage = (input: unknown, ack: Ack) => {
    deps.registry.touch(clientId);
    // The full contract check (a straight-line fast path for well-formed v1 results).
    const checked = validatePluginMessage(input);
    if (!checked.ok) {
      deps.log({ event: 'plugin_message_rejected', clientId, error: checked.error });
      ack?.({ ok: false, error: checked.error });
      return;
    }
    const message = checked.value;
    if ('clientId' in message && message.clientId !== undefined && message.clientId !== clientId) {
      const error = {
        code: 'FORBIDDEN',
        message: `clientId ${message.clientId} does not match this connection (${clientId})`,
      };
      deps.log({ event: 'plugin_message_rejected', clientId, error });
      ack?.({ ok: false, error });
      return;
    }
    const taskId =
      'taskId' in message && typeof message.taskId === 'string'
        ? message.taskId
        : 'actionId' in message
          ? deps.scheduler.taskOf(message.actionId)
          : undefined;
    if (taskId) deps.onMessage?.(taskId, message);
    if (!isLegacyActionResult(message) && message.type === 'navigation_check') {
      void answerNavigationCheck(deps.navigation ?? {}, clientId, message).then(
        (verdict) => ack?.(verdict),
        (error) => ack?.(ackRefused({ code: 'URL_BLOCKED', message: `navigation check failed: ${String(error)}` })),
      );
      return;
    }
    if (isLegacyActionResult(message)) {
      const answer = handleResult(clientId, normalizeActionResult(message)); // not inside ack?.(): it must run without an ack too
      ack?.(answer);
      return;
    }
    const handler = handlers[message.type] as Handler<typeof message.type>;
    let outcome: unknown;
    try {
      outcome = handler(clientId, message as never);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (value) => reply(message.type, value, ack),
        (error) => {
          deps.log({ event: 'plugin_handler_failed', clientId, type: message.type, error: String(error) });
          ack?.(ackRefused({ code: 'INTERNAL', message: 'the server failed to handle this message' }));
        },
      );
    } else reply(message.type, outcome, ack);
  };
  /** One function per socket, not a closure per message (the hot path of every action result). */
  const reply = (type: string, value: unknown, ack: Ack) => {
    const answer = ackOf(value);
    if (!answer.ok) deps.log({ event: 'plugin_message_refused', clientId, type, error: answer.error });
    ack?.(answer);
  };
  socket.on(PLUGIN_MESSAGE_EVENT, (input: unknown, ack?: Ack) =>
    onMessage(input, typeof ack === 'function' ? ack : undefined),
  );
  socket.on(LEGACY_PLUGIN_MESSAGE_EVENT, (input: unknown, ack?: Ack) =>
    onMessage(input, typeof ack === 'function' ? ack : undefined),
  );
  socket.on(LIVE_FRAME_EVENT, (frame: unknown, ack?: Ack) => {
    const reply = typeof ack === 'function' ? ack : undefined;
    if (deps.live) deps.live.onFrame(clientId, frame, reply);
    else reply?.({ ok: false, error: { code: 'UNAVAILABLE', message: 'live view is not available on this server' } });
  });
  socket.on('disconnect', (reason: string) => {
    deps.registry.socketDisconnected(clientId);
    deps.log({ event: 'plugin_disconnected', clientId, reason });
    if (deps.socketsOf(clientId) === 0 && !deps.closing?.())
      deps.scheduler.pluginGone(clientId, `the browser extension disconnected (${reason})`);
  });
}
