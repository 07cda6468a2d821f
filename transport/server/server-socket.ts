// One client's presence in one namespace: events and acks both ways, rooms, disconnect.
import { encodeSocketPacket, SocketPacketType, type SocketPacket } from '../codec/index.ts';
import { BroadcastOperator } from './broadcast-operator.ts';
import type { Namespace } from './namespace.ts';
import type { SocketClient } from './socket-client.ts';
import type { DisconnectReason, Handshake, Listener } from './socket-types.ts';
import { AckTimeoutError, TimedEmitter } from './timed-emitter.ts';

export { AckTimeoutError, TimedEmitter };

export type AckCallback = (...args: unknown[]) => void;

const NO_ROOMS: ReadonlySet<string> = new Set();

interface TimedAck {
  callback: AckCallback;
  timer: unknown;
}

export class ServerSocket {
  connected = true;
  private joined: Set<string> | null = null;
  private userData: Record<string, unknown> | null = null;
  private readonly auth: Record<string, unknown>;
  private readonly issued: number;
  private listeners: Map<string, Listener[]> | null = null;
  /**
   * Acks awaited for this socket's own emits: the bare callback when the caller handles time
   * itself (no timer, no object per ack: the runtime's action machine owns T_ack), or the
   * callback with its timer for `timeout(ms)` emits.
   */
  private pending: Map<number, AckCallback | TimedAck> | null = null;
  private adapterAcks: Map<number, AckCallback> | null = null;

  constructor(
    readonly id: string,
    readonly nsp: Namespace,
    readonly client: SocketClient,
    auth: unknown,
  ) {
    this.auth = auth && typeof auth === 'object' && !Array.isArray(auth) ? (auth as Record<string, unknown>) : {};
    this.issued = nsp.clock.now();
  }

  /** Rooms this socket is in (its own id is an implicit room, as in socket.io). */
  get rooms(): ReadonlySet<string> {
    return this.joined ?? NO_ROOMS;
  }

  /** Free-form per-socket data for handlers (socket.io's `socket.data`). */
  get data(): Record<string, unknown> {
    return (this.userData ??= {});
  }

  set data(value: Record<string, unknown>) {
    this.userData = value;
  }

  /** The connection's request details and this namespace's auth payload, as socket.io shapes them. */
  get handshake(): Handshake {
    const info = this.client.info;
    const q = info.url.indexOf('?');
    return {
      headers: info.headers,
      time: new Date(this.issued).toString(),
      address: info.address,
      xdomain: info.headers.origin !== undefined,
      secure: info.secure,
      issued: this.issued,
      url: info.url,
      query: Object.fromEntries(new URLSearchParams(q === -1 ? '' : info.url.slice(q + 1))),
      auth: this.auth,
      laterOrigins: [...this.client.session.laterOrigins],
    };
  }

  /**
   * Acks of broadcasts, set by a socket.io adapter (`socket.acks.set(packet.id, ack)`), called
   * with the client's ack arguments. The socket's own emits keep their acks apart (with timers).
   */
  get acks(): Map<number, AckCallback> {
    return (this.adapterAcks ??= new Map());
  }

  get conn(): SocketClient {
    return this.client;
  }

