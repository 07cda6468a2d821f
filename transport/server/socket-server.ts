// A Socket.IO v5 server on our Engine.IO v4 server, shaped like socket.io's own API:
// `of(nsp)`, `use`, `on('connection')`, `to(room).emit`, `close()`.
import { systemTransportClock } from './transport-clock.ts';
import type { Server as HttpServer } from 'node:http';
import { attachEngineServer, type EngineServer, type EngineServerOptions } from './engine-server.ts';
import { Namespace, type Middleware } from './namespace.ts';
import type { ServerSocket } from './server-socket.ts';
import { SocketClient } from './socket-client.ts';
import type { ListenerErrorHandler } from './socket-types.ts';

export interface SocketServerOptions extends EngineServerOptions {
  /** Close a connection that joins no namespace within this time (default 45 s, as socket.io). */
  connectTimeout?: number;
  /** Most binary attachments one packet may announce (default 10). */
  maxAttachments?: number;
  /** Where errors thrown by event listeners go (default: console.error). The server stays up. */
  onListenerError?: ListenerErrorHandler;
  /**
   * Runs first on every namespace, the root one and any made later by `of()` (e.g. a token
   * check on the CONNECT auth payload), before the namespace's own middleware.
   */
  connectGuard?: Middleware;
}

export interface SocketServer {
  of(name: string): Namespace;
  use(middleware: Middleware): SocketServer;
  on(event: 'connection', listener: (socket: ServerSocket) => unknown): SocketServer;
  to(room: string | string[]): ReturnType<Namespace['to']>;
  emit(event: string, ...args: unknown[]): true;
  readonly engine: EngineServer;
  readonly namespaces: ReadonlyMap<string, Namespace>;
  /** Number of open Engine.IO connections. */
  readonly clientsCount: number;
  /** Disconnects every client ('server shutting down') and detaches from the http server. */
  close(): void;
}

export function createSocketServer(httpServer: HttpServer, options: SocketServerOptions = {}): SocketServer {
  const namespaces = new Map<string, Namespace>();
  const onListenerError: ListenerErrorHandler =
    options.onListenerError ??
    ((error, context) =>
      console.error(`[socket] listener for "${context.event}" on ${context.namespace} failed:`, error));
  const clock = options.clock ?? systemTransportClock;
  const host = {
    namespaces,
    clock,
    connectTimeout: options.connectTimeout ?? 45_000,
    maxAttachments: options.maxAttachments ?? 10,
  };
  const engine = attachEngineServer(httpServer, options, (session, req) => {
    session.handlers = new SocketClient(host, session, req);
  });

  function of(name: string): Namespace {
    const key = name.startsWith('/') ? name : `/${name}`;
    let nsp = namespaces.get(key);
    if (!nsp) {
      nsp = new Namespace(key, onListenerError, clock);
      if (options.connectGuard) nsp.use(options.connectGuard);
      namespaces.set(key, nsp);
    }
    return nsp;
  }

  const root = of('/');
  const server: SocketServer = {
    of,
    use(middleware) {
      root.use(middleware);
      return server;
    },
    on(_event, listener) {
      root.on('connection', listener);
      return server;
    },
    to: (room) => root.to(room),
    emit: (event, ...args) => root.emit(event, ...args),
    engine,
    namespaces,
    get clientsCount() {
      return engine.sessions.size;
    },
    close() {
      engine.close();
    },
  };
  return server;
}

export type { Namespace, Middleware, ServerSocket };
