// The built web UI (web/dist) as a Hono route group, mounted after /api and /mcp: files by path
// through `serveStatic` of @hono/node-server, precompressed (the .br / .gz twins web/build.ts
// writes, chosen by Accept-Encoding), hashed files under /assets/ immutable, index.html for
// client-side routes, a 404 (not index.html) for a missing file with an extension (a browser asking
// for a stale chunk must not get HTML), and a plain page explaining how to build the UI when it is
// missing. The UI holds the token: no other site may frame it, nor learn where it came from.
import { existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';

const SECURITY_HEADERS = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT =
  '<!doctype html><title>Mimo</title><h1>Mimo server is running</h1>' +
  '<p>The web UI is not built yet: run <code>npm run build:web</code> (npm start does it for you).</p>';

export function createWebUi(dir: string): Hono {
  const root = normalize(dir);
  const ui = new Hono();

  ui.use('*', async function uiHeaders(c, next) {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-cache');
  });
  // Hashed names: a new build makes new names, so a file found here never changes.
  ui.use('/assets/*', async function immutableAssets(c, next) {
    await next();
    if (c.res.status === 200) c.res.headers.set('Cache-Control', IMMUTABLE);
  });
  ui.get('*', async function uiBuilt(c, next) {
    if (existsSync(join(root, 'index.html'))) return next();
    return c.html(NOT_BUILT, 503);
  });

  // Made on the first request to a built UI (serveStatic complains at once about a missing root,
  // and the UI may be built after the server started).
  let files: { icon: MiddlewareHandler; any: MiddlewareHandler; index: MiddlewareHandler } | undefined;
  const filesOf = () =>
    (files ??= {
      icon: serveStatic({ root, path: 'favicon.svg' }),
      any: serveStatic({ root, precompressed: true }),
      index: serveStatic({ root, path: 'index.html', precompressed: true }),
    });

  // Browsers ask for /favicon.ico by themselves; the UI's icon is an SVG.
  ui.get('/favicon.ico', (c, next) => filesOf().icon(c, next));
  ui.get('*', (c, next) => filesOf().any(c, next));
  ui.get('*', async function missingFile(c, next) {
    if (extname(c.req.path) === '' || c.req.path.endsWith('.html')) return next();
    return c.text('not found', 404);
  });
  // A client-side route (no extension) gets the app.
  ui.get('*', (c, next) => filesOf().index(c, next));
  return ui;
}
