// The surface a socket.io adapter (socket.io-adapter's `Adapter` and its cluster subclasses,
// e.g. @socket.io/postgres-adapter) uses, as socket.io's own Namespace and Socket present it.
// A namespace runs without an adapter (the fast in-process path) until `nsp.setAdapter()`.
//
// What the adapter reads or calls, checked against socket.io-adapter 2.5 (in-memory-adapter.js,
// cluster-adapter.js):
// - nsp.name, nsp.sockets (Map id -> socket), nsp.server.encoder.encode(packet), nsp.server.opts,
//   nsp._ids (one ack id counter per namespace, shared by the sockets' own emits), nsp._onServerSideEmit
// - socket.id, socket.client.writeToEngine(encodedPackets, opts), socket.acks (Map id -> fn,
//   called with the ack's arguments), socket.join/leave/disconnect, socket.handshake/rooms/data
import type { SocketPacket } from '../codec/index.ts';

export interface BroadcastFlags {
  local?: boolean;
  timeout?: number;
  volatile?: boolean;
  compress?: boolean;
  expectSingleResponse?: boolean;
}

export interface BroadcastOptions {
  rooms: Set<string>;
  except?: Set<string>;
  flags?: BroadcastFlags;
}

/** The part of socket.io-adapter's `Adapter` our namespace drives. */
export interface NamespaceAdapter {
  rooms: Map<string, Set<string>>;
  sids: Map<string, Set<string>>;
  init(): Promise<void> | void;
  close(): Promise<void> | void;
  serverCount(): Promise<number>;
  addAll(id: string, rooms: Set<string>): Promise<void> | void;
  del(id: string, room: string): Promise<void> | void;
  delAll(id: string): void;
  broadcast(packet: SocketPacket, opts: BroadcastOptions): void | Promise<void>;
  broadcastWithAck(
    packet: SocketPacket,
    opts: BroadcastOptions,
    clientCountCallback: (clientCount: number) => void,
    ack: (...args: unknown[]) => void,
  ): void;
  fetchSockets(opts: BroadcastOptions): Promise<unknown[]>;
  serverSideEmit(packet: unknown[]): void | Promise<void>;
}

export type AdapterFactory = (nsp: any) => NamespaceAdapter;
