// Issue 23 item 3: a plugin registration needs proof that it is the extension. Through a running
// server with the real socket.io-client: a script on the web UI's own origin that opens the
// polling handshake by hand (a same-origin GET: no Origin, but Fetch Metadata) cannot register
// as `clientType: plugin`, over polling or WebSocket, nor through POST /api/extension/extension-id;
// the extension's Origin and a program outside any browser still can.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import { DEFAULT_EXTENSION_ID } from '../../transport/contracts/extension-identity.ts';
import { fromBrowser, pluginCaller } from '../../transport/mimo/plugin-caller.ts';
import { startRuntime, type TestRuntime } from './util.ts';

const TOKEN = 'plugin-proof-token-0123456789abcdef';
const EXTENSION = `chrome-extension://${DEFAULT_EXTENSION_ID}`;
/** What Chromium adds to a page's same-origin XHR/fetch; a page cannot take these away. */
const SAME_ORIGIN_PAGE = { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' };

const test = suite<{ rt: TestRuntime }>('plugin registration proof', { rt: undefined as never });
test.before(async (ctx) => {
  ctx.rt = await startRuntime({ config: { token: TOKEN } });
});
test.after(async (ctx) => {
  await ctx.rt.close();
});

const attempt = (url: string, options: Record<string, unknown>) =>
  new Promise<string>((resolve) => {
    const socket = io(url, { forceNew: true, reconnection: false, ...options });
    socket.once('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.once('connect_error', (error: Error & { data?: { code?: string } }) => {
      socket.close();
      resolve(error.data?.code ?? error.message);
    });
  });

for (const transports of [['polling'], ['websocket']]) {
  test(`over ${transports[0]}: a same-origin page's handshake is refused as a plugin, still fine as a frontend`, async ({
    rt,
  }) => {
    const url = `${rt.server.url}/mimo`;
    assert.is(
      await attempt(url, {
        transports,
        extraHeaders: SAME_ORIGIN_PAGE,
        auth: { clientType: 'plugin', clientId: 'xss-1', token: TOKEN },
      }),
      'FORBIDDEN',
    );
    // Sec-Fetch-Dest alone marks a browser too (Sec-Fetch-Mode alone does not: Node's fetch sends it).
    assert.is(
      await attempt(url, {
        transports,
        extraHeaders: { 'Sec-Fetch-Dest': 'empty' },
        auth: { clientType: 'plugin', clientId: 'xss-2', token: TOKEN },
      }),
      'FORBIDDEN',
    );
    // The web UI itself (a frontend) is unaffected.
    assert.is(
      await attempt(url, {
        transports,
        extraHeaders: SAME_ORIGIN_PAGE,
        auth: { clientType: 'frontend', token: TOKEN },
      }),
      'connected',
    );
    // The extension (browser-set Origin, with its own Fetch Metadata) and a Node program still register.
    assert.is(
      await attempt(url, {
        transports,
        extraHeaders: { Origin: EXTENSION, 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'websocket' },
        auth: { clientType: 'plugin', clientId: 'ext-1', token: TOKEN },
      }),
      'connected',
    );
    assert.is(
      await attempt(url, { transports, auth: { clientType: 'plugin', clientId: 'node-1', token: TOKEN } }),
      'connected',
    );
    const listed = rt.server.registry.list().map((e) => e.clientId);
    assert.not.ok(listed.includes('xss-1') || listed.includes('xss-2'), 'the refused page left no client behind');
  });
}

test('plain-http LAN case (no Fetch Metadata): the opening GET has no Origin, but the POST carrying CONNECT does', async ({
  rt,
}) => {
  const base = `${rt.server.url}/socket.io/?EIO=4&transport=polling`;
  const open = await (await fetch(base)).text();
  const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
  const auth = JSON.stringify({ clientType: 'plugin', clientId: 'lan-page', token: TOKEN });
  const posted = await fetch(`${base}&sid=${sid}`, {
    method: 'POST',
    headers: { Origin: rt.server.url, 'Content-Type': 'text/plain;charset=UTF-8' },
    body: `40/mimo,${auth}`,
  });
  assert.is(posted.status, 200);
  const answer = await (await fetch(`${base}&sid=${sid}`)).text();
  assert.match(answer, /^44\/mimo,/);
  assert.match(answer, /"code":"FORBIDDEN"/);
  assert.not.ok(rt.server.registry.list().some((e) => e.clientId === 'lan-page'));
  // The same by hand without any Origin (a program) is accepted.
  const sid2 = (JSON.parse((await (await fetch(base)).text()).slice(1)) as { sid: string }).sid;
  await fetch(`${base}&sid=${sid2}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body: `40/mimo,${JSON.stringify({ clientType: 'plugin', clientId: 'lan-prog', token: TOKEN })}`,
  });
  assert.match(await (await fetch(`${base}&sid=${sid2}`)).text(), /^40\/mimo,\{"sid"/);
});

test('POST /api/extension/extension-id: a web page (own origin, or same-origin without Origin) is refused', async ({
  rt,
}) => {
  const post = (headers: Record<string, string>) =>
    fetch(`${rt.server.url}/api/extension/extension-id`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, ...headers },
      body: JSON.stringify({ clientId: 'page-reg', extensionId: DEFAULT_EXTENSION_ID, version: '1.0.0' }),
    }).then(async (r) => [r.status, ((await r.json()) as { error?: { code?: string } }).error?.code ?? 'ok']);
  assert.equal(await post({ Origin: rt.server.url }), [403, 'FORBIDDEN']);
  assert.equal(await post(SAME_ORIGIN_PAGE), [403, 'FORBIDDEN']);
  assert.not.ok(rt.server.registry.list().some((e) => e.clientId === 'page-reg'));
  assert.equal(await post({ Origin: EXTENSION }), [200, 'ok']);
  assert.equal(await post({}), [200, 'ok']);
});

test('the verdict as a pure function', () => {
  const ext = (o: string) => o === EXTENSION;
  assert.equal(pluginCaller({ origin: EXTENSION }, ext), { ok: true, via: 'extension_origin' });
  assert.equal(pluginCaller({ origin: 'http://localhost:6006' }, ext), { ok: false, reason: 'web_origin' });
  assert.equal(pluginCaller({ 'sec-fetch-site': 'same-origin' }, ext), { ok: false, reason: 'browser_page' });
  assert.equal(pluginCaller({ 'sec-fetch-dest': ['empty'] }, ext), { ok: false, reason: 'browser_page' });
  assert.equal(pluginCaller({ host: 'localhost' }, ext), { ok: true, via: 'non_browser' });
  assert.equal([fromBrowser({}), fromBrowser({ 'sec-fetch-user': '?1' })], [false, true]);
});

test.run();