  on(event: string, listener: Listener): this {
    this.listeners ??= new Map();
    const list = this.listeners.get(event);
    if (list) list.push(listener);
    else this.listeners.set(event, [listener]);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      return listener(...args);
    };
    return this.on(event, wrapped);
  }

  off(event: string, listener?: Listener): this {
    const list = this.listeners?.get(event);
    if (!list) return this;
    if (!listener) this.listeners!.delete(event);
    else
      this.listeners!.set(
        event,
        list.filter((l) => l !== listener),
      );
    return this;
  }

  listenerCount(event: string): number {
    return this.listeners?.get(event)?.length ?? 0;
  }

  /** Emits an event to this client; a function as the last argument receives the client's ack. */
  emit(event: string, ...args: unknown[]): boolean {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args.pop();
      return this.emitWithAckCallback(event, args, last as AckCallback, null);
    }
    if (!this.connected) return false;
    this.writeFrames(encodeSocketPacket({ type: SocketPacketType.EVENT, nsp: this.nsp.name, data: [event, ...args] }));
    return true;
  }

  /** Resolves with the client's first ack argument (no timeout). */
  emitWithAck(event: string, ...args: unknown[]): Promise<any> {
    return new Promise((resolve) => {
      this.emitWithAckCallback(event, args, (...response: unknown[]) => resolve(response[0]), null);
    });
  }

  timeout(ms: number): TimedEmitter {
    return new TimedEmitter(this, ms);
  }

  /** @internal */
  emitWithAckCallback(event: string, args: unknown[], callback: AckCallback, timeoutMs: number | null): boolean {
    const id = this.nsp._ids++;
    const timed = timeoutMs !== null;
    if (!this.connected) {
      if (timed) queueMicrotask(() => callback(new Error('socket has been disconnected')));
      return false;
    }
    this.pending ??= new Map();
    if (timed) {
      const timer = this.nsp.clock.setTimeout(() => {
        this.pending?.delete(id);
        callback(new AckTimeoutError());
      }, timeoutMs);
      this.pending.set(id, { callback, timer });
    } else this.pending.set(id, callback);
    this.writeFrames(
      encodeSocketPacket({ type: SocketPacketType.EVENT, nsp: this.nsp.name, id, data: [event, ...args] }),
    );
    return true;
  }

  join(room: string | string[]): void {
    for (const r of Array.isArray(room) ? room : [room]) {
      this.joined ??= new Set();
      if (this.joined.has(r)) continue;
      this.joined.add(r);
      this.nsp.addToRoom(r, this.id);
    }
  }

  leave(room: string): void {
    if (!this.joined?.delete(room)) return;
    this.nsp.removeFromRoom(room, this.id);
  }

  /** Broadcast to a room, excluding this socket. */
  to(room: string | string[]): BroadcastOperator {
    return new BroadcastOperator(this.nsp, new Set(Array.isArray(room) ? room : [room]), new Set(), this.id);
  }

  get broadcast(): BroadcastOperator {
    return new BroadcastOperator(this.nsp, new Set(), new Set(), this.id);
  }

  /** Leaves this namespace; `close` also ends the whole connection (all namespaces). */
  disconnect(close = false): this {
    if (!this.connected) return this;
    if (close) {
      // As socket.io: every namespace of the connection gets its DISCONNECT packet first (so the
      // client knows the server meant it and does not reconnect), then the connection closes.
      this.client.disconnectAll();
      return this;
    }
    this.client.writeFrames(encodeSocketPacket({ type: SocketPacketType.DISCONNECT, nsp: this.nsp.name }));
    this.onClose('server namespace disconnect');
    return this;
  }

  /** @internal */
  writeFrames(frames: readonly [string, ...Uint8Array[]]): void {
    if (this.connected) this.client.writeFrames(frames);
  }

  /** @internal */
  onPacket(packet: SocketPacket): void {
    switch (packet.type) {
      case SocketPacketType.EVENT:
      case SocketPacketType.BINARY_EVENT: {
        const data = packet.data as unknown[];
        const event = typeof data[0] === 'string' ? data[0] : String(data[0]);
        const list = this.listeners?.get(event);
        if (!list) {
          // Nobody listens: dropped, as socket.io does (an ack request stays unanswered).
          return;
        }
        const args = data.slice(1);
        if (packet.id !== undefined) args.push(this.makeAck(packet.id));
        if (list.length === 1) this.call(list[0]!, args, event);
        else for (const listener of list.slice()) this.call(listener, args, event);
        return;
      }
      case SocketPacketType.ACK:
      case SocketPacketType.BINARY_ACK: {
        const pending = packet.id === undefined ? undefined : this.pending?.get(packet.id);
        if (!pending) {
          const broadcastAck = packet.id === undefined ? undefined : this.adapterAcks?.get(packet.id);
          if (!broadcastAck) return;
          this.adapterAcks!.delete(packet.id!);
          this.call(broadcastAck, packet.data as unknown[], 'ack');
          return;
        }
        this.pending!.delete(packet.id!);
        const response = packet.data as unknown[];
        if (typeof pending === 'function') {
          this.call(pending, response, 'ack');
          return;
        }
        this.nsp.clock.clearTimeout(pending.timer);
        this.call(pending.callback, [null, ...response], 'ack');
        return;
      }
      case SocketPacketType.DISCONNECT:
        this.onClose('client namespace disconnect');
        return;
    }
  }

  private makeAck(id: number): AckCallback {
    let sent = false;
    return (...response: unknown[]) => {
      if (sent || !this.connected) return;
      sent = true;
      this.writeFrames(encodeSocketPacket({ type: SocketPacketType.ACK, nsp: this.nsp.name, id, data: response }));
    };
  }

  private dispatch(event: string, args: unknown[]): void {
    const list = this.listeners?.get(event);
    if (!list) return;
    for (const listener of list.slice()) this.call(listener, args, event);
  }

  /** Calls one listener or ack callback; a throw or a rejected promise is reported, never propagated. */
  private call(listener: Listener | AckCallback, args: unknown[], event: string): void {
    try {
      const result = listener(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(undefined, (error) => this.nsp.reportListenerError(error, event, this.id));
      }
    } catch (error) {
      this.nsp.reportListenerError(error, event, this.id);
    }
  }

  /** @internal */
  onClose(reason: DisconnectReason, description?: unknown): void {
    if (!this.connected) return;
    this.dispatch('disconnecting', [reason, description]);
    this.connected = false;
    if (this.joined) for (const room of this.joined) this.nsp.removeFromRoom(room, this.id);
    this.joined = null;
    this.nsp.removeSocket(this);
    this.client.removeSocket(this);
    if (this.pending) {
      const pending = [...this.pending.values()];
      this.pending.clear();
      for (const ack of pending) {
        if (typeof ack === 'function') continue; // untimed: the caller's own timeout settles it
        this.nsp.clock.clearTimeout(ack.timer);
        this.call(ack.callback, [new Error('socket has been disconnected')], 'ack');
      }
    }
    this.dispatch('disconnect', [reason, description]);
  }
}
