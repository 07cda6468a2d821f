// Seed 001 §2.3: POST /api/extension/extension-id (registration), GET /api/extension/extension-list.
import type { Hono, MiddlewareHandler } from 'hono';
import { ExtensionRegistrationSchema } from '../../transport/contracts/index.ts';
import { pluginCaller } from '../../transport/mimo/plugin-caller.ts';
import { errorResponse, okResponse } from './envelope-response.ts';
import type { HttpAppDeps, HttpEnv } from './http-types.ts';
import { jsonBody } from './json-body.ts';
import { onlyAllow } from './method-not-allowed.ts';

export function registerExtensionRoutes(
  app: Hono<HttpEnv>,
  deps: Pick<HttpAppDeps, 'registry'>,
  options: { maxJsonBytes: number },
): void {
  // Registration is the extension's: a web page, the web UI's own origin included,
  // cannot register a client (transport/mimo/plugin-caller.ts). Checked before the body is read;
  // any chrome-extension:// Origin that reached here passed the gate's list.
  const extensionOnly: MiddlewareHandler<HttpEnv> = async (c, next) => {
    const caller = pluginCaller(c.req.header(), (origin) => origin.startsWith('chrome-extension://'));
    if (!caller.ok)
      return errorResponse(c, { code: 'FORBIDDEN', message: 'only the Mimo extension may register as a plugin' });
    await next();
  };
  app.post(
    '/api/extension/extension-id',
    extensionOnly,
    jsonBody(ExtensionRegistrationSchema, { maxBytes: options.maxJsonBytes }),
    (c) => {
      const result = deps.registry.register(c.get('body'));
      if (!result.ok) return errorResponse(c, result.error);
      return okResponse(c, { registered: true });
    },
  );
  onlyAllow(app, '/api/extension/extension-id', ['POST']);

  app.get('/api/extension/extension-list', (c) => okResponse(c, deps.registry.list(), { 'Cache-Control': 'no-store' }));
  onlyAllow(app, '/api/extension/extension-list', ['GET']);
}
