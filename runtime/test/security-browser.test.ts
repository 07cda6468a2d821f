// Issue 12 in real Chromium (playwright-core, /usr/bin/chromium) against the real product
// (startMimo with its defaults: no MIMO_TOKEN, so a token is made and kept in the data dir):
// - the one-click URL opens the web UI, which connects, drops the token from the address bar,
//   and still connects after a reload;
// - a page the user merely visits on a second origin (http://127.0.0.2:<other port>) tries
//   fetch, no-cors fetch, <img>, Engine.IO polling and WebSocket (both the root namespace and
//   /mimo, as a frontend and posing as the extension) and /mcp: every attempt is refused by the
//   gate before any session exists, even when the page somehow knows the token.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from '../../web/test/e2e/browser.ts';
import { buildWeb } from '../../web/build.ts';
import { startMimo, type MimoApp } from '../app.ts';
import { ACCESS_TOKEN_FILE } from '../access-token.ts';

interface Ctx {
  dir: string;
  app: MimoApp;
  token: string;
  base: string;
  logs: Array<Record<string, unknown>>;
  browser: Browser;
  attacker: Server;
  attackerUrl: string;
}

const test = suite<Ctx>('security in Chromium');
const WAIT = { timeout: 20_000 };

/** The attacker's page: every way in it can think of, results collected in window.results. */
function attackerPage(target: string, token: string): string {
  return `<!doctype html><title>innocent page</title><script>
const target = ${JSON.stringify(target)};
const token = ${JSON.stringify(token)};
const results = {};
const settle = (name, p) => p.then((v) => (results[name] = v), (e) => (results[name] = 'error:' + (e && e.name)));
async function status(url, init) { const r = await fetch(url, init); return 'status:' + r.status + ':' + (await r.text()).slice(0, 200); }
function ws(path, send) {
  return new Promise((resolve) => {
    const s = new WebSocket(target.replace('http', 'ws') + path);
    let opened = false;
    s.onopen = () => { opened = true; for (const m of send) s.send(m); };
    s.onmessage = (m) => resolve('message:' + m.data);
    s.onclose = () => resolve(opened ? 'opened-then-closed' : 'refused');
    setTimeout(() => resolve(opened ? 'open' : 'pending'), 4000);
  });
}
function img(path) {
  return new Promise((resolve) => { const i = new Image(); i.onload = () => resolve('loaded'); i.onerror = () => resolve('refused'); i.src = target + path; });
}
window.done = Promise.all([
  settle('api', status(target + '/api/task/list')),
  settle('apiWithToken', status(target + '/api/task/list', { headers: { Authorization: 'Bearer ' + token } })),
  settle('apiNoCors', fetch(target + '/api/task/list', { mode: 'no-cors' }).then(() => 'sent')),
  settle('mcp', status(target + '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: 'Bearer ' + token }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })),
  settle('mcpSimple', status(target + '/mcp', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })),
  settle('artifact', status(target + '/api/artifacts/art-0123456789abcdefghijk')),
  settle('artifactImg', img('/api/artifacts/art-0123456789abcdefghijk')),
  settle('scriptTag', new Promise((resolve) => { const s = document.createElement('script'); s.onload = () => resolve('loaded'); s.onerror = () => resolve('refused'); s.src = target + '/api/task/list'; document.head.append(s); })),
  settle('polling', status(target + '/socket.io/?EIO=4&transport=polling')),
  settle('pollingNoCors', fetch(target + '/socket.io/?EIO=4&transport=polling', { mode: 'no-cors' }).then(() => 'sent')),
  settle('pollingPost', status(target + '/socket.io/?EIO=4&transport=polling', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '40/mimo,{"clientType":"frontend"}' })),
  settle('wsRoot', ws('/socket.io/?EIO=4&transport=websocket', ['40{"token":"' + token + '"}'])),
  settle('wsFrontend', ws('/socket.io/?EIO=4&transport=websocket', ['40/mimo,{"clientType":"frontend","token":"' + token + '"}'])),
  settle('wsPlugin', ws('/socket.io/?EIO=4&transport=websocket', ['40/mimo,{"clientType":"plugin","clientId":"evil-plugin","token":"' + token + '"}'])),
  settle('webUi', status(target + '/')),
]).then(() => results);
</script>`;
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-sec-browser-'));
  const webDir = join(ctx.dir, 'web');
  await buildWeb({ outDir: webDir, logLevel: 'silent' });
  ctx.logs = [];
  ctx.app = await startMimo(
    { MIMO_PORT: '0', MIMO_DATA_DIR: join(ctx.dir, 'data'), MIMO_ARTIFACT_DIR: join(ctx.dir, 'artifacts') },
    { log: (entry) => ctx.logs.push(entry as Record<string, unknown>), webDir },
  );
  assert.is(ctx.app.access.mode, 'file');
  ctx.token = ctx.app.config.token!;
  ctx.base = ctx.app.server.url;
  ctx.browser = await launchChromium();
  ctx.attacker = createHttpServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(attackerPage(ctx.base, ctx.token));
  });
  await new Promise<void>((resolve) => ctx.attacker.listen(0, '127.0.0.2', () => resolve()));
  ctx.attackerUrl = `http://127.0.0.2:${(ctx.attacker.address() as AddressInfo).port}/`;
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  ctx.attacker?.close();
  await ctx.app?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

test('the token is made on first start and kept in the data dir with mode 0600', (ctx) => {
  const access = ctx.app.access;
  assert.ok(access.mode === 'file');
  if (access.mode !== 'file') return;
  assert.is(access.path, join(ctx.dir, 'data', ACCESS_TOKEN_FILE));
  assert.is(statSync(access.path).mode & 0o777, 0o600);
  assert.ok(access.created);
  assert.is(access.oneClickUrl, `${ctx.base}/?token=${ctx.token}`);
  assert.not.match(JSON.stringify(ctx.logs), new RegExp(ctx.token), 'the token is never logged');
});

