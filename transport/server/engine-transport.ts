// What an Engine.IO session needs from a transport (long-polling or WebSocket).
import type { EnginePacket } from '../codec/index.ts';

export interface EngineTransportEvents {
  onPacket(packet: EnginePacket): void;
  /** A malformed frame or a protocol violation by the peer. */
  onError(reason: string, description?: unknown): void;
  /** The underlying connection is gone. */
  onClose(): void;
  /** The transport can take packets again (polling: a new GET arrived). */
  onDrain(): void;
}

export interface EngineTransport {
  readonly name: 'polling' | 'websocket';
  /** True when `send` would deliver now. */
  readonly writable: boolean;
  events: EngineTransportEvents;
  send(packets: EnginePacket[]): void;
  /** Deliver what is pending, then end the connection. */
  close(): void;
  /** Stop using this transport without telling the peer (after an upgrade). */
  discard(): void;
}

export const ignoreTransportEvents: EngineTransportEvents = {
  onPacket() {},
  onError() {},
  onClose() {},
  onDrain() {},
};
