// The whole HTTP surface of a server through `server.app.request()`, no socket: the gate in front
// of every mount, the token per mount (/api envelopes, /mcp JSON-RPC errors, artifact upload and
// download open by route structure, the web UI open), /mcp initialize with the SDK's transport, and
// the built UI's precompressed files. Raw request targets a socket is needed for are in
// security-surfaces.test.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { precompress } from '../../web/build.ts';
import { createMcpRoutes, createMemoryRunStore } from '../mcp/index.ts';
import { createUrlPolicy, defaultUrlPolicyConfig } from '../url-policy/index.ts';
import { startRuntime, type TestRuntime } from './util.ts';

const TOKEN = 'correct-horse-battery-staple';
const JS = `export const answer = ${JSON.stringify('mimo '.repeat(400))};\n`;
const surface = suite<{ rt: TestRuntime; webDir: string }>('http surface through app.request()', {
  rt: undefined as never,
  webDir: '',
});

surface.before(async (ctx) => {
  ctx.webDir = mkdtempSync(join(tmpdir(), 'mimo-surface-web-'));
  mkdirSync(join(ctx.webDir, 'assets'));
  writeFileSync(join(ctx.webDir, 'index.html'), '<!doctype html><title>Mimo</title>' + '<p>x</p>'.repeat(50));
  writeFileSync(join(ctx.webDir, 'assets/index-abc123.js'), JS);
  await precompress(ctx.webDir, ['index.html', 'assets/index-abc123.js']);
  ctx.rt = await startRuntime({
    config: { token: TOKEN },
    webDir: ctx.webDir,
    routes: (services) =>
      createMcpRoutes(services, {
        urlPolicy: createUrlPolicy({ config: defaultUrlPolicyConfig, resolve: async () => [] }),
        runStore: createMemoryRunStore(),
      }),
  });
});
surface.after(async (ctx) => {
  await ctx.rt.close();
  rmSync(ctx.webDir, { recursive: true, force: true });
});

const bearer = { Authorization: `Bearer ${TOKEN}` };
const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'surface-test', version: '0.0.0' } },
});

surface(
  '/api: the token by header or bearer; refusals are UNAUTHORIZED envelopes with a Bearer challenge',
  async ({ rt }) => {
    const { app } = rt.server;
    assert.is((await app.request('/api/task/list', { headers: bearer })).status, 200);
    assert.is((await app.request('/api/task/list', { headers: { 'X-Mimo-Token': TOKEN } })).status, 200);
    for (const headers of [{}, { Authorization: 'Bearer nope' }, { Authorization: TOKEN }] as Array<
      Record<string, string>
    >) {
      const res = await app.request('/api/task/list', { headers });
      assert.is(res.status, 401);
      assert.is(res.headers.get('www-authenticate'), 'Bearer realm="mimo"');
      assert.is((await res.json()).error.code, 'UNAUTHORIZED');
    }
    const unknown = await app.request('/api/no-such-thing', { headers: bearer });
    assert.is(unknown.status, 404);
    assert.is((await unknown.json()).error.code, 'NOT_FOUND', 'an unknown API path is an envelope, not the web UI');
    const elsewhere = await app.request('/no-such-thing', { method: 'POST' });
    assert.is(elsewhere.status, 404);
    assert.is((await elsewhere.json()).ok, false);
  },
);

surface('artifacts: download and upload open by route, presign behind the token', async ({ rt }) => {
  const { app } = rt.server;
  const download = await app.request('/api/artifacts/art-aaaaaaaaaaaaaaaaaaaaa');
  assert.is(download.status, 404, 'reached the artifact service without a token');
  const upload = await app.request('/api/artifacts/art-aaaaaaaaaaaaaaaaaaaaa/upload?token=forged', {
    method: 'PUT',
    body: 'x',
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.is(upload.status, 403, 'reached the artifact service, which refused the forged upload token');
  const presign = await app.request('/api/artifacts/presign', {
    method: 'POST',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
  });
  assert.is(presign.status, 401);
});

surface('/mcp: initialize with the token opens a session; without it a JSON-RPC 401', async ({ rt }) => {
  const { app } = rt.server;
  const ok = await app.request('/mcp', { method: 'POST', body: initialize, headers: { ...mcpHeaders, ...bearer } });
  assert.is(ok.status, 200);
  assert.ok(ok.headers.get('mcp-session-id'), 'a session id');
  assert.match(await ok.text(), /"serverInfo"/);
  for (const [headers, message] of [
    [{}, /missing token/],
    [{ Authorization: 'Bearer nope' }, /invalid token/],
  ] as const) {
    const refused = await app.request('/mcp', {
      method: 'POST',
      body: initialize,
      headers: { ...mcpHeaders, ...headers },
    });
    assert.is(refused.status, 401);
    assert.is(refused.headers.get('www-authenticate'), 'Bearer realm="mimo"');
    const body = await refused.json();
    assert.is(body.jsonrpc, '2.0');
    assert.match(body.error.message, message);
  }
  assert.is((await app.request('/mcp/url-policy')).status, 401, 'the whole /mcp group is behind the token');
  const policy = await app.request('/mcp/url-policy', { headers: bearer });
  assert.is(policy.status, 200);
  assert.is((await policy.json()).profile, 'full');
  assert.is((await app.request('/mcp', { headers: bearer })).status, 405, 'no GET stream');
});

surface('the web UI: open, precompressed, immutable hashed assets, index.html for client routes', async ({ rt }) => {
  const { app } = rt.server;
  const asset = await app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': 'gzip, br' } });
  assert.is(asset.status, 200);
  assert.is(asset.headers.get('content-encoding'), 'br');
  assert.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.is(brotliDecompressSync(Buffer.from(await asset.arrayBuffer())).toString(), JS);
  const page = await app.request('/tasks/01HRZ8YV8Q6P1Q2W3E4R5T6Y7V');
  assert.is(page.status, 200);
  assert.is(page.headers.get('cache-control'), 'no-cache');
  assert.is(page.headers.get('x-frame-options'), 'DENY');
  assert.match(await page.text(), /<title>Mimo/);
  assert.is((await app.request('/assets/index-gone.js')).status, 404);
});

surface('the gate refuses a foreign Host or Origin on every mount before any token is checked', async ({ rt }) => {
  const { app } = rt.server;
  for (const path of [
    '/api/task/list',
    '/mcp',
    '/',
    '/assets/index-abc123.js',
    '/api/artifacts/art-aaaaaaaaaaaaaaaaaaaaa',
  ]) {
    const rebound = await app.request(`http://evil.example${path}`, { headers: bearer });
    assert.is(rebound.status, 421, `Host ${path}`);
    assert.is((await rebound.json()).error.details.reason, 'host_not_allowed');
    const foreign = await app.request(path, { headers: { ...bearer, Origin: 'http://evil.example' } });
    assert.is(foreign.status, 403, `Origin ${path}`);
    const body = await foreign.json();
    assert.is(body.error.code, 'FORBIDDEN');
    assert.is(body.error.details.reason, 'origin_not_allowed');
  }
  assert.is((await app.request('/api/task/list%zz', { headers: bearer })).status, 400, 'a broken percent-escape');
  assert.ok(rt.logs.some((entry) => entry.event === 'request_refused' && entry.path === '/mcp'));
});

surface.run();
