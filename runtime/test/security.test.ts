// Security checks against the whole server (issue 9): token on HTTP, sockets (both transports)
// and MCP; CORS only for the configured origins; artifact upload tokens that cannot be forged,
// moved or reused, and artifact ids that cannot leave the folder.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import { createMcpRoutes, createMemoryRunStore } from '../mcp/index.ts';
import { createUrlPolicy, defaultUrlPolicyConfig } from '../url-policy/index.ts';
import { startRuntime, type TestRuntime } from './util.ts';

const TOKEN = 'correct-horse-battery-staple';
const ALLOWED = 'http://localhost:3000';
const test = suite<{ rt: TestRuntime }>('security', { rt: undefined as never });

test.before(async (ctx) => {
  ctx.rt = await startRuntime({
    config: { token: TOKEN, corsOrigins: [ALLOWED] },
    routes: (services) =>
      createMcpRoutes(services, {
        urlPolicy: createUrlPolicy({ config: defaultUrlPolicyConfig, resolve: async () => [] }),
        runStore: createMemoryRunStore(),
      }),
  });
});
test.after(async (ctx) => {
  await ctx.rt.close();
});

const bearer = { Authorization: `Bearer ${TOKEN}` };

test('HTTP API: no token or a wrong one -> 401 UNAUTHORIZED; the right one -> 200', async ({ rt }) => {
  for (const headers of [{}, { Authorization: 'Bearer nope' }, { Authorization: TOKEN }] as Array<
    Record<string, string>
  >) {
    const res = await fetch(`${rt.server.url}/api/task/list`, { headers });
    assert.is(res.status, 401);
    assert.is((await res.json()).error.code, 'UNAUTHORIZED');
  }
  assert.is((await fetch(`${rt.server.url}/api/task/list`, { headers: bearer })).status, 200);
});

for (const transports of [['websocket'], ['polling']]) {
  test(`sockets over ${transports[0]}: refused without the token, accepted with it`, async ({ rt }) => {
    const attempt = (auth: Record<string, unknown>) =>
      new Promise<string>((resolve) => {
        const socket = io(`${rt.server.url}/mimo`, {
          transports,
          forceNew: true,
          reconnection: false,
          auth,
          extraHeaders: { Origin: ALLOWED },
        });
        socket.once('connect', () => {
          socket.close();
          resolve('connected');
        });
        socket.once('connect_error', (error: Error & { data?: { code?: string } }) => {
          socket.close();
          resolve(error.data?.code ?? error.message);
        });
      });
    assert.is(await attempt({ clientType: 'frontend' }), 'UNAUTHORIZED');
    assert.is(await attempt({ clientType: 'plugin', clientId: 'p1', token: 'wrong' }), 'UNAUTHORIZED');
    assert.is(await attempt({ clientType: 'frontend', token: TOKEN }), 'connected');
  });
}

test('MCP: no token -> 401; with the token tools/list answers', async ({ rt }) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  assert.is((await fetch(`${rt.server.url}/mcp`, { method: 'POST', headers, body })).status, 401);
  const ok = await fetch(`${rt.server.url}/mcp`, { method: 'POST', headers: { ...headers, ...bearer }, body });
  assert.is(ok.status, 200);
  assert.match(await ok.text(), /browser-shell/);
});

test('CORS: only configured origins are allowed (HTTP API and Socket.IO polling)', async ({ rt }) => {
  const preflight = (origin: string) =>
    fetch(`${rt.server.url}/api/task/list`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
  assert.is((await preflight(ALLOWED)).headers.get('access-control-allow-origin'), ALLOWED);
  assert.is((await preflight('https://evil.example')).headers.get('access-control-allow-origin'), null);
  const poll = (origin: string) =>
    fetch(`${rt.server.url}/socket.io/?EIO=4&transport=polling`, { headers: { Origin: origin } });
  assert.is((await poll(ALLOWED)).headers.get('access-control-allow-origin'), ALLOWED);
  assert.is((await poll('https://evil.example')).headers.get('access-control-allow-origin'), null);
});

test('artifacts: a forged or moved upload token is refused; a token works once; ids cannot escape the folder', async ({
  rt,
}) => {
  const presign = async () =>
    (
      await (
        await fetch(`${rt.server.url}/api/artifacts/presign`, {
          method: 'POST',
          headers: { ...bearer, 'Content-Type': 'application/json' },
          body: JSON.stringify({ taskId: '01JD0000000000000000000S01', kind: 'screenshot', contentType: 'image/png' }),
        })
      ).json()
    ).data;
  const a = await presign();
  const b = await presign();
  const put = (url: string) =>
    fetch(url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: new Uint8Array([137, 80, 78, 71]) });
  const forged = new URL(a.uploadUrl);
  forged.searchParams.set('token', `${forged.searchParams.get('token')!.slice(0, -4)}AAAA`);
  assert.is((await put(forged.toString())).status, 403);
  const moved = new URL(b.uploadUrl);
  moved.searchParams.set('token', new URL(a.uploadUrl).searchParams.get('token')!);
  assert.is((await put(moved.toString())).status, 403, 'a token of artifact a does not open artifact b');
  assert.is((await put(a.uploadUrl)).status, 200);
  assert.is((await put(a.uploadUrl)).status, 409, 'a token is single-use');
  const download = await fetch(`${rt.server.url}/api/artifacts/${a.artifactId}`);
  assert.is(download.status, 200);
  assert.is(download.headers.get('content-type'), 'image/png');
  for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e%2fdata', 'art-..', 'art-%00x']) {
    const res = await fetch(`${rt.server.url}/api/artifacts/${id}`);
    assert.ok(res.status === 400 || res.status === 404, `${id} -> ${res.status}`);
  }
});

test.run();
