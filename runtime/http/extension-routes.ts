// Seed 001 §2.3: POST /api/extension/extension-id (registration), GET /api/extension/extension-list.
import type { Hono } from 'hono';
import { ExtensionRegistrationSchema } from '../../transport/contracts/index.ts';
import { errorResponse, okResponse } from './envelope-response.ts';
import type { HttpAppDeps, HttpEnv } from './http-types.ts';
import { jsonBody } from './json-body.ts';
import { onlyAllow } from './method-not-allowed.ts';

export function registerExtensionRoutes(app: Hono<HttpEnv>, deps: Pick<HttpAppDeps, 'registry'>, options: { maxJsonBytes: number }): void {
  app.post('/api/extension/extension-id', jsonBody(ExtensionRegistrationSchema, { maxBytes: options.maxJsonBytes }), (c) => {
    const result = deps.registry.register(c.get('body'));
    if (!result.ok) return errorResponse(c, result.error);
    return okResponse(c, { registered: true });
  });
  onlyAllow(app, '/api/extension/extension-id', ['POST']);

  app.get('/api/extension/extension-list', (c) => okResponse(c, deps.registry.list(), { 'Cache-Control': 'no-store' }));
  onlyAllow(app, '/api/extension/extension-list', ['GET']);
}
