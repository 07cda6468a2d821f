// CORS for the web app on another origin (dev: Vite on :3000). Origins come from
// MIMO_CORS_ORIGIN (seed 001 §0.5; default http://localhost:3000,http://127.0.0.1:3000) plus the
// server's own public origin. Credentials are never allowed: the API authenticates with a
// header token, not cookies. `*` is not honoured (config.ts refuses it): only listed origins are
// echoed. A refused origin gets no Access-Control-Allow-Origin header (and the request gate in
// front of the server refuses the request itself, runtime/http/request-gate.ts).
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { PROTOCOL_HEADER } from '../../transport/contracts/index.ts';
import { TOKEN_HEADER } from './token-auth.ts';
import { TRACE_HEADER } from './trace-id.ts';

export const DEFAULT_CORS_ORIGINS: readonly string[] = ['http://localhost:3000', 'http://127.0.0.1:3000'];

/** `MIMO_CORS_ORIGIN` -> origins: comma-separated, trimmed, trailing slashes dropped; unset or blank -> the default. */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter((o) => o !== '');
  return origins.length > 0 ? origins : [...DEFAULT_CORS_ORIGINS];
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function corsPolicy(options: { origins: readonly string[]; publicBaseUrl: string }): MiddlewareHandler {
  const listed = options.origins.length > 0 ? options.origins : DEFAULT_CORS_ORIGINS;
  const allowed = new Set(listed.map((o) => o.replace(/\/+$/, '')));
  const own = originOf(options.publicBaseUrl);
  if (own !== undefined) allowed.add(own);
  return cors({
    origin: (origin) => (origin !== '' && allowed.has(origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Authorization', TOKEN_HEADER, TRACE_HEADER, PROTOCOL_HEADER],
    exposeHeaders: [TRACE_HEADER, PROTOCOL_HEADER],
    credentials: false,
    maxAge: 600,
  });
}
