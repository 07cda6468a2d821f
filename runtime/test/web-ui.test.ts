// The web UI's static files: precompressed twins chosen by Accept-Encoding, immutable caching of
// hashed assets, index.html for client routes, a 404 (not index.html) for a missing asset, and
// the favicon alias, the frame/referrer headers. The route group alone through `app.request()`, no
// port (the whole surface, /api and /mcp beside it, is runtime/http/test/http-surface.test.ts).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { precompress } from '../../web/build.ts';
import { createWebUi } from '../web-ui.ts';

const web = suite<{ dir: string; ui: ReturnType<typeof createWebUi> }>('web static files');
const JS = `export const answer = ${JSON.stringify('mimo '.repeat(400))};\n`;

web.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-ui-'));
  mkdirSync(join(ctx.dir, 'assets'));
  writeFileSync(join(ctx.dir, 'index.html'), '<!doctype html><title>Mimo</title>' + '<p>x</p>'.repeat(50));
  writeFileSync(join(ctx.dir, 'assets/index-abc123.js'), JS);
  writeFileSync(join(ctx.dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  await precompress(ctx.dir, ['index.html', 'assets/index-abc123.js', 'favicon.svg']);
  ctx.ui = createWebUi(ctx.dir);
});
web.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

const get = (ctx: { ui: ReturnType<typeof createWebUi> }, path: string, encoding?: string) =>
  ctx.ui.request(path, encoding ? { headers: { 'accept-encoding': encoding } } : {});

web('a hashed asset comes as brotli when accepted, else gzip, else raw; immutable either way', async (ctx) => {
  const br = await get(ctx, '/assets/index-abc123.js', 'gzip, deflate, br');
  assert.is(br.headers.get('content-encoding'), 'br');
  assert.is(br.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.is(br.headers.get('vary'), 'Accept-Encoding');
  const brBody = Buffer.from(await br.arrayBuffer());
  assert.ok(brBody.length < JS.length / 4, `brotli body is small (${brBody.length} of ${JS.length})`);
  assert.is(brotliDecompressSync(brBody).toString(), JS);
  assert.is(Number(br.headers.get('content-length')), brBody.length);

  const gz = await get(ctx, '/assets/index-abc123.js', 'gzip');
  assert.is(gz.headers.get('content-encoding'), 'gzip');
  assert.is(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString(), JS);

  const raw = await get(ctx, '/assets/index-abc123.js', 'br;q=0, identity');
  assert.is(raw.headers.get('content-encoding'), null);
  assert.is(await raw.text(), JS);
  assert.is(raw.headers.get('content-type'), 'text/javascript; charset=utf-8');
});

web('client routes get index.html (no-cache); a missing asset is a 404; /favicon.ico is the SVG icon', async (ctx) => {
  const route = await get(ctx, '/tasks/whatever');
  assert.is(route.status, 200);
  assert.is(route.headers.get('cache-control'), 'no-cache');
  assert.match(await route.text(), /<title>Mimo/);
  const missing = await get(ctx, '/assets/index-gone.js', 'br');
  assert.is(missing.status, 404);
  assert.not.match(await missing.text(), /<title>/);
  const icon = await get(ctx, '/favicon.ico');
  assert.is(icon.status, 200);
  assert.match(icon.headers.get('content-type')!, /^image\/svg\+xml/);
  assert.match(await icon.text(), /<svg/);
  assert.is(icon.headers.get('x-frame-options'), 'DENY');
  assert.is(icon.headers.get('content-security-policy'), "frame-ancestors 'none'");
  assert.is(icon.headers.get('referrer-policy'), 'no-referrer');
  assert.is(missing.headers.get('x-frame-options'), 'DENY', 'a 404 carries them too');
});

web('HEAD: the headers and length of the file, no body; a path out of the folder is not a file', async (ctx) => {
  const head = await ctx.ui.request('/assets/index-abc123.js', { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(Number(head.headers.get('content-length')), JS.length);
  assert.is(await head.text(), '');
  const out = await get(ctx, '/assets/..%2f..%2fetc%2fpasswd.js');
  assert.is(out.status, 404);
});

web('without a built UI every page is a 503 that says how to build it', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'mimo-web-empty-'));
  try {
    const res = await createWebUi(empty).request('/tasks/x');
    assert.is(res.status, 503);
    assert.match(await res.text(), /npm run build:web/);
    assert.is(res.headers.get('x-frame-options'), 'DENY');
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

web.run();
