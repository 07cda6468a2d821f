// A Socket.IO namespace: connect-time middleware, the connected sockets, and its rooms.
import { randomBytes } from 'node:crypto';
import { BroadcastOperator } from './broadcast-operator.ts';
import { ServerSocket } from './server-socket.ts';
import type { SocketClient } from './socket-client.ts';
import type { ConnectError, ListenerErrorHandler } from './socket-types.ts';

export type Middleware = (socket: ServerSocket, next: (error?: ConnectError) => void) => void | Promise<void>;
type ConnectionListener = (socket: ServerSocket) => unknown;

export class Namespace {
  readonly sockets = new Map<string, ServerSocket>();
  private readonly rooms = new Map<string, Set<string>>();
  private readonly middlewares: Middleware[] = [];
  private readonly connectionListeners: ConnectionListener[] = [];

  constructor(
    readonly name: string,
    private readonly onListenerError: ListenerErrorHandler,
  ) {}

  use(middleware: Middleware): this {
    this.middlewares.push(middleware);
    return this;
  }

  on(event: 'connection' | 'connect', listener: ConnectionListener): this {
    this.connectionListeners.push(listener);
    return this;
  }

  to(room: string | string[]): BroadcastOperator {
    return new BroadcastOperator(this).to(room);
  }

  in(room: string | string[]): BroadcastOperator {
    return this.to(room);
  }

  except(room: string | string[]): BroadcastOperator {
    return new BroadcastOperator(this).except(room);
  }

  emit(event: string, ...args: unknown[]): true {
    return new BroadcastOperator(this).emit(event, ...args);
  }

  disconnectSockets(close = false): void {
    new BroadcastOperator(this).disconnectSockets(close);
  }

  /** Socket ids in a room; a socket's own id is an implicit room. */
  idsInRoom(room: string): Iterable<string> {
    const ids = this.rooms.get(room);
    if (ids) return ids;
    return this.sockets.has(room) ? [room] : [];
  }

  /** @internal */
  addToRoom(room: string, id: string): void {
    const ids = this.rooms.get(room);
    if (ids) ids.add(id);
    else this.rooms.set(room, new Set([id]));
  }

  /** @internal */
  removeFromRoom(room: string, id: string): void {
    const ids = this.rooms.get(room);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) this.rooms.delete(room);
  }

  /** @internal */
  removeSocket(socket: ServerSocket): void {
    this.sockets.delete(socket.id);
  }

  /** @internal */
  reportListenerError(error: unknown, event: string, socketId: string): void {
    this.onListenerError(error, { namespace: this.name, event, socketId });
  }

  /** @internal Runs the middleware chain; resolves with the socket or the refusal. */
  async connect(client: SocketClient, auth: unknown): Promise<ServerSocket | ConnectError> {
    const socket = new ServerSocket(randomBytes(15).toString('base64url'), this, client, auth);
    for (const middleware of this.middlewares) {
      const error = await new Promise<ConnectError | undefined>((resolve) => {
        try {
          const result = middleware(socket, (err) => resolve(err));
          if (result && typeof result.then === 'function') {
            result.then(undefined, (err: unknown) => resolve(err instanceof Error ? err : new Error(String(err))));
          }
        } catch (err) {
          resolve(err instanceof Error ? err : new Error(String(err)));
        }
      });
      if (error) return error;
    }
    return socket;
  }

  /** @internal The socket passed its middleware and the client got its CONNECT reply. */
  admit(socket: ServerSocket): void {
    this.sockets.set(socket.id, socket);
    for (const listener of this.connectionListeners) {
      try {
        const result = listener(socket);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>).then(undefined, (error) => this.reportListenerError(error, 'connection', socket.id));
        }
      } catch (error) {
        this.reportListenerError(error, 'connection', socket.id);
      }
    }
  }
}
