// One log entry per request: method, path (never the query: upload URLs carry their token
// there), status, duration, trace id.
import type { MiddlewareHandler } from 'hono';
import type { Clock, HttpEnv, HttpLog } from './http-types.ts';

export function accessLog(options: { log: HttpLog; clock: Clock }): MiddlewareHandler<HttpEnv> {
  const { log, clock } = options;
  return async function accessLogMiddleware(c, next) {
    const started = clock.now();
    await next();
    log({
      type: 'http',
      traceId: c.get('traceId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: clock.now() - started,
    });
  };
}
