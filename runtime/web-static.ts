// Serves the built web UI (web/dist) for every non-API GET: files by path, index.html for
// client-side routes, and a plain page explaining how to build the UI when it is missing.
// Text assets are sent precompressed (the .br / .gz twins web/build.ts writes) when the client
// accepts it; hashed files under assets/ are immutable. A missing file with an extension is a
// 404, not index.html (a browser asking for /favicon.ico or a stale chunk must not get HTML).
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

/** Browsers ask for /favicon.ico by themselves; the UI's icon is an SVG. */
const aliases: Record<string, string> = { '/favicon.ico': '/favicon.svg' };

/** The encodings the client accepts, best first, of those we precompress (q=0 refuses one). */
export function acceptedEncodings(header: string | null): ('br' | 'gzip')[] {
  if (!header) return [];
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

const isFile = (path: string) => existsSync(path) && !statSync(path).isDirectory();

export function createWebStatic(dir: string): (request: Request) => Response | null {
  const root = normalize(dir);
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url).pathname);
    } catch {
      return new Response('bad path', { status: 400 });
    }
    if (pathname.startsWith('/api/') || pathname.includes('\0')) return null;
    if (!existsSync(join(root, 'index.html'))) {
      return new Response(
        '<!doctype html><title>Mimo</title><h1>Mimo server is running</h1><p>The web UI is not built yet: run <code>npm run build:web</code> (npm start does it for you).</p>',
        { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', ...FRAME_HEADERS } },
      );
    }
    let file = normalize(join(root, aliases[pathname] ?? pathname));
    if (file !== root && !file.startsWith(root + sep)) return null;
    if (!isFile(file)) {
      // A client-side route (no extension) gets the app; a missing asset gets a 404.
      if (extname(pathname) !== '' && !pathname.endsWith('.html')) {
        return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', ...FRAME_HEADERS } });
      }
      file = join(root, 'index.html');
    }
    const type = contentTypes[extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...FRAME_HEADERS,
    };
    let body = file;
    const twins = { br: `${file}.br`, gzip: `${file}.gz` } as const;
    const encoding = acceptedEncodings(request.headers.get('accept-encoding')).find((e) => isFile(twins[e]));
    if (existsSync(twins.br) || existsSync(twins.gzip)) headers.Vary = 'Accept-Encoding';
    if (encoding) {
      body = twins[encoding];
      headers['Content-Encoding'] = encoding;
    }
    headers['Content-Length'] = String(statSync(body).size);
    if (request.method === 'HEAD') return new Response(null, { headers });
    return new Response(Readable.toWeb(createReadStream(body)) as ReadableStream, { headers });
  };
}
