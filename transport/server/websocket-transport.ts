// Engine.IO over one WebSocket: one Engine.IO packet per frame, binary messages as binary frames.
import type { WebSocket, RawData } from 'ws';
import { decodeEnginePacket, encodeEnginePacket, type EnginePacket } from '../codec/index.ts';
import { ignoreTransportEvents, type EngineTransport, type EngineTransportEvents } from './engine-transport.ts';

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export class WebSocketTransport implements EngineTransport {
  readonly name = 'websocket' as const;
  events: EngineTransportEvents = ignoreTransportEvents;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly maxPayload: number,
  ) {
    ws.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    ws.on('close', () => this.onSocketClose());
    ws.on('error', (error) => {
      if (this.closed) return;
      this.events.onError('transport error', error);
    });
  }

  get writable(): boolean {
    return !this.closed && this.ws.readyState === 1;
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    const input = isBinary ? toBytes(data) : data.toString();
    const packet = decodeEnginePacket(input, this.maxPayload);
    if (packet.type === 'error') {
      this.events.onError('parse error', packet);
      return;
    }
    this.events.onPacket(packet);
  }

  private onSocketClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.events.onClose();
  }

  send(packets: EnginePacket[]): void {
    for (const packet of packets) this.sendOne(packet);
  }

  sendOne(packet: EnginePacket): void {
    if (!this.writable) return;
    this.ws.send(encodeEnginePacket(packet, true));
  }

  /** Fast path for a text message packet: avoids building a packet object. */
  sendText(data: string): void {
    if (!this.writable) return;
    this.ws.send('4' + data);
  }

  close(): void {
    if (this.closed) return;
    this.ws.close();
  }

  discard(): void {
    this.closed = true;
    this.events = ignoreTransportEvents;
    this.ws.terminate();
  }

  /** Drop the connection at once (no close handshake). */
  terminate(): void {
    this.ws.terminate();
  }
}
