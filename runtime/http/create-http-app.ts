// The HTTP API of seed 001 §2 as a Hono app: middleware (trace id, access log, protocol header,
// CORS, token) around the route groups, with envelope errors for everything that fails; the open
// artifact routes come before the token middleware. The server's root app (root-app.ts) mounts it
// at /api/*; tests call `app.request()`.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { accessLog } from './access-log.ts';
import { registerArtifactRoutes, registerOpenArtifactRoutes } from './artifact-routes.ts';
import { corsPolicy } from './cors-policy.ts';
import { errorEnvelopeHandler, notFoundHandler } from './error-envelope.ts';
import { registerExtensionRoutes } from './extension-routes.ts';
import type { HttpAppDeps, HttpEnv, HttpLog } from './http-types.ts';
import { DEFAULT_MAX_JSON_BYTES } from './json-body.ts';
import { protocolHeader } from './protocol-header.ts';
import { registerSnapshotRoutes } from './snapshot-routes.ts';
import { registerTaskRoutes } from './task-routes.ts';
import { tokenAuth } from './token-auth.ts';
import { traceId } from './trace-id.ts';

export function createHttpApp(deps: HttpAppDeps): Hono<HttpEnv> {
  const { config } = deps;
  const log = deps.log as HttpLog | undefined;
  const maxJsonBytes = config.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  const app = new Hono<HttpEnv>();

  app.use('*', traceId({ newTraceId: deps.newTraceId ?? randomUUID }));
  if (log !== undefined) app.use('*', accessLog({ log, clock: deps.clock ?? { now: () => Date.now() } }));
  app.use('*', protocolHeader());
  // A 413 is answered before the body is read: close the connection rather than keep it for a
  // client that is still sending (the rest of its body would be parsed as the next request).
  app.use('*', async function closeAfterTooLarge(c, next) {
    await next();
    if (c.res.status === 413) c.res.headers.set('Connection', 'close');
  });
  app.use('*', corsPolicy({ origins: config.corsOrigins, publicBaseUrl: config.publicBaseUrl }));
  // Open before the token: artifact upload (signed URL) and download (capability id).
  registerOpenArtifactRoutes(app, deps);
  app.use('/api/*', tokenAuth({ token: config.token }));

  registerTaskRoutes(app, deps);
  registerSnapshotRoutes(app, deps);
  registerExtensionRoutes(app, deps, { maxJsonBytes });
  registerArtifactRoutes(app, deps, { maxJsonBytes });

  app.onError(errorEnvelopeHandler(log));
  app.notFound(notFoundHandler());
  return app;
}
