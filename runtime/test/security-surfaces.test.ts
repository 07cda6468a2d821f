// Every way into a running server, tried the way an attacker would from Node (the browser
// version is security-browser.test.ts): rebinding Host names, foreign Origins, polling and
// WebSocket handshakes, preflights, /mcp, artifacts, the root namespace, a page posing as the
// extension; and the bad-input answers of issue 12 (broken escapes, 413 closing the connection,
// disconnect(true) reaching socket.io-client).
import { request as httpRequest } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { DEFAULT_EXTENSION_ID } from '../../transport/contracts/extension-identity.ts';
import { createMcpRoutes, createMemoryRunStore } from '../mcp/index.ts';
import { createUrlPolicy, defaultUrlPolicyConfig } from '../url-policy/index.ts';
import { startRuntime, type TestRuntime } from './util.ts';

const TOKEN = 'security-surfaces-token-0123456789';
const test = suite<{ rt: TestRuntime; port: number }>('security surfaces', { rt: undefined as never, port: 0 });

test.before(async (ctx) => {
  ctx.rt = await startRuntime({
    config: { token: TOKEN, corsOrigins: ['http://localhost:3000'] },
    routes: (services) =>
      createMcpRoutes(services, {
        urlPolicy: createUrlPolicy({ config: defaultUrlPolicyConfig, resolve: async () => [] }),
        runStore: createMemoryRunStore(),
      }),
  });
  ctx.port = Number(new URL(ctx.rt.server.url).port);
});
test.after(async (ctx) => {
  await ctx.rt.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly these headers (fetch will not send a Host of our choosing). */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function upgrade(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string } | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers, setHost: false } as WebSocket.ClientOptions);
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    ws.on('error', () => {});
  });
}

const envelopeCode = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;
const bearer = { Authorization: `Bearer ${TOKEN}` };
const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

test('Host: evil.example (DNS rebinding) is refused on /api, /mcp, the web UI, artifacts, polling and the WebSocket upgrade, even with the token', async ({
  port,
}) => {
  const evil = { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}`, ...bearer };
  for (const [method, path, body] of [
    ['GET', '/api/task/list'],
    ['POST', '/mcp', mcpBody],
    ['GET', '/'],
    ['GET', '/api/artifacts/art-0123456789abcdefghijk'],
    ['GET', '/socket.io/?EIO=4&transport=polling'],
    ['OPTIONS', '/socket.io/?EIO=4&transport=polling'],
  ] as Array<[string, string, string?]>) {
    const res = await raw(port, method, path, { ...evil, ...(body ? mcpHeaders : {}) }, body);
    assert.is(res.status, 421, `${method} ${path}`);
    assert.is(envelopeCode(res.body), 'FORBIDDEN');
  }
  const ws = await upgrade(port, '/socket.io/?EIO=4&transport=websocket', { Host: `evil.example:${port}` });
  assert.ok(ws !== 'open' && ws.status === 421, JSON.stringify(ws));
  // The same requests with our own name pass the gate (and then meet the token check).
  assert.is((await raw(port, 'GET', '/api/task/list', { Host: `localhost:${port}`, ...bearer })).status, 200);
  assert.is((await raw(port, 'GET', '/api/task/list', { Host: `localhost:${port}` })).status, 401);
});

test('missing Host, Host with userinfo and absolute-form targets are refused', async ({ port }) => {
  assert.is((await raw(port, 'GET', '/api/task/list', { ...bearer })).status, 400);
  assert.is(
    (await raw(port, 'GET', '/api/task/list', { Host: `evil.example@localhost:${port}`, ...bearer })).status,
    400,
  );
  assert.is(
    (await raw(port, 'GET', `http://evil.example/api/task/list`, { Host: `localhost:${port}`, ...bearer })).status,
    400,
  );
  assert.is(
    (
      await raw(port, 'GET', `http://localhost:${port}/socket.io/?EIO=4&transport=polling`, {
        Host: `localhost:${port}`,
      })
    ).status,
    400,
  );
});

test('the web UI cannot be framed by another site', async ({ port }) => {
  const res = await raw(port, 'GET', '/', { Host: `localhost:${port}` });
  assert.is(res.headers['x-frame-options'], 'DENY');
  assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
});

