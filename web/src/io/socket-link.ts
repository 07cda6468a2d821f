// The web's end of the socket (seed 001 §3): `frontend_message` out with a 5 s ack, validated
// `frontend_event` in, and connection changes as plain values. Wraps a socket.io-client Socket
// (passed in, so tests can hand it a fake) and brings it back after the server said goodbye.
import * as v from 'valibot';
import {
  FRONTEND_EVENT_EVENT,
  FrontendEventSchema,
  type FrontendEvent,
} from '../../../transport/contracts/frontend-event.ts';
import { FRONTEND_MESSAGE_EVENT, type FrontendMessage } from '../../../transport/contracts/frontend-message.ts';
import { LIVE_FRAME_EVENT, LiveFrameSchema, type LiveFrame } from '../../../transport/contracts/live-view.ts';
import { ackTimeout, toAckResult, type AckResult } from './ack.ts';

/** The part of socket.io-client's Socket this module uses. */
export interface SocketLike {
  readonly connected: boolean;
  /** False once the client gave up reconnecting by itself (server disconnect, middleware refusal). */
  readonly active: boolean;
  connect(): unknown;
  disconnect(): unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  timeout(ms: number): { emitWithAck(event: string, ...args: unknown[]): Promise<unknown> };
  io: { on(event: string, listener: (...args: any[]) => void): unknown };
}

export type LinkStatus =
  | { type: 'connected' }
  | { type: 'disconnected'; reason: string }
  | { type: 'connect_error'; code?: string; message: string }
  | { type: 'reconnect_attempt'; attempt: number };

export interface SocketLink {
  send(message: FrontendMessage): Promise<AckResult>;
  onEvent(listener: (event: FrontendEvent) => void): () => void;
  onStatus(listener: (status: LinkStatus) => void): () => void;
  /** Live view frames of a watched task; `done` acks it (call it once shown: the server sends the next one only then). */
  onLiveFrame(listener: (frame: LiveFrame, done: () => void) => void): () => void;
  readonly connected: boolean;
  connect(): void;
  close(): void;
}

export interface SocketLinkDeps {
  socket: SocketLike;
  ackTimeoutMs?: number;
  /** Delay before calling connect() again when socket.io-client will not retry by itself. */
  retryDelayMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  /** A frontend_event that does not match the contract (dropped). */
  onInvalidEvent?: (issue: string, raw: unknown) => void;
}

export function createSocketLink(deps: SocketLinkDeps): SocketLink {
  const { socket } = deps;
  const ackTimeoutMs = deps.ackTimeoutMs ?? 5000;
  const retryDelayMs = deps.retryDelayMs ?? 1500;
  const later = deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const eventListeners = new Set<(event: FrontendEvent) => void>();
  const statusListeners = new Set<(status: LinkStatus) => void>();
  const frameListeners = new Set<(frame: LiveFrame, done: () => void) => void>();
  let closed = false;
  let retryScheduled = false;

  const report = (status: LinkStatus) => statusListeners.forEach((l) => l(status));
  const retryLater = () => {
    if (closed || retryScheduled) return;
    retryScheduled = true;
    later(() => {
      retryScheduled = false;
      if (!closed && !socket.connected) socket.connect();
    }, retryDelayMs);
  };

  socket.on('connect', () => report({ type: 'connected' }));
  socket.on('disconnect', (reason: string) => {
    report({ type: 'disconnected', reason });
    // The server closing the namespace socket is final for socket.io-client; a restarted server is not.
    if (reason === 'io server disconnect') retryLater();
  });
  socket.on('connect_error', (error: Error & { data?: { code?: unknown; message?: unknown } }) => {
    const code = typeof error?.data?.code === 'string' ? error.data.code : undefined;
    const message =
      typeof error?.data?.message === 'string' ? error.data.message : (error?.message ?? 'connection failed');
    report(code === undefined ? { type: 'connect_error', message } : { type: 'connect_error', code, message });
    // A wrong token will not fix itself; anything else is worth another try.
    if (!socket.active && code !== 'UNAUTHORIZED') retryLater();
  });
  socket.io.on('reconnect_attempt', (attempt: number) => report({ type: 'reconnect_attempt', attempt }));
  socket.on(FRONTEND_EVENT_EVENT, (raw: unknown) => {
    const parsed = v.safeParse(FrontendEventSchema, raw);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      deps.onInvalidEvent?.(`${issue ? (v.getDotPath(issue) ?? '') : ''} ${issue?.message ?? 'invalid'}`.trim(), raw);
      return;
    }
    eventListeners.forEach((l) => l(parsed.output));
  });

  socket.on(LIVE_FRAME_EVENT, (raw: unknown, ack?: unknown) => {
    const done = typeof ack === 'function' ? () => (ack as () => void)() : () => {};
    const parsed = v.safeParse(LiveFrameSchema, raw);
    if (!parsed.success || frameListeners.size === 0) return done();
    let acked = false;
    const once = () => {
      if (!acked) ((acked = true), done());
    };
    frameListeners.forEach((l) => l(parsed.output, once));
  });

  return {
    onLiveFrame(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    async send(message) {
      if (!socket.connected) {
        return { ok: false, error: { code: 'UNAVAILABLE', message: 'not connected to the server', retryable: true } };
      }
      try {
        return toAckResult(await socket.timeout(ackTimeoutMs).emitWithAck(FRONTEND_MESSAGE_EVENT, message));
      } catch {
        return ackTimeout(ackTimeoutMs);
      }
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    get connected() {
      return socket.connected;
    },
    connect() {
      closed = false;
      socket.connect();
    },
    close() {
      closed = true;
      socket.disconnect();
    },
  };
}
