// The Socket.IO layer of one Engine.IO connection: decodes frames (text packets followed by
// their binary attachments), routes them to this connection's namespaces, and closes the
// connection on the first invalid packet.
import type { IncomingMessage } from 'node:http';
import {
  decodeSocketPacket,
  encodeSocketPacket,
  isPacketValid,
  reconstructBinaryPacket,
  SocketPacketType,
  type SocketPacket,
} from '../codec/index.ts';
import type { EngineCloseReason, EngineSession } from './engine-session.ts';
import type { Namespace } from './namespace.ts';
import type { ServerSocket } from './server-socket.ts';
import type { Handshake } from './socket-types.ts';

/** Packets a client may send for a namespace before its CONNECT is answered (kept, then delivered). */
const MAX_EARLY_PACKETS = 100;

export interface SocketClientHost {
  namespaces: ReadonlyMap<string, Namespace>;
  connectTimeout: number;
  maxAttachments: number;
}

function buildHandshake(req: IncomingMessage, auth: unknown): Handshake {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const query = Object.fromEntries(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)));
  const issued = Date.now();
  return {
    headers: req.headers,
    time: new Date(issued).toString(),
    address: req.socket?.remoteAddress ?? '',
    xdomain: req.headers.origin !== undefined,
    secure: Boolean((req.socket as { encrypted?: boolean } | undefined)?.encrypted),
    issued,
    url,
    query,
    auth: auth && typeof auth === 'object' ? (auth as Record<string, unknown>) : {},
  };
}

export class SocketClient {
  private readonly sockets = new Map<string, ServerSocket>();
  /** Namespaces whose middleware is still running, with packets that arrived meanwhile. */
  private readonly connecting = new Map<string, SocketPacket[]>();
  private pendingBinary: { packet: SocketPacket; buffers: Uint8Array[] } | null = null;
  private connectTimer: NodeJS.Timeout | null;
  private closed = false;

  constructor(
    private readonly host: SocketClientHost,
    readonly session: EngineSession,
    private readonly request: IncomingMessage,
  ) {
    session.handlers = {
      onMessage: (data) => this.onData(data),
      onClose: (reason, description) => this.onClose(reason, description),
    };
    this.connectTimer = setTimeout(() => {
      if (this.sockets.size === 0 && this.connecting.size === 0) this.close();
    }, host.connectTimeout);
  }

  get id(): string {
    return this.session.id;
  }

  /** The transport in use: 'polling' or 'websocket'. */
  get transport(): string {
    return this.session.transport.name;
  }

  private onData(data: string | Uint8Array): void {
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
    if ('code' in packet) return this.fail(packet);
    if (!isPacketValid(packet)) return this.fail('invalid payload');
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
    const socket = this.sockets.get(packet.nsp);
    if (socket) return socket.onPacket(packet);
    const early = this.connecting.get(packet.nsp);
    if (early && early.length < MAX_EARLY_PACKETS) early.push(packet);
  }

  private async connect(name: string, auth: unknown): Promise<void> {
    const nsp = this.host.namespaces.get(name);
    if (!nsp) {
      this.writeFrames(encodeSocketPacket({ type: SocketPacketType.CONNECT_ERROR, nsp: name, data: { message: 'Invalid namespace' } }));
      return;
    }
    if (this.sockets.has(name) || this.connecting.has(name)) return;
    const early: SocketPacket[] = [];
    this.connecting.set(name, early);
    const outcome = await nsp.connect(this, buildHandshake(this.request, auth));
    this.connecting.delete(name);
    if (this.closed) return;
    if (outcome instanceof Error) {
      const data: Record<string, unknown> = { message: outcome.message };
      if ((outcome as { data?: unknown }).data !== undefined) data.data = (outcome as { data?: unknown }).data;
      this.writeFrames(encodeSocketPacket({ type: SocketPacketType.CONNECT_ERROR, nsp: name, data }));
      return;
    }
    if (this.connectTimer) {
      clearTimeout(this.connectTimer);
      this.connectTimer = null;
    }
    this.sockets.set(name, outcome);
    this.writeFrames(encodeSocketPacket({ type: SocketPacketType.CONNECT, nsp: name, data: { sid: outcome.id } }));
    nsp.admit(outcome);
    for (const packet of early) outcome.onPacket(packet);
  }

  /** @internal */
  writeFrames(frames: readonly [string, ...Uint8Array[]]): void {
    for (const frame of frames) this.session.send(frame);
  }

  /** @internal */
  removeSocket(socket: ServerSocket): void {
    if (this.sockets.get(socket.nsp.name) === socket) this.sockets.delete(socket.nsp.name);
  }

  /** Ends the whole connection (every namespace on it). */
  close(): void {
    this.session.close('forced close');
  }

  private onClose(reason: EngineCloseReason, description?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.pendingBinary = null;
    for (const socket of [...this.sockets.values()]) socket.onClose(reason, description);
    this.sockets.clear();
  }
}
