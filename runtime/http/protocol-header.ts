// `X-Mimo-Protocol: 1` on every response (seed 001 §0.1), errors and preflights included.
import type { MiddlewareHandler } from 'hono';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../transport/contracts/index.ts';

export function protocolHeader(): MiddlewareHandler {
  return async function protocolHeaderMiddleware(c, next) {
    await next();
    c.header(PROTOCOL_HEADER, String(PROTOCOL_VERSION));
  };
}
