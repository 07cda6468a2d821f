// `nsp.to(room).except(room).emit(...)`: encodes a packet once and writes it to every target socket.
import { encodeSocketPacket, SocketPacketType } from '../codec/index.ts';
import type { Namespace } from './namespace.ts';
import type { ServerSocket } from './server-socket.ts';

export class BroadcastOperator {
  constructor(
    private readonly nsp: Namespace,
    private readonly rooms: ReadonlySet<string> = new Set(),
    private readonly exceptRooms: ReadonlySet<string> = new Set(),
    private readonly exceptSocketId: string | null = null,
  ) {}

  to(room: string | string[]): BroadcastOperator {
    const rooms = new Set(this.rooms);
    for (const r of Array.isArray(room) ? room : [room]) rooms.add(r);
    return new BroadcastOperator(this.nsp, rooms, this.exceptRooms, this.exceptSocketId);
  }

  in(room: string | string[]): BroadcastOperator {
    return this.to(room);
  }

  except(room: string | string[]): BroadcastOperator {
    const except = new Set(this.exceptRooms);
    for (const r of Array.isArray(room) ? room : [room]) except.add(r);
    return new BroadcastOperator(this.nsp, this.rooms, except, this.exceptSocketId);
  }

  /** The sockets this operator targets, in this process. */
  sockets(): ServerSocket[] {
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
    if (typeof args[args.length - 1] === 'function') {
      throw new Error('acknowledgements are not supported when broadcasting');
    }
    const frames = encodeSocketPacket({ type: SocketPacketType.EVENT, nsp: this.nsp.name, data: [event, ...args] });
    for (const socket of this.sockets()) socket.writeFrames(frames);
    return true;
  }

  disconnectSockets(close = false): void {
    for (const socket of this.sockets()) socket.disconnect(close);
  }
}
