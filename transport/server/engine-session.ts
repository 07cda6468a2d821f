// One Engine.IO v4 session: the open handshake, server-driven heartbeat, the write buffer,
// and the polling -> WebSocket upgrade. Transport-agnostic; the server feeds it transports.
import type { TransportClock } from './transport-clock.ts';
import type { EnginePacket } from '../codec/index.ts';
import type { EngineTransport, TransportOwner } from './engine-transport.ts';
import { WebSocketTransport } from './websocket-transport.ts';

export interface EngineSessionOptions {
  /** Times the heartbeat and the upgrade (default: Node's timers). */
  clock: TransportClock;
  pingInterval: number;
  pingTimeout: number;
  maxPayload: number;
  upgradeTimeout: number;
}

export type EngineCloseReason =
  'transport close' | 'transport error' | 'ping timeout' | 'parse error' | 'forced close' | 'server shutting down';

/** The layer above (Socket.IO) as the session sees it; implemented by a class, not closures. */
export interface EngineSessionHandlers {
  onMessage(data: string | Uint8Array): void;
  onClose(reason: EngineCloseReason, description?: unknown): void;
}

const noHandlers: EngineSessionHandlers = { onMessage() {}, onClose() {} };

const MAX_SEEN_ORIGINS = 4;

export class EngineSession implements TransportOwner {
  readyState: 'open' | 'closing' | 'closed' = 'open';
  handlers: EngineSessionHandlers = noHandlers;
  /** Packets waiting for a writable transport (null when empty: most sessions never need one). */
  private buffer: EnginePacket[] | null = null;
  private heartbeat: unknown = null;
  private awaitingPong = false;
  private upgrading: WebSocketTransport | null = null;
  private upgradeTimer: unknown = null;
  private noopOnNextPoll = false;
  private closeReason: EngineCloseReason | null = null;
  /**
   * The Origins of this session's later requests (polling GETs and POSTs, the upgrade), at most
   * MAX_SEEN_ORIGINS: a browser page's polling handshake GET carries no Origin, but its POSTs (the
   * one with the CONNECT packet included) always do. Read by connect guards.
   */
  readonly laterOrigins = new Set<string>();

  /** @internal Remembers a later request's Origin (engine-server.ts, before the request is handled). */
  sawOrigin(origin: string | string[] | undefined): void {
    if (typeof origin === 'string' && this.laterOrigins.size < MAX_SEEN_ORIGINS) this.laterOrigins.add(origin);
  }

  constructor(
    readonly id: string,
    public transport: EngineTransport,
    private readonly options: EngineSessionOptions,
    /** Told once when the session has closed (the server's registry). */
    private readonly onClosed: (session: EngineSession) => void,
  ) {
    transport.owner = this;
  }

  /** Sends the open packet and starts the heartbeat. */
  open(): void {
    const upgrades = this.transport.name === 'polling' ? ['websocket'] : [];
    this.sendPacket({
      type: 'open',
      data: JSON.stringify({
        sid: this.id,
        upgrades,
        pingInterval: this.options.pingInterval,
        pingTimeout: this.options.pingTimeout,
        maxPayload: this.options.maxPayload,
      }),
    });
    this.schedulePing();
  }

  get upgraded(): boolean {
    return this.transport.name === 'websocket';
  }

  /** Sends one Engine.IO message packet (a Socket.IO frame or an attachment). */
  send(data: string | Uint8Array): void {
    if (this.readyState !== 'open') return;
    const transport = this.transport;
    if (typeof data === 'string' && this.buffer === null && transport instanceof WebSocketTransport) {
      transport.sendText(data);
      return;
    }
    this.sendPacket({ type: 'message', data });
  }

  private sendPacket(packet: EnginePacket): void {
    if (this.readyState === 'closed') return;
    (this.buffer ??= []).push(packet);
    this.flush();
  }

  private flush(): void {
    if (this.readyState === 'closed' || this.buffer === null || !this.transport.writable) return;
    const packets = this.buffer;
    this.buffer = null;
    this.transport.send(packets);
  }

  // --- TransportOwner: the current transport, or the WebSocket being probed for an upgrade.

  onTransportPacket(transport: EngineTransport, packet: EnginePacket): void {
    if (transport === this.upgrading) return this.onProbePacket(this.upgrading, packet);
    if (transport !== this.transport || this.readyState === 'closed') return;
    switch (packet.type) {
      case 'pong':
        if (this.awaitingPong) this.schedulePing();
        return;
      case 'message':
        this.handlers.onMessage(packet.data ?? '');
        return;
      case 'close':
        this.onClose('transport close');
        return;
      case 'noop':
      case 'upgrade':
        return;
      default:
        // open / ping from a client are not part of Engine.IO v4's client -> server vocabulary.
        this.onClose('parse error', `unexpected ${packet.type} packet`);
    }
  }

