// The real-page corpus (fixtures/corpus: TodoMVC, MDN forms, SQLite's lang_select.html) over
// HTTP on 127.0.0.1, unchanged, plus what navigation tests need around it: `/status/<code>`
// answers an HTML page with that HTTP status, `/redirect?to=URL` a 302 to URL, the MDN first form's POST target answers a
// "thank you" page echoing the fields, `/slow?ms=N` answers after N ms, and `/cross-site?src=PATH`
// a page framing PATH from the other loopback name (127.0.0.1 <-> localhost: a cross-site frame).
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusSite {
  url: string;
  close(): Promise<void>;
}

const corpusDir = fileURLToPath(new URL('../../../fixtures/corpus/', import.meta.url));
/** Served too: our own fixture site under /site/ (a single <select>) and test pages under /local/. */
const mounts: Array<[string, string]> = [
  ['/site/', fileURLToPath(new URL('../../../fixtures/site/', import.meta.url))],
  ['/local/', fileURLToPath(new URL('./pages/', import.meta.url))],
];
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 100_000) break;
  }
  return body;
}

export async function serveCorpus(): Promise<CorpusSite> {
  const timers = new Set<NodeJS.Timeout>();
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://corpus.invalid');
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (status)
      return send(
        res,
        Number(status[1]),
        types['.html']!,
        page(`Status ${status[1]}`, `<h1>Error ${status[1]}</h1><p>This is the server's error page.</p>`),
      );
    if (url.pathname === '/redirect')
      return void res.writeHead(302, { Location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/slow') {
      const ms = Math.min(10_000, Math.max(0, Number(url.searchParams.get('ms')) || 0));
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(
          res,
          200,
          types['.html']!,
          page('Slow page', `<h1>Slow page</h1><p id="delay">Answered after ${ms} ms.</p>`),
        );
      }, ms);
      timers.add(timer);
      return;
    }
    if (url.pathname === '/cross-site') {
      // The same server under the other loopback name: another site, so Chromium's site isolation
      // puts the frame in a process of its own (an out-of-process iframe).
      const host = req.headers.host ?? '';
      const other = host.startsWith('localhost:')
        ? host.replace('localhost:', '127.0.0.1:')
        : host.replace('127.0.0.1:', 'localhost:');
      const src = `http://${other}${(url.searchParams.get('src') ?? '/').replace(/^(?!\/)/, '/')}`;
      const title = escape(url.searchParams.get('title') ?? 'Cross-site frame');
      return send(
        res,
        200,
        types['.html']!,
        page(
          'Cross-site frame',
          `<h1>Host page</h1><button id="host-button">Host button</button>` +
            `<iframe id="cross" title="${title}" src="${escape(src)}" width="700" height="500"></iframe>`,
        ),
      );
    }
    if (url.pathname === '/my-handling-form-page' && req.method === 'POST') {
      const fields = new URLSearchParams(await readBody(req));
      const rows = [...fields]
        .map(([k, v]) => `<li><b>${escape(k)}</b>: <span id="field-${escape(k)}">${escape(v)}</span></li>`)
        .join('');
      return send(res, 200, types['.html']!, page('Form received', `<h1>Form received</h1><ul>${rows}</ul>`));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'bad path');
    }
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    const root = mount ? mount[1] : corpusDir;
    const relative = mount ? path.slice(mount[0].length - 1) : path;
    const full = normalize(join(root, relative.endsWith('/') ? `${relative}index.html` : relative));
    if (!full.startsWith(root.endsWith(sep) ? root : root + sep) || !(extname(full) in types))
      return send(res, 404, 'text/plain; charset=utf-8', 'not found');
    try {
      send(res, 200, types[extname(full)]!, await readFile(full));
    } catch {
      send(res, 404, types['.html']!, page('Not found', '<h1>Not found</h1>'));
    }
  }
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
