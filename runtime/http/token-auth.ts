// The token middleware (seed 001 §0.3 UNAUTHORIZED), a factory mounted by path on the route groups
// that need it: `app.use('/api/*', tokenAuth(...))`, `mcp.use('/mcp/*', ...)`. It knows nothing of
// routes; what is open (artifact uploads with their signed token, downloads by capability id, CORS
// preflights answered by the CORS middleware) is registered before it. With no token configured
// nothing is asked for. The compare is the one of transport/mimo/access-token-check.ts.
import type { Context, MiddlewareHandler } from 'hono';
import { presentedToken, sameToken, TOKEN_HEADER, tokenRequired } from '../../transport/mimo/access-token-check.ts';
import { errorResponse } from './envelope-response.ts';

export { TOKEN_HEADER } from '../../transport/mimo/access-token-check.ts';

/** Why a request was refused: no token at all, or a wrong one. */
export type TokenRefusal = 'missing' | 'invalid';

export interface TokenAuthOptions {
  token: string | undefined;
  /** A query parameter that may carry the token too (a page opened by a one-click URL: the Stately bridge). */
  query?: string;
  /** The refusal in the mount's own format (default: the seed 001 envelope, 401). */
  refuse?: (c: Context, reason: TokenRefusal) => Response | Promise<Response>;
}

export const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="mimo"' };

const envelopeRefusal = (c: Context, reason: TokenRefusal) =>
  errorResponse(
    c,
    {
      code: 'UNAUTHORIZED',
      message:
        reason === 'missing'
          ? `missing token: send "Authorization: Bearer <token>" or "${TOKEN_HEADER}: <token>"`
          : 'invalid token',
    },
    401,
    BEARER_CHALLENGE,
  );

export function tokenAuth(options: TokenAuthOptions): MiddlewareHandler {
  const { token } = options;
  const refuse = options.refuse ?? envelopeRefusal;
  return async function tokenAuthMiddleware(c, next) {
    if (!tokenRequired(token)) return next();
    const inQuery = options.query ? c.req.query(options.query) || undefined : undefined;
    const given = presentedToken(c.req.header('Authorization'), c.req.header(TOKEN_HEADER)) ?? inQuery;
    if (sameToken(given, token)) return next();
    return refuse(c, given === undefined ? 'missing' : 'invalid');
  };
}
