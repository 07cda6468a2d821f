// The Socket.IO layer of one Engine.IO connection: decodes frames (text packets followed by
// their binary attachments), routes them to this connection's namespaces, and closes the
// connection on the first invalid packet.
import type { TransportClock } from './transport-clock.ts';
import type { IncomingMessage } from 'node:http';
import {
  decodeSocketPacket,
  encodeSocketPacket,
  reconstructBinaryPacket,
  SocketPacketType,
  type SocketPacket,
} from '../codec/index.ts';
import type { EngineCloseReason, EngineSession, EngineSessionHandlers } from './engine-session.ts';
import type { Namespace } from './namespace.ts';
import type { ServerSocket } from './server-socket.ts';
import type { Handshake } from './socket-types.ts';

/** Packets a client may send for a namespace before its CONNECT is answered (kept, then delivered). */
const MAX_EARLY_PACKETS = 100;

export interface SocketClientHost {
  namespaces: ReadonlyMap<string, Namespace>;
  clock: TransportClock;
  connectTimeout: number;
  maxAttachments: number;
}

/** What a connection keeps of its opening HTTP request (the request itself is not retained). */
export interface ConnectionInfo {
  headers: IncomingMessage['headers'];
  url: string;
  address: string;
  secure: boolean;
}

/** Headers of the WebSocket/HTTP mechanics that no handler needs after the handshake. */
const DROPPED_HEADERS = new Set([
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
]);

function connectionInfoOf(req: IncomingMessage): ConnectionInfo {
  const headers: IncomingMessage['headers'] = {};
  for (const [name, value] of Object.entries(req.headers)) if (!DROPPED_HEADERS.has(name)) headers[name] = value;
  return {
    headers,
    url: req.url ?? '',
    address: req.socket?.remoteAddress ?? '',
    secure: Boolean((req.socket as { encrypted?: boolean } | undefined)?.encrypted),
  };
}

export class SocketClient implements EngineSessionHandlers {
  /** This connection's sockets by namespace: nearly always one, so it lives in a field. */
  private first: ServerSocket | null = null;
  private more: Map<string, ServerSocket> | null = null;
  /** Namespaces whose middleware is still running, with packets that arrived meanwhile. */
  private connecting: Map<string, SocketPacket[]> | null = null;
  private pendingBinary: { packet: SocketPacket; buffers: Uint8Array[] } | null = null;
  private connectTimer: unknown;
  private closed = false;
  readonly info: ConnectionInfo;

  constructor(
    private readonly host: SocketClientHost,
    readonly session: EngineSession,
    request: IncomingMessage,
  ) {
    this.info = connectionInfoOf(request);
    this.connectTimer = host.clock.setTimeout(() => onConnectTimeout(this), host.connectTimeout);
  }

  get id(): string {
    return this.session.id;
  }

  /** The transport in use: 'polling' or 'websocket'. */
  get transport(): string {
    return this.session.transport.name;
  }

  /** @internal Engine.IO message: a Socket.IO packet, or one of its binary attachments. */
  onMessage(data: string | Uint8Array): void {
    if (typeof data !== 'string') {
      const pending = this.pendingBinary;
      if (!pending) return this.fail('binary data without a packet');
      pending.buffers.push(data);
      if (pending.buffers.length < (pending.packet.attachments ?? 0)) return;
      this.pendingBinary = null;
      const packet = reconstructBinaryPacket(pending.packet, pending.buffers);
      if ('code' in packet) return this.fail(packet);
      return this.route(packet);
    }
    if (this.pendingBinary) return this.fail('text packet while attachments were pending');
    const packet = decodeSocketPacket(data, { maxAttachments: this.host.maxAttachments });
    // decodeSocketPacket only returns packets that satisfy isPacketValid.
    if ('code' in packet) return this.fail(packet);
    const binary = packet.type === SocketPacketType.BINARY_EVENT || packet.type === SocketPacketType.BINARY_ACK;
    if (binary && (packet.attachments ?? 0) > 0) {
      this.pendingBinary = { packet, buffers: [] };
      return;
    }
    this.route(packet);
  }

  private fail(description: unknown): void {
    this.session.terminate('parse error');
    void description;
  }

