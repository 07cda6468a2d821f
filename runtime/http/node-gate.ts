// The request gate at the Node http server, in front of everything that shares the port: the
// Hono API, the static web UI, artifacts, /mcp (request listeners) and, through the Engine.IO
// server's `allowRequest`, every Socket.IO polling request and WebSocket upgrade. A refused
// request gets the seed 001 envelope and never reaches a handler, so no session exists for it.
// Also answered here, for every path: a request target with a broken percent-escape is a 400
// envelope (not the empty 500 a handler's decodeURIComponent would give).
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { gateInputOf, gateRefusalBody, type GateVerdict, type RequestGate } from './request-gate.ts';

export type GateLog = (entry: { event: string; [key: string]: unknown }) => void;

type Refusal = { status: number; body: string };

/** The path of a request target without its query (never log the query: it may carry a token). */
export function pathOf(target: string | undefined): string {
  const url = target ?? '/';
  const q = url.search(/[?#]/);
  return (q === -1 ? url : url.slice(0, q)).slice(0, 300);
}

function hasBrokenEscape(path: string): boolean {
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** The verdict on a raw request, including the target's own syntax. */
export function judgeNodeRequest(gate: RequestGate, req: IncomingMessage): Refusal | null {
  const verdict: GateVerdict = gate.check(gateInputOf(req.method, req.headers));
  if (!verdict.ok) return { status: verdict.status, body: gateRefusalBody(verdict) };
  const target = req.url ?? '';
  if (!target.startsWith('/') && !(target === '*' && req.method === 'OPTIONS')) {
    // Absolute-form targets (`GET http://other.example/...`) are for proxies; we are not one.
    return {
      status: 400,
      body: JSON.stringify({ ok: false, error: { code: 'BAD_REQUEST', message: 'the request target must be a path (origin-form)', details: { reason: 'malformed_target' } } }),
    };
  }
  if (hasBrokenEscape(pathOf(req.url))) {
    return {
      status: 400,
      body: JSON.stringify({ ok: false, error: { code: 'BAD_REQUEST', message: 'the request path has a malformed percent-escape', details: { reason: 'malformed_path' } } }),
    };
  }
  return null;
}

function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(refusal.body),
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(refusal.body);
}

/**
 * Puts the gate in front of the request listeners the server has now (call it before the
 * Engine.IO server attaches: that one keeps them as its fallback and gates its own path with
 * `engineAllowRequest`).
 */
export function gateHttpServer(http: HttpServer, gate: RequestGate, log?: GateLog): void {
  const listeners = http.listeners('request').slice() as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const refusal = judgeNodeRequest(gate, req);
    if (refusal) {
      log?.({ event: 'request_refused', method: req.method, path: pathOf(req.url), status: refusal.status, reason: JSON.parse(refusal.body).error.details?.reason });
      req.resume();
      writeRefusal(res, refusal);
      return;
    }
    for (const listener of listeners) listener.call(http, req, res);
  });
}

/** The Engine.IO server's `allowRequest`: same gate, same answers. */
export function engineAllowRequest(gate: RequestGate, log?: GateLog): (req: IncomingMessage) => true | Refusal {
  return (req) => {
    const refusal = judgeNodeRequest(gate, req);
    if (refusal === null) return true;
    log?.({ event: 'request_refused', method: req.method, path: pathOf(req.url), status: refusal.status, reason: JSON.parse(refusal.body).error.details?.reason });
    return refusal;
  };
}
