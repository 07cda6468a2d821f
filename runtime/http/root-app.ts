// The one Hono app behind the port: every HTTP way in, in order. The request gate first (Host,
// Origin: gate-middleware.ts), then the route groups, each with its own auth mounted by path:
// `/api/*` (the API app: CORS, its token middleware, envelopes), the extra routes (`/mcp`, with its
// own token middleware), the web UI (open: it holds no data; the page asks for the token), and
// last the API app again for everything else, so an unknown path or method gets its envelope.
// Tests call `app.request()` on it; @hono/node-server serves it, with `unparsableRequest`
// (unparsable-request.ts) for what it cannot parse.
import { Hono } from 'hono';
import { errorEnvelopeHandler } from './error-envelope.ts';
import { requestGateMiddleware } from './gate-middleware.ts';
import type { HttpEnv, HttpLog } from './http-types.ts';
import type { GateLog } from './node-gate.ts';
import type { RequestGate } from './request-gate.ts';

export interface RootAppParts {
  gate: RequestGate;
  log?: GateLog;
  /** The seed 001 API (create-http-app.ts). */
  api: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> };
  /** More route groups (MCP at /mcp). */
  routes?: Hono;
  webUi: Hono;
}

export function createRootApp(parts: RootAppParts): Hono<HttpEnv> {
  const root = new Hono<HttpEnv>();
  const toApi = (c: { req: { raw: Request }; env: unknown }) => parts.api.fetch(c.req.raw, c.env);
  root.use('*', requestGateMiddleware(parts.gate, parts.log));
  root.all('/api/*', toApi);
  if (parts.routes) root.route('/', parts.routes);
  root.route('/', parts.webUi);
  root.all('*', toApi);
  // A route group that throws (the API app answers its own) still answers with an envelope.
  root.onError(errorEnvelopeHandler(parts.log as HttpLog | undefined));
  return root;
}
