// The request gate's verdict on a raw Node request: Host and Origin (request-gate.ts), then the
// request target's own syntax (origin-form only; a broken percent-escape is a 400 envelope, not
// the empty 500 a handler's decodeURIComponent would give). Used by the Hono gate middleware
// (gate-middleware.ts) for HTTP, by the Engine.IO server's `allowRequest` for every Socket.IO
// polling request and WebSocket upgrade, and by the Stately bridge's upgrade.
import type { IncomingMessage } from 'node:http';
import { gateInputOf, gateRefusalBody, type GateVerdict, type RequestGate } from './request-gate.ts';

export type GateLog = (entry: { event: string; [key: string]: unknown }) => void;

export type GateRefusal = { status: number; body: string };

/** The path of a request target without its query (never log the query: it may carry a token). */
export function pathOf(target: string | undefined): string {
  const url = target ?? '/';
  const q = url.search(/[?#]/);
  return (q === -1 ? url : url.slice(0, q)).slice(0, 300);
}

export function hasBrokenEscape(path: string): boolean {
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** The verdict on a raw request, including the target's own syntax. */
export function judgeNodeRequest(gate: RequestGate, req: IncomingMessage): GateRefusal | null {
  const verdict: GateVerdict = gate.check(gateInputOf(req.method, req.headers));
  if (!verdict.ok) return { status: verdict.status, body: gateRefusalBody(verdict) };
  const target = req.url ?? '';
  if (!target.startsWith('/') && !(target === '*' && req.method === 'OPTIONS')) {
    // Absolute-form targets (`GET http://other.example/...`) are for proxies; we are not one.
    return {
      status: 400,
      body: JSON.stringify({
        ok: false,
        error: {
          code: 'BAD_REQUEST',
          message: 'the request target must be a path (origin-form)',
          details: { reason: 'malformed_target' },
        },
      }),
    };
  }
  if (hasBrokenEscape(pathOf(req.url))) {
    return {
      status: 400,
      body: JSON.stringify({
        ok: false,
        error: {
          code: 'BAD_REQUEST',
          message: 'the request path has a malformed percent-escape',
          details: { reason: 'malformed_path' },
        },
      }),
    };
  }
  return null;
}

/** The Engine.IO server's `allowRequest`: same gate, same answers. */
export function engineAllowRequest(gate: RequestGate, log?: GateLog): (req: IncomingMessage) => true | GateRefusal {
  return (req) => {
    const refusal = judgeNodeRequest(gate, req);
    if (refusal === null) return true;
    log?.({
      event: 'request_refused',
      method: req.method,
      path: pathOf(req.url),
      status: refusal.status,
      reason: JSON.parse(refusal.body).error.details?.reason,
    });
    return refusal;
  };
}
