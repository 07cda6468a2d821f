// Shared types of the Socket.IO server layer.
import type { IncomingHttpHeaders } from 'node:http';

export type Listener = (...args: any[]) => unknown;

export interface Handshake {
  headers: IncomingHttpHeaders;
  time: string;
  address: string;
  xdomain: boolean;
  secure: boolean;
  issued: number;
  url: string;
  query: Record<string, string>;
  auth: Record<string, unknown>;
  /** Origins of the connection's later HTTP requests (polling POSTs, the upgrade); the opening one's is `headers.origin`. Not in socket.io. */
  laterOrigins: string[];
}

/** Why a socket left its namespace; the names are socket.io's own. */
export type DisconnectReason =
  | 'transport close'
  | 'transport error'
  | 'ping timeout'
  | 'parse error'
  | 'forced close'
  | 'server shutting down'
  | 'client namespace disconnect'
  | 'server namespace disconnect';

/** The error a middleware passes to `next()` to refuse a connection. */
export interface ConnectError extends Error {
  data?: unknown;
}

/** Called when a listener throws or rejects: the server stays up and the other clients are unaffected. */
export type ListenerErrorHandler = (
  error: unknown,
  context: { namespace: string; event: string; socketId: string },
) => void;
