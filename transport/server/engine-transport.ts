// What an Engine.IO session needs from a transport (long-polling or WebSocket), and how a
// transport reports back to the session that owns it. The owner is an object with methods,
// not a bag of closures, so an idle connection costs as little memory as possible.
import type { EnginePacket } from '../codec/index.ts';

export interface TransportOwner {
  onTransportPacket(transport: EngineTransport, packet: EnginePacket): void;
  /** A malformed frame or a protocol violation by the peer. */
  onTransportError(
    transport: EngineTransport,
    reason: 'parse error' | 'transport error' | 'transport close',
    description?: unknown,
  ): void;
  /** The underlying connection is gone. */
  onTransportClose(transport: EngineTransport): void;
  /** The transport can take packets again (polling: a new GET arrived). */
  onTransportDrain(transport: EngineTransport): void;
}

export interface EngineTransport {
  readonly name: 'polling' | 'websocket';
  /** True when `send` would deliver now. */
  readonly writable: boolean;
  owner: TransportOwner | null;
  send(packets: EnginePacket[]): void;
  /** Deliver what is pending, then end the connection. */
  close(): void;
  /** Stop using this transport without telling the peer (after an upgrade, or to drop it). */
  discard(): void;
}
