// Namespace `/mimo` (seed 001 §3.1-§3.2): connect-time auth, and the rooms every socket joins.
// Frontends join `frontend`; plugins join `client:{clientId}`. Task rooms (`task:{taskId}`) are
// joined later by the runtime when a frontend subscribes to a task.
import { DEFAULT_EXTENSION_ID, extensionOrigin } from '../contracts/extension-identity.ts';
import { MIMO_NAMESPACE, rooms, SocketAuthSchema, type SocketAuth } from '../contracts/socket-auth.ts';
import { validate } from '../contracts/validate.ts';
import { sameToken, tokenRequired } from './access-token-check.ts';
import type { Namespace } from '../server/namespace.ts';
import type { ServerSocket } from '../server/server-socket.ts';
import type { SocketServer } from '../server/socket-server.ts';
import { fromBrowser } from './plugin-caller.ts';

export interface MimoNamespaceOptions {
  /** When set, every connection must present this token in its auth payload. */
  token?: string | undefined;
  /**
   * Who may register as `clientType: "plugin"`, by the Origin of the connection's opening
   * request. Default: no Origin (a non-browser client, e.g. a test's fake plugin) or the pinned
   * extension's `chrome-extension://` origin. A web page (any http(s) Origin, the web UI's own
   * included) can never pose as the extension, token or not. Whatever this says, a request with
   * no Origin but with Fetch Metadata (`Sec-Fetch-*`: a browser page) is refused as a plugin.
   */
  isPluginOrigin?: (origin: string | undefined) => boolean;
}

const defaultPluginOrigin = (origin: string | undefined) =>
  origin === undefined || origin === extensionOrigin(DEFAULT_EXTENSION_ID);

/** What a `/mimo` socket carries in `socket.data` after it passed auth. */
export interface MimoSocketData {
  auth: SocketAuth;
}

/** A connect guard for every namespace of a server (SocketServerOptions.connectGuard): the token in the CONNECT auth payload. */
export function tokenGuard(
  token: string | undefined,
): (socket: ServerSocket, next: (error?: Error & { data?: unknown }) => void) => void {
  return (socket, next) => {
    if (!tokenRequired(token)) return next();
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    if (sameToken(auth?.token, token)) return next();
    next(refusal('UNAUTHORIZED', 'missing or wrong token (set it in the auth payload: { token })'));
  };
}

function refusal(
  code: 'UNAUTHORIZED' | 'BAD_REQUEST' | 'FORBIDDEN',
  message: string,
  details?: unknown,
): Error & { data: unknown } {
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
      return next(
        refusal('BAD_REQUEST', `invalid auth: ${checked.error.message}`, { fieldErrors: checked.error.fieldErrors }),
      );
    }
    if (tokenRequired(options.token) && !sameToken(checked.value.token, options.token)) {
      return next(refusal('UNAUTHORIZED', 'missing or wrong token (set it in the auth payload: { token })'));
    }
    if (checked.value.clientType === 'plugin') {
      const headers = socket.handshake.headers;
      const origin = typeof headers.origin === 'string' ? headers.origin : undefined;
      const isPluginOrigin = options.isPluginOrigin ?? defaultPluginOrigin;
      // Every request of the connection counts: a page's polling POSTs carry its Origin even when
      // the opening GET did not.
      if (!isPluginOrigin(origin) || !(socket.handshake.laterOrigins ?? []).every((later) => isPluginOrigin(later))) {
        return next(
          refusal(
            'FORBIDDEN',
            'only the Mimo extension may connect as a plugin (its Origin is not an allowed chrome-extension:// origin)',
          ),
        );
      }
      // No Origin but Fetch Metadata: a browser page's same-origin request (e.g. a polling
      // handshake opened by hand by a script on the web UI's origin), not a program (plugin-caller.ts).
      if (origin === undefined && fromBrowser(headers)) {
        return next(
          refusal(
            'FORBIDDEN',
            "only the Mimo extension may connect as a plugin (a browser page without the extension's Origin cannot)",
          ),
        );
      }
    }
    (socket.data as unknown as MimoSocketData).auth = checked.value;
    socket.join(checked.value.clientType === 'plugin' ? rooms.client(checked.value.clientId) : rooms.frontend);
    next();
  });
  return nsp;
}
