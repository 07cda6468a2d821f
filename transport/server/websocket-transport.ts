// Engine.IO over one WebSocket: one Engine.IO packet per frame, binary messages as binary frames.
// The ws listeners are shared module-level functions (no closures per connection).
import type { Socket } from 'node:net';
import type { WebSocket, RawData } from 'ws';
import { decodeEnginePacket, encodeEnginePacket, type EnginePacket } from '../codec/index.ts';
import type { EngineTransport, TransportOwner } from './engine-transport.ts';

const TRANSPORT = Symbol('mimo.transport');
type TaggedWebSocket = WebSocket & { [TRANSPORT]: WebSocketTransport };

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function onWsMessage(this: TaggedWebSocket, data: RawData, isBinary: boolean): void {
  this[TRANSPORT].onFrame(data, isBinary);
}
function onWsClose(this: TaggedWebSocket): void {
  this[TRANSPORT].onSocketClose();
}
function onWsError(this: TaggedWebSocket, error: Error): void {
  this[TRANSPORT].onSocketError(error);
}

type Utf8Write = (this: Buffer, text: string, offset: number) => number;
const directUtf8Write = (Buffer.prototype as unknown as { utf8Write?: Utf8Write }).utf8Write;
/** Buffer's own UTF-8 writer when the runtime has it (it skips `write`'s argument parsing), else `write`. */
const writeUtf8: (frame: Buffer, text: string, offset: number) => void =
  typeof directUtf8Write === 'function'
    ? (frame, text, offset) => directUtf8Write.call(frame, text, offset)
    : (frame, text, offset) => frame.write(text, offset);

/** An unmasked, final WebSocket text frame (RFC 6455 §5.2) holding `'4' + data`. */
export function frameTextMessage(data: string): Buffer {
  const payloadLength = Buffer.byteLength(data) + 1;
  const headerLength = payloadLength < 126 ? 2 : payloadLength < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + payloadLength);
  frame[0] = 0x81;
  if (headerLength === 2) {
    frame[1] = payloadLength;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(payloadLength, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(payloadLength / 2 ** 32), 2);
    frame.writeUInt32BE(payloadLength >>> 0, 6);
  }
  frame[headerLength] = 0x34; // '4': Engine.IO message
  writeUtf8(frame, data, headerLength + 1);
  return frame;
}

export class WebSocketTransport implements EngineTransport {
  readonly name = 'websocket' as const;
  owner: TransportOwner | null = null;
  private closed = false;
  /** The TCP socket corked for this tick's frames, or null. */
  private corked: Socket | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly maxPayload: number,
  ) {
    (ws as TaggedWebSocket)[TRANSPORT] = this;
    // ws calls listeners with `this` bound to the socket, which carries this transport.
    ws.on('message', onWsMessage as (this: WebSocket, data: RawData, isBinary: boolean) => void);
    ws.on('close', onWsClose as (this: WebSocket) => void);
    ws.on('error', onWsError as (this: WebSocket, error: Error) => void);
  }

  get writable(): boolean {
    return !this.closed && this.ws.readyState === 1;
  }

  /** @internal */
  onFrame(data: RawData, isBinary: boolean): void {
    if (this.closed || !this.owner) return;
    const packet = decodeEnginePacket(isBinary ? toBytes(data) : data.toString(), this.maxPayload);
    if (packet.type === 'error') this.owner.onTransportError(this, 'parse error', packet);
    else this.owner.onTransportPacket(this, packet);
  }

  /** @internal */
  onSocketClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.owner?.onTransportClose(this);
  }

  /** @internal */
  onSocketError(error: Error): void {
    if (this.closed) return;
    this.owner?.onTransportError(this, 'transport error', error);
  }

  send(packets: EnginePacket[]): void {
    for (const packet of packets) this.sendOne(packet);
  }

  sendOne(packet: EnginePacket): void {
    if (this.writable) this.ws.send(encodeEnginePacket(packet, true));
  }

  /**
   * Fast path for a text message packet: frames `'4' + data` itself and writes header and
   * payload in one buffer with one `write` (ws's sender corks two writes into a writev).
   * Safe because this server never enables permessage-deflate nor sends Blobs, so ws's
   * sender never queues: frames from both paths reach the socket in call order.
   *
   * Frames written in the same tick leave in one writev: the first corks the TCP socket and
   * uncorks it on the next tick (as Node's docs suggest for several writes). Each Engine.IO
   * packet is still its own WebSocket frame, as Engine.IO v4 requires; only the number of
   * syscalls changes (the runtime dispatches several tasks' actions to one plugin in one tick).
   * ws's own writes (pings, close) go through the same corked socket, so the order holds.
   */
  sendText(data: string): void {
    if (!this.writable) return;
    const socket = (this.ws as unknown as { _socket?: Socket })._socket;
    if (!socket) {
      this.ws.send('4' + data);
      return;
    }
    if (this.corked === null) {
      this.corked = socket;
      socket.cork();
      process.nextTick(uncork, this);
    }
    socket.write(frameTextMessage(data));
  }

  /** @internal Sends what this tick wrote (also before the socket is dropped). */
  uncork(): void {
    const socket = this.corked;
    if (socket === null) return;
    this.corked = null;
    socket.uncork();
  }

  close(): void {
    if (!this.closed) this.ws.close();
  }

  discard(): void {
    this.closed = true;
    this.owner = null;
    this.uncork();
    this.ws.terminate();
  }
}

function uncork(transport: WebSocketTransport): void {
  transport.uncork();
}
