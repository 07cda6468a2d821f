// X-Trace-Id (seed 001 §0.4): echo the caller's id, or generate one, expose it as
// `c.get('traceId')` and on the response. An id that is too long or carries characters
// outside [A-Za-z0-9._:-] is replaced rather than echoed (it would end up in logs and headers).
import type { MiddlewareHandler } from 'hono';
import type { HttpEnv } from './http-types.ts';

export const TRACE_HEADER = 'X-Trace-Id';
const TRACE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function isAcceptableTraceId(value: string | undefined): value is string {
  return value !== undefined && TRACE_ID_PATTERN.test(value);
}

export function traceId(options: { newTraceId: () => string }): MiddlewareHandler<HttpEnv> {
  return async function traceIdMiddleware(c, next) {
    const given = c.req.header(TRACE_HEADER);
    const id = isAcceptableTraceId(given) ? given : options.newTraceId();
    c.set('traceId', id);
    await next();
    c.header(TRACE_HEADER, id);
  };
}
