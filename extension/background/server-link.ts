// The socket to the server: the real socket.io-client over websocket on namespace /mimo, auth
// { clientType: "plugin", clientId, token }. socket.io-client reconnects by itself after a drop;
// `ensureConnected` (called by the alarms backstop and on browser start) revives a socket the
// server refused or a worker restart left without one. Incoming plugin_message frames are
// dispatched by `type` through a handler map.
import {
  LEGACY_PLUGIN_MESSAGE_EVENT,
  MIMO_NAMESPACE,
  PLUGIN_MESSAGE_EVENT,
  protocolError,
} from '../../transport/contracts/index.ts';
import type { BrowserActionAck } from '../../transport/contracts/index.ts';
import type { Settings } from '../shared/settings.ts';
import type { ConnectionErrorKind, ConnectionStatus } from '../shared/internal-messages.ts';

/** The part of a socket.io-client Socket this module uses. */
export interface SocketLike {
  readonly connected: boolean;
  readonly active: boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export interface SocketOptions {
  transports: ['websocket'];
  auth: { clientType: 'plugin'; clientId: string; token?: string };
  reconnectionDelay: number;
  reconnectionDelayMax: number;
  timeout: number;
  forceNew: boolean;
}

export type ConnectSocket = (url: string, options: SocketOptions) => SocketLike;

export type Ack = (response: BrowserActionAck) => void;
export type IncomingHandlers = Record<string, (message: unknown, ack: Ack | undefined) => void>;

export interface ServerLinkDeps {
  connect: ConnectSocket;
  settings(): Settings;
  clientId(): Promise<string>;
  handlers: IncomingHandlers;
  /** Bounds `request` (the ack wait). */
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  /** After every (re)connect: activate_extension, full_state_sync, registration. */
  onConnected(): void;
  log?(message: string): void;
}

export interface ServerLink {
  start(): Promise<void>;
  /** New settings: drop the socket and connect again. */
  restart(): Promise<void>;
  ensureConnected(): Promise<void>;
  /** Emits plugin_message when connected; false (dropped) otherwise: a reconnect re-syncs state. */
  send(message: unknown): boolean;
  /** Emits `event` with an ack callback (live frames); false when not connected. */
  emitWithAck(event: string, payload: unknown, onAck: (response: unknown) => void): boolean;
  /**
   * Emits plugin_message with a Socket.IO ack and resolves with the server's answer; rejects when
   * not connected or when no answer comes within `timeoutMs` (callers fail closed).
   */
  request(message: unknown, timeoutMs: number): Promise<unknown>;
  status(): ConnectionStatus;
}

export function createServerLink(deps: ServerLinkDeps): ServerLink {
  let socket: SocketLike | null = null;
  let socketUrl = '';
  let clientId: string | null = null;
  let lastError: string | null = null;
  let errorKind: ConnectionErrorKind | null = null;
  let starting: Promise<void> | null = null;

  function dispatch(message: unknown, ack?: unknown): void {
    const reply = typeof ack === 'function' ? (ack as Ack) : undefined;
    const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
    const handler = typeof type === 'string' && Object.hasOwn(deps.handlers, type) ? deps.handlers[type] : undefined;
    if (!handler) {
      reply?.({
        ok: false,
        error: protocolError('SCHEMA_VALIDATION_FAILED', `unknown plugin_message type ${JSON.stringify(type)}`),
      });
      return;
    }
    handler(message, reply);
  }

  async function open(): Promise<void> {
    const settings = deps.settings();
    clientId = await deps.clientId();
    socketUrl = settings.serverUrl;
    // A new socket (new settings): the previous socket's failure says nothing about this one.
    lastError = null;
    errorKind = null;
    const auth: SocketOptions['auth'] = { clientType: 'plugin', clientId };
    if (settings.token) auth.token = settings.token;
    const next = deps.connect(`${settings.serverUrl}${MIMO_NAMESPACE}`, {
      transports: ['websocket'],
      auth,
      reconnectionDelay: 500,
      reconnectionDelayMax: 5_000,
      timeout: 10_000,
      forceNew: true,
    });
    socket = next;
    next.on('connect', () => {
      if (socket !== next) return;
      lastError = null;
      errorKind = null;
      deps.log?.(`connected to ${socketUrl}`);
      deps.onConnected();
    });
    next.on('connect_error', (error: { message?: string; data?: { code?: string; message?: string } }) => {
      if (socket !== next) return;
      lastError = error?.data?.message ?? error?.message ?? 'connection failed';
      const code = error?.data?.code;
      errorKind = code === 'UNAUTHORIZED' ? 'unauthorized' : code === 'FORBIDDEN' ? 'forbidden' : 'unreachable';
    });
    next.on('disconnect', (reason: string) => {
      if (socket !== next) return;
      lastError = `disconnected: ${reason}`;
      errorKind = 'disconnected';
    });
    next.on(PLUGIN_MESSAGE_EVENT, dispatch);
    next.on(LEGACY_PLUGIN_MESSAGE_EVENT, dispatch);
  }

  const link: ServerLink = {
    start() {
      starting ??= open().catch((error) => {
        lastError = error instanceof Error ? error.message : String(error);
        starting = null;
      });
      return starting;
    },
    async restart() {
      await starting;
      // Forget the old socket first so its own disconnect event says nothing about the new one.
      const old = socket;
      socket = null;
      starting = null;
      old?.disconnect();
      await link.start();
    },
    async ensureConnected() {
      await link.start();
      if (socket && !socket.connected && !socket.active) socket.connect();
    },
    send(message) {
      if (!socket?.connected) return false;
      socket.emit(PLUGIN_MESSAGE_EVENT, message);
      return true;
    },
    emitWithAck(event, payload, onAck) {
      if (!socket?.connected) return false;
      socket.emit(event, payload, onAck);
      return true;
    },
    request(message, timeoutMs) {
      const current = socket;
      if (!current?.connected) return Promise.reject(new Error('not connected to the Mimo server'));
      const timers = deps.timers ?? {
        setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
        clearTimeout: (h: unknown) => clearTimeout(h as number),
      };
      return new Promise((resolve, reject) => {
        const timer = timers.setTimeout(
          () => reject(new Error(`no answer from the server within ${timeoutMs} ms`)),
          timeoutMs,
        );
        current.emit(PLUGIN_MESSAGE_EVENT, message, (response: unknown) => {
          timers.clearTimeout(timer);
          resolve(response);
        });
      });
    },
    status: () => ({
      clientId,
      serverUrl: socketUrl || deps.settings().serverUrl,
      connected: socket?.connected ?? false,
      lastError,
      errorKind,
    }),
  };
  return link;
}
