// A known path asked with a method it does not serve gets 405 with an `Allow` header and a
// BAD_REQUEST envelope (details.reason `method_not_allowed`), rather than a 404 that would
// suggest the path is wrong. Register it after the path's real handlers: Hono runs matching
// handlers in registration order and the first response wins.
import type { Hono } from 'hono';
import { errorResponse } from './envelope-response.ts';
import type { HttpEnv } from './http-types.ts';

export function onlyAllow(app: Hono<HttpEnv>, path: string, methods: readonly string[]): void {
  const allowed = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])];
  app.all(path, (c) =>
    errorResponse(
      c,
      {
        code: 'BAD_REQUEST',
        message: `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(' or ')}`,
        details: { reason: 'method_not_allowed' },
      },
      405,
      { Allow: allowed.join(', ') },
    ),
  );
}
