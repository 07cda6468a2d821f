// The request gate (Host, Origin; request-gate.ts) as the first Hono middleware of the root app,
// in front of every HTTP way in: /api, /mcp, artifacts and the web UI. Behind @hono/node-server
// it judges the raw Node request (`c.env.incoming`: the request target exactly as sent); under
// `app.request()` (tests, no socket) it judges the fetch Request, whose URL authority stands in
// for a missing Host header. A refused request gets the seed 001 envelope and reaches no handler.
// Socket.IO requests never get here: the Engine.IO server gates them with `engineAllowRequest`.
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { hasBrokenEscape, judgeNodeRequest, pathOf, type GateLog, type GateRefusal } from './node-gate.ts';
import { gateInputOf, gateRefusalBody, type RequestGate } from './request-gate.ts';

const GATED_HEADERS = ['host', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest'] as const;

/** The verdict on a fetch Request (no raw target to judge beyond its path's escapes). */
export function judgeWebRequest(gate: RequestGate, request: Request): GateRefusal | null {
  const url = new URL(request.url);
  const headers: Record<string, string | undefined> = {};
  for (const name of GATED_HEADERS) headers[name] = request.headers.get(name) ?? undefined;
  headers.host ??= url.host;
  const verdict = gate.check(gateInputOf(request.method, headers));
  if (!verdict.ok) return { status: verdict.status, body: gateRefusalBody(verdict) };
  if (hasBrokenEscape(url.pathname)) {
    return badRequest('the request path has a malformed percent-escape', 'malformed_path');
  }
  return null;
}

/** A 400 envelope of the gate's own (the target's syntax, not Host or Origin). */
export function badRequest(
  message: string,
  reason: 'malformed_path' | 'malformed_target' | 'host_malformed',
): GateRefusal {
  const error = { code: 'BAD_REQUEST', message, details: { reason } };
  return { status: 400, body: JSON.stringify({ ok: false, error }) };
}

/** The refusal as sent: never cached, and the connection closed (its body is never read). */
export function refusalResponse(refusal: GateRefusal): Response {
  return new Response(refusal.body, {
    status: refusal.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' },
  });
}

export const reasonOf = (refusal: GateRefusal): unknown => JSON.parse(refusal.body).error.details?.reason;

export function requestGateMiddleware(gate: RequestGate, log?: GateLog): MiddlewareHandler {
  return async function requestGate(c, next) {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const refusal = incoming ? judgeNodeRequest(gate, incoming) : judgeWebRequest(gate, c.req.raw);
    if (refusal === null) return next();
    const path = incoming ? pathOf(incoming.url) : pathOf(new URL(c.req.url).pathname);
    log?.({ event: 'request_refused', method: c.req.method, path, status: refusal.status, reason: reasonOf(refusal) });
    // The body is never read: close the connection rather than parse its rest as a next request.
    incoming?.resume();
    return refusalResponse(refusal);
  };
}