  private route(packet: SocketPacket): void {
    if (packet.type === SocketPacketType.CONNECT) {
      void this.connect(packet.nsp, packet.data);
      return;
    }
    const socket = this.socketOf(packet.nsp);
    if (socket) return socket.onPacket(packet);
    const early = this.connecting?.get(packet.nsp);
    if (early && early.length < MAX_EARLY_PACKETS) early.push(packet);
  }

  private async connect(name: string, auth: unknown): Promise<void> {
    const nsp = this.host.namespaces.get(name);
    if (!nsp) {
      this.writeFrames(
        encodeSocketPacket({ type: SocketPacketType.CONNECT_ERROR, nsp: name, data: { message: 'Invalid namespace' } }),
      );
      return;
    }
    if (this.socketOf(name) || this.connecting?.has(name)) return;
    const early: SocketPacket[] = [];
    (this.connecting ??= new Map()).set(name, early);
    const outcome = await nsp.connect(this, auth);
    this.connecting.delete(name);
    if (this.connecting.size === 0) this.connecting = null;
    if (this.closed) return;
    if (outcome instanceof Error) {
      const data: Record<string, unknown> = { message: outcome.message };
      if ((outcome as { data?: unknown }).data !== undefined) data.data = (outcome as { data?: unknown }).data;
      this.writeFrames(encodeSocketPacket({ type: SocketPacketType.CONNECT_ERROR, nsp: name, data }));
      return;
    }
    if (this.connectTimer) {
      this.host.clock.clearTimeout(this.connectTimer);
      this.connectTimer = null;
    }
    if (!this.first) this.first = outcome;
    else (this.more ??= new Map()).set(name, outcome);
    this.writeFrames(encodeSocketPacket({ type: SocketPacketType.CONNECT, nsp: name, data: { sid: outcome.id } }));
    nsp.admit(outcome);
    for (const packet of early) outcome.onPacket(packet);
  }

  private socketOf(nsp: string): ServerSocket | undefined {
    if (this.first?.nsp.name === nsp) return this.first;
    return this.more?.get(nsp);
  }

  /** Namespaces this connection has joined. */
  socketCount(): number {
    return (this.first ? 1 : 0) + (this.more?.size ?? 0);
  }

  /** socket.io's name for writeFrames, used by adapters: `encodedPackets` come from `nsp.server.encoder`. */
  writeToEngine(encodedPackets: readonly [string, ...Uint8Array[]], _opts?: unknown): void {
    this.writeFrames(encodedPackets);
  }

  /** @internal */
  writeFrames(frames: readonly [string, ...Uint8Array[]]): void {
    for (const frame of frames) this.session.send(frame);
  }

  /** @internal */
  removeSocket(socket: ServerSocket): void {
    if (this.first === socket) this.first = null;
    else if (this.more?.get(socket.nsp.name) === socket) this.more.delete(socket.nsp.name);
  }

  /** @internal connectTimeout: no namespace joined in time. */
  closeIfIdle(): void {
    this.connectTimer = null;
    if (this.socketCount() === 0 && !this.connecting) this.close();
  }

  /** Sends DISCONNECT for every namespace joined, then closes the connection (socket.io's `_disconnect`). */
  disconnectAll(): void {
    const sockets = [...(this.first ? [this.first] : []), ...(this.more?.values() ?? [])];
    for (const socket of sockets)
      this.writeFrames(encodeSocketPacket({ type: SocketPacketType.DISCONNECT, nsp: socket.nsp.name }));
    this.close();
  }

  /** Ends the whole connection (every namespace on it). */
  close(): void {
    this.session.close('forced close');
  }

  /** @internal */
  onClose(reason: EngineCloseReason, description?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (this.connectTimer) this.host.clock.clearTimeout(this.connectTimer);
    this.pendingBinary = null;
    const sockets = [...(this.first ? [this.first] : []), ...(this.more?.values() ?? [])];
    this.first = null;
    this.more = null;
    for (const socket of sockets) socket.onClose(reason, description);
  }
}

function onConnectTimeout(client: SocketClient): void {
  client.closeIfIdle();
}