  onTransportError(
    transport: EngineTransport,
    reason: 'parse error' | 'transport error' | 'transport close',
    description?: unknown,
  ): void {
    if (transport === this.upgrading) return this.cancelUpgrade();
    if (transport === this.transport) this.onClose(reason, description);
  }

  onTransportClose(transport: EngineTransport): void {
    if (transport === this.upgrading) return this.cancelUpgrade();
    if (transport === this.transport) this.onClose(this.closeReason ?? 'transport close');
  }

  onTransportDrain(transport: EngineTransport): void {
    if (transport !== this.transport) return;
    if (this.noopOnNextPoll && this.upgrading) {
      this.noopOnNextPoll = false;
      transport.send([{ type: 'noop' }]);
      return;
    }
    this.flush();
  }

  // --- Heartbeat: one timer per session, alternating between "next ping" and "pong deadline".

  private schedulePing(): void {
    this.awaitingPong = false;
    if (this.heartbeat) this.options.clock.clearTimeout(this.heartbeat);
    this.heartbeat = this.options.clock.setTimeout(() => onPingDue(this), this.options.pingInterval);
  }

  /** @internal */
  ping(): void {
    this.sendPacket({ type: 'ping' });
    this.awaitingPong = true;
    this.heartbeat = this.options.clock.setTimeout(() => onPongMissed(this), this.options.pingTimeout);
  }

  // --- Upgrade: probe `2probe` -> `3probe`, noop the pending poll, then `5` switches.

  /** A WebSocket opened with this session's sid. */
  upgradeTo(candidate: WebSocketTransport): void {
    if (this.upgrading || this.upgraded || this.readyState !== 'open') {
      candidate.discard();
      return;
    }
    this.upgrading = candidate;
    candidate.owner = this;
    this.upgradeTimer = this.options.clock.setTimeout(() => onUpgradeTimeout(this), this.options.upgradeTimeout);
  }

  private onProbePacket(candidate: WebSocketTransport, packet: EnginePacket): void {
    if (packet.type === 'ping' && packet.data === 'probe') {
      candidate.sendOne({ type: 'pong', data: 'probe' });
      // Let the client's pending poll return so it can pause polling and send `5`.
      if (this.transport.writable) this.transport.send([{ type: 'noop' }]);
      else this.noopOnNextPoll = true;
    } else if (packet.type === 'upgrade' && this.readyState === 'open') {
      this.completeUpgrade(candidate);
    } else {
      this.cancelUpgrade();
    }
  }

  private completeUpgrade(next: WebSocketTransport): void {
    if (this.upgradeTimer) this.options.clock.clearTimeout(this.upgradeTimer);
    this.upgradeTimer = null;
    this.upgrading = null;
    this.noopOnNextPoll = false;
    const previous = this.transport;
    this.transport = next;
    previous.discard();
    this.flush();
  }

  /** @internal */
  cancelUpgrade(): void {
    if (this.upgradeTimer) this.options.clock.clearTimeout(this.upgradeTimer);
    this.upgradeTimer = null;
    const candidate = this.upgrading;
    this.upgrading = null;
    this.noopOnNextPoll = false;
    candidate?.discard();
  }

  // --- Closing.

  /** Server-initiated close: deliver what is buffered, then end the transport. */
  close(reason: EngineCloseReason = 'forced close'): void {
    if (this.readyState !== 'open') return;
    this.readyState = 'closing';
    this.closeReason = reason;
    if (this.heartbeat) this.options.clock.clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.cancelUpgrade();
    this.flush();
    this.transport.close();
  }

  /** Drop the connection at once, without a close handshake. */
  terminate(reason: EngineCloseReason = 'forced close'): void {
    if (this.readyState === 'closed') return;
    this.transport.discard();
    this.onClose(reason);
  }

  /** @internal */
  onClose(reason: EngineCloseReason, description?: unknown): void {
    if (this.readyState === 'closed') return;
    const peerSide = this.readyState === 'open';
    this.readyState = 'closed';
    if (this.closeReason && reason === 'transport close') reason = this.closeReason;
    if (this.heartbeat) this.options.clock.clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.cancelUpgrade();
    this.buffer = null;
    // A failure seen on our side: drop the connection without waiting for the peer.
    if (peerSide) this.transport.discard();
    const handlers = this.handlers;
    this.handlers = noHandlers;
    this.onClosed(this);
    handlers.onClose(reason, description);
  }
}

// Shared timer callbacks: the session is passed as the timer argument, so no closure per session.
function onPingDue(session: EngineSession): void {
  session.ping();
}
function onPongMissed(session: EngineSession): void {
  session.onClose('ping timeout');
}
function onUpgradeTimeout(session: EngineSession): void {
  session.cancelUpgrade();
}
