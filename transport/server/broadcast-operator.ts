// `nsp.to(room).except(room).emit(...)`: encodes a packet once and writes it to every target socket.
// With an adapter on the namespace (adapter-surface.ts), the adapter does it, on every node, and
// `timeout(ms).emit(..., ack)` gathers the acks of every client on every node, as socket.io does.
import { encodeSocketPacket, SocketPacketType } from '../codec/index.ts';
import type { BroadcastFlags, BroadcastOptions } from './adapter-surface.ts';
import type { Namespace } from './namespace.ts';
import type { ServerSocket } from './server-socket.ts';

export class BroadcastOperator {
  constructor(
    private readonly nsp: Namespace,
    private readonly rooms: ReadonlySet<string> = new Set(),
    private readonly exceptRooms: ReadonlySet<string> = new Set(),
    private readonly exceptSocketId: string | null = null,
    private readonly flags: Readonly<BroadcastFlags> = {},
  ) {}

  private with(flags: BroadcastFlags): BroadcastOperator {
    return new BroadcastOperator(this.nsp, this.rooms, this.exceptRooms, this.exceptSocketId, {
      ...this.flags,
      ...flags,
    });
  }

  /** Acks expected within `ms` (needs an adapter): the callback gets `(error, responses[])`. */
  timeout(ms: number): BroadcastOperator {
    return this.with({ timeout: ms });
  }

  /** This node's sockets only, even with an adapter. */
  get local(): BroadcastOperator {
    return this.with({ local: true });
  }

  private adapterOptions(): BroadcastOptions {
    const except = new Set(this.exceptRooms);
    if (this.exceptSocketId) except.add(this.exceptSocketId);
    return { rooms: new Set(this.rooms), except, flags: { ...this.flags } };
  }

  to(room: string | string[]): BroadcastOperator {
    const rooms = new Set(this.rooms);
    for (const r of Array.isArray(room) ? room : [room]) rooms.add(r);
    return new BroadcastOperator(this.nsp, rooms, this.exceptRooms, this.exceptSocketId, this.flags);
  }

  in(room: string | string[]): BroadcastOperator {
    return this.to(room);
  }

  except(room: string | string[]): BroadcastOperator {
    const except = new Set(this.exceptRooms);
    for (const r of Array.isArray(room) ? room : [room]) except.add(r);
    return new BroadcastOperator(this.nsp, this.rooms, except, this.exceptSocketId, this.flags);
  }

  /** The sockets this operator targets, in this process. */
  sockets(): ServerSocket[] {
    if (this.rooms.size === 1 && this.exceptRooms.size === 0 && this.exceptSocketId === null) {
      // The common lookup (one plugin's or one task's room): a room's ids are already distinct.
      const out: ServerSocket[] = [];
      for (const room of this.rooms) {
        for (const id of this.nsp.idsInRoom(room)) {
          const socket = this.nsp.sockets.get(id);
          if (socket) out.push(socket);
        }
      }
      return out;
    }
    const excluded = new Set<string>();
    for (const room of this.exceptRooms) for (const id of this.nsp.idsInRoom(room)) excluded.add(id);
    if (this.exceptSocketId) excluded.add(this.exceptSocketId);
    const out: ServerSocket[] = [];
    if (this.rooms.size === 0) {
      for (const socket of this.nsp.sockets.values()) if (!excluded.has(socket.id)) out.push(socket);
      return out;
    }
    const seen = new Set<string>();
    for (const room of this.rooms) {
      for (const id of this.nsp.idsInRoom(room)) {
        if (seen.has(id) || excluded.has(id)) continue;
        seen.add(id);
        const socket = this.nsp.sockets.get(id);
        if (socket) out.push(socket);
      }
    }
    return out;
  }

  emit(event: string, ...args: unknown[]): true {
    const adapter = this.nsp.adapter;
    if (typeof args[args.length - 1] === 'function') {
      if (!adapter) throw new Error('acknowledgements are not supported when broadcasting without an adapter');
      this.emitWithAckCallback(
        event,
        args.slice(0, -1),
        args[args.length - 1] as (error: Error | null, responses: unknown[]) => void,
      );
      return true;
    }
    if (adapter) {
      void adapter.broadcast(
        { type: SocketPacketType.EVENT, nsp: this.nsp.name, data: [event, ...args] },
        this.adapterOptions(),
      );
      return true;
    }
    // Encoded once, for the first target: a room nobody is in (a task no frontend watches) costs no encoding.
    let frames: ReturnType<typeof encodeSocketPacket> | undefined;
    for (const socket of this.sockets()) {
      frames ??= encodeSocketPacket({ type: SocketPacketType.EVENT, nsp: this.nsp.name, data: [event, ...args] });
      socket.writeFrames(frames);
    }
    return true;
  }

  /** Resolves with every client's first ack argument (all nodes); rejects on timeout. */
  emitWithAck(event: string, ...args: unknown[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      this.emit(event, ...args, (error: Error | null, responses: unknown[]) =>
        error ? reject(error) : resolve(responses),
      );
    });
  }

  /** socket.io's BroadcastOperator.emit with an ack: done when every node has counted and every client answered. */
  private emitWithAckCallback(
    event: string,
    args: unknown[],
    ack: (error: Error | null, responses: unknown[]) => void,
  ): void {
    const adapter = this.nsp.adapter!;
    if (this.flags.timeout === undefined)
      throw new Error('broadcast acks need a timeout: nsp.to(room).timeout(ms).emit(...)');
    const responses: unknown[] = [];
    let timedOut = false;
    let expectedServerCount = -1;
    let actualServerCount = 0;
    let expectedClientCount = 0;
    const clock = this.nsp.clock;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      ack(new Error('operation has timed out'), responses);
    }, this.flags.timeout);
    const checkCompleteness = () => {
      if (!timedOut && expectedServerCount === actualServerCount && responses.length === expectedClientCount) {
        clock.clearTimeout(timer);
        ack(null, responses);
      }
    };
    adapter.broadcastWithAck(
      { type: SocketPacketType.EVENT, nsp: this.nsp.name, data: [event, ...args] },
      this.adapterOptions(),
      (clientCount) => {
        expectedClientCount += clientCount;
        actualServerCount++;
        checkCompleteness();
      },
      (clientResponse) => {
        responses.push(clientResponse);
        checkCompleteness();
      },
    );
    void adapter.serverCount().then((serverCount) => {
      expectedServerCount = this.flags.local ? 1 : serverCount;
      checkCompleteness();
    });
  }

  disconnectSockets(close = false): void {
    for (const socket of this.sockets()) socket.disconnect(close);
  }
}
