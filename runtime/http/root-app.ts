// The one Hono app behind the port: every HTTP way in, in order. The request gate first (Host,
// Origin: gate-middleware.ts), then the route groups, each with its own auth mounted by path:
// `/api/*` (the API app: CORS, its token middleware, envelopes), the extra routes (`/mcp`, with its
// own token middleware), the web UI (open: it holds no data; the page asks for the token), and
// last the API app again for everything else, so an unknown path or method gets its envelope.
// Tests call `app.request()` on it; @hono/node-server serves it through `gatedFetch`.
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { requestGateMiddleware } from './gate-middleware.ts';
import { judgeNodeRequest, pathOf, type GateLog } from './node-gate.ts';
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

export function createRootApp(parts: RootAppParts): Hono {
  const root = new Hono();
  const toApi = (c: { req: { raw: Request }; env: unknown }) => parts.api.fetch(c.req.raw, c.env);
  root.use('*', requestGateMiddleware(parts.gate, parts.log));
  root.all('/api/*', toApi);
  if (parts.routes) root.route('/', parts.routes);
  root.route('/', parts.webUi);
  root.all('*', toApi);
  return root;
}

/**
 * The node adapter's fetch: the root app, except for a request @hono/node-server cannot turn into
 * a URL (an absolute-form target, a Host that is no host name): Hono throws on reading its path
 * before any middleware runs, so the gate's verdict on the raw request answers it here.
 */
export function gatedFetch(app: () => Hono, gate: RequestGate, log?: GateLog) {
  return (request: Request, bindings: unknown): Response | Promise<Response> => {
    try {
      return app().fetch(request, bindings);
    } catch (error) {
      const env = bindings as { incoming: IncomingMessage };
      const refusal = judgeNodeRequest(gate, env.incoming) ?? {
        status: 400,
        body: JSON.stringify({ ok: false, error: { code: 'BAD_REQUEST', message: 'the request target is not a URL', details: { reason: 'malformed_target' } } }),
      };
      log?.({ event: 'request_refused', method: env.incoming.method, path: pathOf(env.incoming.url), status: refusal.status, error: String(error) });
      env.incoming.resume();
      return new Response(refusal.body, { status: refusal.status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' } });
    }
  };
}
