// A Socket.IO namespace: connect-time middleware, the connected sockets, and its rooms.
import { systemTransportClock, type TransportClock } from './transport-clock.ts';
import { randomBytes } from 'node:crypto';
import { encodeSocketPacket, type SocketPacket } from '../codec/index.ts';
import type { AdapterFactory, NamespaceAdapter } from './adapter-surface.ts';
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
  private serverSideListeners: Map<string, Array<(...args: any[]) => unknown>> | null = null;
  /** A socket.io adapter (e.g. across nodes), or null: rooms and broadcasts stay in this process. */
  adapter: NamespaceAdapter | null = null;
  /** What a socket.io adapter reads from `nsp.server` (see adapter-surface.ts). */
  readonly server = {
    encoder: { encode: (packet: SocketPacket) => encodeSocketPacket(packet) },
    opts: {} as Record<string, unknown>,
  };
  /** Ack ids, one counter per namespace as in socket.io: broadcast acks and a socket's own acks never collide. */
  _ids = 0;

  constructor(
    readonly name: string,
    private readonly onListenerError: ListenerErrorHandler,
    /** Times acks (a socket's `timeout(ms)` emits, broadcast acks). */
    readonly clock: TransportClock = systemTransportClock,
  ) {}

  use(middleware: Middleware): this {
    this.middlewares.push(middleware);
    return this;
  }

  on(event: 'connection' | 'connect', listener: ConnectionListener): this;
  /** Any other event: sent by another node with `serverSideEmit` (through the adapter). */
  on(event: string, listener: (...args: any[]) => unknown): this;
  on(event: string, listener: (...args: any[]) => unknown): this {
    if (event === 'connection' || event === 'connect') {
      this.connectionListeners.push(listener as ConnectionListener);
      return this;
    }
    this.serverSideListeners ??= new Map();
    const list = this.serverSideListeners.get(event);
    if (list) list.push(listener);
    else this.serverSideListeners.set(event, [listener]);
    return this;
  }

  /**
   * Uses a socket.io adapter from now on (`createAdapter(pool)` of @socket.io/postgres-adapter,
   * or any adapter built on socket.io-adapter): the sockets and rooms already here are handed to it.
   */
  async setAdapter(factory: AdapterFactory): Promise<NamespaceAdapter> {
    const adapter = factory(this);
    for (const id of this.sockets.keys()) await adapter.addAll(id, new Set([id]));
    for (const [room, ids] of this.rooms) for (const id of ids) await adapter.addAll(id, new Set([room]));
    this.adapter = adapter;
    await adapter.init();
    return adapter;
  }

  /** Sends an event to the other nodes' namespaces (socket.io's `serverSideEmit`); needs an adapter. */
  serverSideEmit(event: string, ...args: unknown[]): void {
    if (!this.adapter) throw new Error('serverSideEmit needs an adapter (nsp.setAdapter)');
    void this.adapter.serverSideEmit([event, ...args]);
  }

  /** @internal Called by the adapter with an event another node sent. */
  _onServerSideEmit(args: unknown[]): void {
    const [event, ...rest] = args as [string, ...unknown[]];
    for (const listener of this.serverSideListeners?.get(event) ?? []) {
      try {
        const result = listener(...rest);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>).then(undefined, (error) =>
            this.reportListenerError(error, event, 'server-side'),
          );
        }
      } catch (error) {
        this.reportListenerError(error, event, 'server-side');
      }
    }
  }

  to(room: string | string[]): BroadcastOperator {
    return new BroadcastOperator(this, new Set(Array.isArray(room) ? room : [room]));
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
    if (this.adapter) void this.adapter.addAll(id, new Set([room]));
  }

  /** @internal */
  removeFromRoom(room: string, id: string): void {
    const ids = this.rooms.get(room);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) this.rooms.delete(room);
    if (this.adapter) void this.adapter.del(id, room);
  }

  /** @internal */
  removeSocket(socket: ServerSocket): void {
    this.sockets.delete(socket.id);
    this.adapter?.delAll(socket.id);
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
    if (this.adapter) void this.adapter.addAll(socket.id, new Set([socket.id]));
    for (const listener of this.connectionListeners) {
      try {
        const result = listener(socket);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>).then(undefined, (error) =>
            this.reportListenerError(error, 'connection', socket.id),
          );
        }
      } catch (error) {
        this.reportListenerError(error, 'connection', socket.id);
      }
    }
  }
}
