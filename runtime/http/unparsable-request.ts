// The node adapter's `errorHandler`: a request @hono/node-server cannot turn into a URL (a Host
// that is no host name, a target that is no path) never reaches the app, so the gate middleware
// cannot answer it; it gets the gate's 400 envelope here, and the same `request_refused` log line.
import { RequestError } from '@hono/node-server';
import { badRequest, reasonOf, refusalResponse } from './gate-middleware.ts';
import type { GateLog } from './node-gate.ts';

export function unparsableRequest(log?: GateLog): (error: unknown) => Response {
  return function unparsable(error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof RequestError)) {
      log?.({ event: 'http_unhandled_error', error: message });
      const body = {
        ok: false,
        error: { code: 'INTERNAL', message: 'internal server error', details: { retryable: true } },
      };
      return Response.json(body, { status: 500 });
    }
    const refusal = /host/i.test(message)
      ? badRequest(`the Host header is not a host name (${message})`, 'host_malformed')
      : badRequest(`the request target is not a path (${message})`, 'malformed_target');
    log?.({ event: 'request_refused', status: refusal.status, reason: reasonOf(refusal), error: message });
    return refusalResponse(refusal);
  };
}
