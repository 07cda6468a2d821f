// Namespace `/mimo` (seed 001 §3.1-§3.2): connect-time auth, and the rooms every socket joins.
// Frontends join `frontend`; plugins join `client:{clientId}`. Task rooms (`task:{taskId}`) are
// joined later by the runtime when a frontend subscribes to a task.
import { timingSafeEqual } from 'node:crypto';
import { MIMO_NAMESPACE, rooms, SocketAuthSchema, type SocketAuth } from '../contracts/socket-auth.ts';
import { validate } from '../contracts/validate.ts';
import type { Namespace } from '../server/namespace.ts';
import type { ServerSocket } from '../server/server-socket.ts';
import type { SocketServer } from '../server/socket-server.ts';

export interface MimoNamespaceOptions {
  /** When set, every connection must present this token in its auth payload. */
  token?: string | undefined;
}

/** What a `/mimo` socket carries in `socket.data` after it passed auth. */
export interface MimoSocketData {
  auth: SocketAuth;
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refusal(code: 'UNAUTHORIZED' | 'BAD_REQUEST', message: string, details?: unknown): Error & { data: unknown } {
  return Object.assign(new Error(message), { data: { code, message, ...(details ? { details } : {}) } });
}

export function mimoAuthOf(socket: ServerSocket): SocketAuth {
  return (socket.data as unknown as MimoSocketData).auth;
}

export function setupMimoNamespace(io: SocketServer, options: MimoNamespaceOptions = {}): Namespace {
  const nsp = io.of(MIMO_NAMESPACE);
  nsp.use((socket, next) => {
    const checked = validate(SocketAuthSchema, socket.handshake.auth);
    if (!checked.ok) {
      return next(refusal('BAD_REQUEST', `invalid auth: ${checked.error.message}`, { fieldErrors: checked.error.fieldErrors }));
    }
    if (options.token !== undefined && options.token !== '' && !sameToken(checked.value.token, options.token)) {
      return next(refusal('UNAUTHORIZED', 'missing or wrong token (set it in the auth payload: { token })'));
    }
    (socket.data as unknown as MimoSocketData).auth = checked.value;
    socket.join(checked.value.clientType === 'plugin' ? rooms.client(checked.value.clientId) : rooms.frontend);
    next();
  });
  return nsp;
}