test('the one-click URL: the UI connects, the token leaves the address bar, a reload still connects', async (ctx) => {
  const page = await (await ctx.browser.newContext()).newPage();
  await page.goto(ctx.app.access.mode === 'file' ? ctx.app.access.oneClickUrl : '');
  await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  assert.not.match(page.url(), /token/);
  assert.is(await page.evaluate(() => localStorage.getItem('mimo.token')), ctx.token);
  await page.reload();
  await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  assert.not.match(page.url(), /token/);
  // Without the token (a fresh profile, the bare address) the UI cannot connect.
  const bare = await (await ctx.browser.newContext()).newPage();
  await bare.goto(`${ctx.base}/`);
  await bare.waitForSelector('[data-testid=connection][data-status=offline]', WAIT); // UNAUTHORIZED: the UI stops trying
  assert.not.match(
    JSON.stringify(ctx.logs),
    new RegExp(ctx.token),
    'the token is never logged (the access log drops query strings)',
  );
  await page.context().close();
  await bare.context().close();
});

test('a page on a second origin reaches nothing: fetch, no-cors, <img>, polling, WebSocket, /mcp, namespaces, a fake plugin', async (ctx) => {
  // Sessions left over from an earlier test may still be closing: what matters is that no new one appears.
  const sessionsBefore = new Set(ctx.app.server.io.engine.sessions.keys());
  const refusedBefore = ctx.logs.filter((l) => l.event === 'request_refused').length;
  const page = await (await ctx.browser.newContext()).newPage();
  await page.goto(ctx.attackerUrl);
  const results = (await page.evaluate(
    () => (window as unknown as { done: Promise<Record<string, string>> }).done,
  )) as Record<string, string>;
  // What the page can see: nothing readable anywhere.
  for (const key of ['api', 'apiWithToken', 'mcp', 'mcpSimple', 'artifact', 'polling', 'pollingPost', 'webUi']) {
    assert.ok(results[key]!.startsWith('error:'), `${key}: ${results[key]}`);
  }
  assert.is(results.artifactImg, 'refused'); // an unknown id: 404 (images pass the gate, opaque to the page)
  assert.is(results.scriptTag, 'refused');
  for (const key of ['wsRoot', 'wsFrontend', 'wsPlugin']) assert.is(results[key], 'refused', key);
  // What the server did: refused every request at the gate, opened no session, registered no plugin.
  const refused = ctx.logs.filter((l) => l.event === 'request_refused').slice(refusedBefore);
  assert.ok(refused.length >= 14, `${refused.length} refusals: ${JSON.stringify(refused)}`);
  assert.ok(
    refused.every((l) => l.reason === 'origin_not_allowed' || l.reason === 'cross_site_request'),
    JSON.stringify(refused),
  );
  assert.ok(
    refused.some((l) => l.reason === 'cross_site_request'),
    'no-cors requests (no Origin) were recognised by Fetch Metadata',
  );
  const opened = [...ctx.app.server.io.engine.sessions.keys()].filter((sid) => !sessionsBefore.has(sid));
  assert.equal(opened, [], 'no Engine.IO session was opened for the page');
  assert.not.ok(ctx.app.server.registry.list().some((e) => e.clientId === 'evil-plugin'));
  await page.context().close();
});

test('DNS rebinding in the browser: evil.example resolving to 127.0.0.1 reaches nothing (page, fetch, WebSocket)', async (ctx) => {
  const port = new URL(ctx.base).port;
  const rebinding = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1, MAP attacker.example 127.0.0.2'],
  });
  try {
    const refusedBefore = ctx.logs.filter((l) => l.event === 'request_refused').length;
    // Sessions left over from an earlier test may still be closing: what matters is that no new one appears.
    const sessionsBefore = new Set(ctx.app.server.io.engine.sessions.keys());
    const page = await (await rebinding.newContext()).newPage();
    // The web UI through the rebound name: the page itself is refused.
    const direct = await page.goto(`http://evil.example:${port}/?token=${ctx.token}`);
    assert.is(direct?.status(), 421);
    assert.not.match(await page.content(), /connection/);
    // A page under the attacker's name: its requests to evil.example:<our port> carry Host: evil.example.
    const attackerPort = (ctx.attacker.address() as AddressInfo).port;
    await page.goto(`http://attacker.example:${attackerPort}/`);
    const results = (await page.evaluate(async (target) => {
      const out: Record<string, string> = {};
      try {
        const r = await fetch(`${target}/api/task/list`, { mode: 'no-cors' });
        out.fetch = `type:${r.type}`;
      } catch (e) {
        out.fetch = `error:${(e as Error).name}`;
      }
      out.ws = await new Promise<string>((resolve) => {
        const s = new WebSocket(`${target.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
        s.onopen = () => resolve('open');
        s.onclose = () => resolve('refused');
      });
      return out;
    }, `http://evil.example:${port}`)) as Record<string, string>;
    assert.is(results.ws, 'refused');
    const refused = ctx.logs.filter((l) => l.event === 'request_refused').slice(refusedBefore);
    assert.ok(refused.filter((l) => l.reason === 'host_not_allowed').length >= 3, JSON.stringify(refused));
    const opened = [...ctx.app.server.io.engine.sessions.keys()].filter((sid) => !sessionsBefore.has(sid));
    assert.equal(opened, [], 'no Engine.IO session was opened for the page');
  } finally {
    await rebinding.close();
  }
});

test.run();
