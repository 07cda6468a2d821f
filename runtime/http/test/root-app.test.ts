// The root app's order on its own: the gate first, /api/* to the API app, the extra route groups,
// the web UI, then the API app for everything else; a route group that throws answers an envelope.
import { Hono } from 'hono';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequestGate } from '../request-gate.ts';
import { createRootApp } from '../root-app.ts';

const test = suite('http: root app');

function root() {
  const seen: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const api = {
    fetch: (request: Request) => (seen.push(`api ${new URL(request.url).pathname}`), Response.json({ ok: true })),
  };
  const routes = new Hono();
  routes.get('/mcp', (c) => c.text('mcp'));
  routes.get('/mcp/boom', () => {
    throw new Error('secret detail');
  });
  const webUi = new Hono();
  webUi.get('*', (c) => c.text('ui'));
  const gate = createRequestGate({ bindHost: '127.0.0.1' });
  const app = createRootApp({ gate, api, routes, webUi, log: (entry) => logs.push(entry) });
  return { app, seen, logs };
}

test('each way in reaches its group, in order', async () => {
  const { app, seen } = root();
  assert.is(await (await app.request('/api/task/list')).text(), '{"ok":true}');
  assert.is(await (await app.request('/mcp')).text(), 'mcp');
  assert.is(await (await app.request('/tasks/x')).text(), 'ui');
  assert.is((await app.request('/tasks/x', { method: 'POST' })).status, 200, 'not a UI GET: the API app answers');
  assert.equal(seen, ['api /api/task/list', 'api /tasks/x']);
});

test('the gate answers before any group', async () => {
  const { app, seen, logs } = root();
  const res = await app.request('/mcp', { headers: { Origin: 'http://evil.example' } });
  assert.is(res.status, 403);
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.is((await res.json()).error.code, 'FORBIDDEN');
  assert.equal(seen, []);
  assert.is(logs[0]?.event, 'request_refused');
});

test('a group that throws answers a 500 INTERNAL envelope, without the exception text', async () => {
  const { app, logs } = root();
  const res = await app.request('/mcp/boom');
  assert.is(res.status, 500);
  const body = await res.json();
  assert.is(body.error.code, 'INTERNAL');
  assert.not.match(JSON.stringify(body), /secret detail/);
  assert.ok(logs.some((entry) => entry.type === 'http_error'));
});

test.run();
