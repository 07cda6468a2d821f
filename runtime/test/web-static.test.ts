// The web UI's static files: precompressed twins chosen by Accept-Encoding, immutable caching of
// hashed assets, index.html for client routes, a 404 (not index.html) for a missing asset, and
// the favicon alias. Through createWebStatic's Request -> Response, no port.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { precompress } from '../../web/build.ts';
import { acceptedEncodings, createWebStatic } from '../web-static.ts';

const web = suite<{ dir: string; serve: ReturnType<typeof createWebStatic> }>('web static files');
const JS = `export const answer = ${JSON.stringify('mimo '.repeat(400))};\n`;

web.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-static-'));
  mkdirSync(join(ctx.dir, 'assets'));
  writeFileSync(join(ctx.dir, 'index.html'), '<!doctype html><title>Mimo</title>' + '<p>x</p>'.repeat(50));
  writeFileSync(join(ctx.dir, 'assets/index-abc123.js'), JS);
  writeFileSync(join(ctx.dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  await precompress(ctx.dir, ['index.html', 'assets/index-abc123.js', 'favicon.svg']);
  ctx.serve = createWebStatic(ctx.dir);
});
web.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

const get = (ctx: { serve: ReturnType<typeof createWebStatic> }, path: string, encoding?: string) =>
  ctx.serve(new Request(`http://127.0.0.1${path}`, encoding ? { headers: { 'accept-encoding': encoding } } : {}))!;

web('a hashed asset comes as brotli when accepted, else gzip, else raw; immutable either way', async (ctx) => {
  const br = get(ctx, '/assets/index-abc123.js', 'gzip, deflate, br');
  assert.is(br.headers.get('content-encoding'), 'br');
  assert.is(br.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.is(br.headers.get('vary'), 'Accept-Encoding');
  const brBody = Buffer.from(await br.arrayBuffer());
  assert.ok(brBody.length < JS.length / 4, `brotli body is small (${brBody.length} of ${JS.length})`);
  assert.is(brotliDecompressSync(brBody).toString(), JS);
  assert.is(Number(br.headers.get('content-length')), brBody.length);

  const gz = get(ctx, '/assets/index-abc123.js', 'gzip');
  assert.is(gz.headers.get('content-encoding'), 'gzip');
  assert.is(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString(), JS);

  const raw = get(ctx, '/assets/index-abc123.js', 'br;q=0, identity');
  assert.is(raw.headers.get('content-encoding'), null);
  assert.is(await raw.text(), JS);
  assert.is(raw.headers.get('content-type'), 'text/javascript; charset=utf-8');
});

web('client routes get index.html (no-cache); a missing asset is a 404; /favicon.ico is the SVG icon', async (ctx) => {
  const route = get(ctx, '/tasks/whatever');
  assert.is(route.status, 200);
  assert.is(route.headers.get('cache-control'), 'no-cache');
  assert.match(await route.text(), /<title>Mimo/);
  const missing = get(ctx, '/assets/index-gone.js', 'br');
  assert.is(missing.status, 404);
  assert.not.match(await missing.text(), /<title>/);
  const icon = get(ctx, '/favicon.ico');
  assert.is(icon.status, 200);
  assert.is(icon.headers.get('content-type'), 'image/svg+xml');
  assert.match(await icon.text(), /<svg/);
  assert.is(get(ctx, '/api/task/list'), null, 'the API is not served from files');
});

web('Accept-Encoding parsing honours q=0 and *', () => {
  assert.equal(acceptedEncodings('gzip, br'), ['br', 'gzip']);
  assert.equal(acceptedEncodings('br;q=0, gzip;q=0.5'), ['gzip']);
  assert.equal(acceptedEncodings('*'), ['br', 'gzip']);
  assert.equal(acceptedEncodings('identity'), []);
  assert.equal(acceptedEncodings(null), []);
});

web.run();
