// Serves the built web UI (web/dist) for every non-API GET: files by path, index.html for
// client-side routes, and a plain page explaining how to build the UI when it is missing.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

/** The UI holds the token: no other site may frame it (clickjacking), nor learn where it came from. */
const FRAME_HEADERS = { 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "frame-ancestors 'none'", 'Referrer-Policy': 'no-referrer' };

export function createWebStatic(dir: string): (request: Request) => Response | null {
  const root = normalize(dir);
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const pathname = decodeURIComponent(new URL(request.url).pathname);
    if (pathname.startsWith('/api/') || pathname.includes('\0')) return null;
    if (!existsSync(join(root, 'index.html'))) {
      return new Response(
        '<!doctype html><title>Mimo</title><h1>Mimo server is running</h1><p>The web UI is not built yet: run <code>npm run build:web</code> (npm start does it for you).</p>',
        { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', ...FRAME_HEADERS } },
      );
    }
    let file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root + sep)) return null;
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    const type = contentTypes[extname(file)] ?? 'application/octet-stream';
    const headers = {
      'Content-Type': type,
      'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...FRAME_HEADERS,
    };
    if (request.method === 'HEAD') return new Response(null, { headers });
    return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, { headers });
  };
}