test('a foreign Origin is refused on every surface: API, preflight, /mcp, polling (with and without sid), WebSocket', async ({
  port,
}) => {
  const host = { Host: `localhost:${port}` };
  for (const origin of ['http://evil.example', 'null', `http://localhost:${port + 1}`, `http://127.0.0.1:${port}`]) {
    const from = { ...host, Origin: origin };
    assert.is((await raw(port, 'GET', '/api/task/list', { ...from, ...bearer })).status, 403, origin);
    assert.is(
      (await raw(port, 'OPTIONS', '/api/task/list', { ...from, 'Access-Control-Request-Method': 'GET' })).status,
      403,
    );
    assert.is((await raw(port, 'POST', '/mcp', { ...from, ...bearer, ...mcpHeaders }, mcpBody)).status, 403);
    assert.is((await raw(port, 'GET', '/socket.io/?EIO=4&transport=polling', from)).status, 403);
    assert.is((await raw(port, 'OPTIONS', '/socket.io/?EIO=4&transport=polling', from)).status, 403);
    const ws = await upgrade(port, '/socket.io/?EIO=4&transport=websocket', from);
    assert.ok(ws !== 'open' && ws.status === 403, `${origin}: ${JSON.stringify(ws)}`);
  }
  // A session opened by a legitimate client cannot be used from a foreign origin either.
  const open = await raw(port, 'GET', '/socket.io/?EIO=4&transport=polling', host);
  const sid = (JSON.parse(open.body.slice(1)) as { sid: string }).sid;
  assert.is(
    (
      await raw(port, 'GET', `/socket.io/?EIO=4&transport=polling&sid=${sid}`, {
        ...host,
        Origin: 'http://evil.example',
      })
    ).status,
    403,
  );
  const ws = await upgrade(port, `/socket.io/?EIO=4&transport=websocket&sid=${sid}`, {
    ...host,
    Origin: 'http://evil.example',
  });
  assert.ok(ws !== 'open' && ws.status === 403);
});

test('CORS: an allowed origin is echoed without credentials; polling answers never allow credentials', async ({
  port,
}) => {
  const res = await raw(port, 'GET', '/socket.io/?EIO=4&transport=polling', {
    Host: `localhost:${port}`,
    Origin: 'http://localhost:3000',
  });
  assert.is(res.status, 200);
  assert.is(res.headers['access-control-allow-origin'], 'http://localhost:3000');
  assert.is(res.headers['access-control-allow-credentials'], undefined);
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

for (const transports of [['websocket'], ['polling']]) {
  test(`Socket.IO over ${transports[0]}: every namespace needs the token; a web page cannot pose as the extension`, async ({
    rt,
  }) => {
    const base = rt.server.url;
    assert.is(await attempt(`${base}/`, { transports, auth: {} }), 'UNAUTHORIZED');
    assert.is(await attempt(`${base}/`, { transports, auth: { token: TOKEN } }), 'connected');
    assert.is(
      await attempt(`${base}/mimo`, { transports, auth: { clientType: 'plugin', clientId: 'fake-1' } }),
      'UNAUTHORIZED',
    );
    const own = { Origin: base.replace('127.0.0.1', 'localhost') };
    assert.is(
      await attempt(`${base.replace('127.0.0.1', 'localhost')}/mimo`, {
        transports,
        extraHeaders: own,
        auth: { clientType: 'plugin', clientId: 'fake-2', token: TOKEN },
      }),
      'FORBIDDEN',
    );
    assert.is(
      await attempt(`${base}/mimo`, {
        transports,
        extraHeaders: { Origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
        auth: { clientType: 'plugin', clientId: 'ext-1', token: TOKEN },
      }),
      'connected',
    );
    assert.is(
      await attempt(`${base}/mimo`, { transports, auth: { clientType: 'plugin', clientId: 'node-1', token: TOKEN } }),
      'connected',
    );
    assert.ok(!rt.server.registry.list().some((e) => e.clientId === 'fake-1' || e.clientId === 'fake-2'));
  });
}

test('broken percent-escapes answer 400 in the envelope on every path', async ({ port }) => {
  for (const path of ['/%E0%A4%A', '/api/task/%zz', '/assets/%', '/mcp%', '/api/artifacts/%C0']) {
    const res = await raw(port, 'GET', path, { Host: `localhost:${port}`, ...bearer });
    assert.is(res.status, 400, path);
    assert.is(envelopeCode(res.body), 'BAD_REQUEST');
  }
});

test('413 answers close the connection', async ({ port }) => {
  const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) });
  const res = await raw(
    port,
    'POST',
    '/api/artifacts/presign',
    {
      Host: `localhost:${port}`,
      ...bearer,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(big)),
    },
    big,
  ).catch((error: Error) => ({ status: -1, headers: {}, body: error.message }) as Raw);
  assert.is(res.status, 413);
  assert.is(res.headers.connection, 'close');
});

test('socket.disconnect(true) reaches socket.io-client as a server disconnect: it does not reconnect', async ({
  rt,
}) => {
  for (const transports of [['websocket'], ['polling']]) {
    const socket = io(`${rt.server.url}/mimo`, {
      forceNew: true,
      transports,
      reconnectionDelay: 10,
      reconnectionDelayMax: 20,
      auth: { clientType: 'frontend', token: TOKEN },
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const reason = new Promise<string>((resolve) => socket.once('disconnect', (r) => resolve(r)));
    let reconnects = 0;
    socket.io.on('reconnect_attempt', () => reconnects++);
    const server = [...rt.server.nsp.sockets.values()].find((s) => s.id === socket.id)!;
    server.disconnect(true);
    assert.is(await reason, 'io server disconnect', transports[0]);
    await new Promise((r) => setTimeout(r, 150)); // several reconnection delays (10-20 ms) of the client
    assert.is(reconnects, 0, transports[0]);
    assert.is(socket.connected, false);
    socket.close();
  }
});

test.run();
