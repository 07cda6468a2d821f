// fixtures/corpus over HTTP on 127.0.0.1 (the apps use relative paths), for `npm run eval`.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathUnder } from '../../fixtures/path-under.ts';

const corpusDir = fileURLToPath(new URL('../../fixtures/corpus/', import.meta.url));

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
};

export interface CorpusServer {
  /** Base URL without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** The corpus file a request path maps to, or null when it would leave the corpus folder. */
export function corpusPathOf(pathname: string): string | null {
  return pathUnder(corpusDir, pathname);
}

export async function serveCorpus(): Promise<CorpusServer> {
  const server = createServer(async (req, res) => {
    const path = corpusPathOf(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path ? 405 : 400).end();
      return;
    }
    try {
      const body = await readFile(path);
      res.writeHead(200, {
        'content-type': contentTypes[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
