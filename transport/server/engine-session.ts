// One Engine.IO v4 session: the open handshake, server-driven heartbeat, the write buffer,
// and the polling -> WebSocket upgrade. Transport-agnostic; the server feeds it transports.
import type { EnginePacket } from '../codec/index.ts';
import type { EngineTransport } from './engine-transport.ts';
import { WebSocketTransport } from './websocket-transport.ts';

export interface EngineSessionOptions {
  pingInterval: number;
  pingTimeout: number;
  maxPayload: number;
  upgradeTimeout: number;
}

export type EngineCloseReason =
  | 'transport close'
  | 'transport error'
  | 'ping timeout'
  | 'parse error'
  | 'forced close'
  | 'server shutting down';

export interface EngineSessionHandlers {
  onMessage(data: string | Uint8Array): void;
  onClose(reason: EngineCloseReason, description?: unknown): void;
}

const noHandlers: EngineSessionHandlers = { onMessage() {}, onClose() {} };

export class EngineSession {
  readyState: 'open' | 'closing' | 'closed' = 'open';
  handlers: EngineSessionHandlers = noHandlers;
  private buffer: EnginePacket[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private upgrading: WebSocketTransport | null = null;
  private upgradeTimer: NodeJS.Timeout | null = null;
  private noopOnNextPoll = false;
  private closeReason: EngineCloseReason | null = null;

  constructor(
    readonly id: string,
    public transport: EngineTransport,
    private readonly options: EngineSessionOptions,
  ) {
    this.bind(transport);
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

  get isUpgrading(): boolean {
    return this.upgrading !== null;
  }

  /** Sends one Engine.IO message packet (a Socket.IO frame or an attachment). */
  send(data: string | Uint8Array): void {
    if (this.readyState !== 'open') return;
    const transport = this.transport;
    if (typeof data === 'string' && this.buffer.length === 0 && transport instanceof WebSocketTransport) {
      transport.sendText(data);
      return;
    }
    this.sendPacket({ type: 'message', data });
  }

  private sendPacket(packet: EnginePacket): void {
    if (this.readyState === 'closed') return;
    this.buffer.push(packet);
    this.flush();
  }

  private flush(): void {
    if (this.readyState === 'closed' || this.buffer.length === 0 || !this.transport.writable) return;
    const packets = this.buffer;
    this.buffer = [];
    this.transport.send(packets);
  }

  private bind(transport: EngineTransport): void {
    transport.events = {
      onPacket: (packet) => this.onPacket(packet),
      onError: (reason, description) => this.onClose(reason === 'parse error' ? 'parse error' : 'transport error', description),
      onClose: () => this.onClose(this.closeReason ?? 'transport close'),
      onDrain: () => {
        if (this.noopOnNextPoll && this.upgrading) {
          this.noopOnNextPoll = false;
          transport.send([{ type: 'noop' }]);
          return;
        }
        this.flush();
      },
    };
  }

  private onPacket(packet: EnginePacket): void {
    if (this.readyState === 'closed') return;
    switch (packet.type) {
      case 'pong':
        this.schedulePing();
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
        // open / ping from a client are not part of Engine.IO v4's client->server vocabulary.
        this.onClose('parse error', `unexpected ${packet.type} packet`);
    }
  }

  private schedulePing(): void {
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => {
      this.sendPacket({ type: 'ping' });
      this.heartbeat = setTimeout(() => this.onClose('ping timeout'), this.options.pingTimeout);
    }, this.options.pingInterval);
  }

  /** A WebSocket opened with this session's sid: run the probe / upgrade exchange. */
  upgradeTo(candidate: WebSocketTransport): void {
    if (this.upgrading || this.upgraded || this.readyState !== 'open') {
      candidate.terminate();
      return;
    }
    this.upgrading = candidate;
    this.upgradeTimer = setTimeout(() => this.cancelUpgrade(), this.options.upgradeTimeout);
    const fail = () => this.cancelUpgrade();
    candidate.events = {
      onPacket: (packet) => {
        if (packet.type === 'ping' && packet.data === 'probe') {
          candidate.sendOne({ type: 'pong', data: 'probe' });
          // Let the client's pending poll return so it can pause polling and send `5`.
          if (this.transport.writable) this.transport.send([{ type: 'noop' }]);
          else this.noopOnNextPoll = true;
        } else if (packet.type === 'upgrade' && this.readyState === 'open') {
          this.completeUpgrade(candidate);
        } else {
          fail();
        }
      },
      onError: fail,
      onClose: fail,
      onDrain() {},
    };
  }

  private completeUpgrade(next: WebSocketTransport): void {
    if (this.upgradeTimer) clearTimeout(this.upgradeTimer);
    this.upgradeTimer = null;
    this.upgrading = null;
    this.noopOnNextPoll = false;
    const previous = this.transport;
    this.transport = next;
    this.bind(next);
    previous.discard();
    this.flush();
  }

  private cancelUpgrade(): void {
    if (this.upgradeTimer) clearTimeout(this.upgradeTimer);
    this.upgradeTimer = null;
    const candidate = this.upgrading;
    this.upgrading = null;
    this.noopOnNextPoll = false;
    candidate?.discard();
  }

  /** Server-initiated close: deliver what is buffered, then end the transport. */
  close(reason: EngineCloseReason = 'forced close'): void {
    if (this.readyState !== 'open') return;
    this.readyState = 'closing';
    this.closeReason = reason;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.cancelUpgrade();
    this.flush();
    this.transport.close();
  }

  /** Drop the connection at once, without a close handshake. */
  terminate(reason: EngineCloseReason = 'forced close'): void {
    if (this.readyState === 'closed') return;
    this.readyState = 'open';
    this.onClose(reason);
  }

  private onClose(reason: EngineCloseReason, description?: unknown): void {
    if (this.readyState === 'closed') return;
    const wasOpen = this.readyState === 'open';
    this.readyState = 'closed';
    if (this.closeReason && reason === 'transport close') reason = this.closeReason;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.cancelUpgrade();
    this.buffer = [];
    if (wasOpen) {
      // Peer-side failure: drop the connection without waiting.
      if (this.transport instanceof WebSocketTransport) this.transport.terminate();
      else this.transport.discard();
    }
    const handlers = this.handlers;
    this.handlers = noHandlers;
    handlers.onClose(reason, description);
  }
}
