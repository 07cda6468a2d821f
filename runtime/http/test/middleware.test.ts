// Trace ids, protocol header, CORS, token auth, error envelopes, 404/405, access log.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TaskStoreError } from '../../store/index.ts';
import { parseCorsOrigins } from '../cors-policy.ts';
import { call, makeHarness, postJson, WEB } from './util.ts';
import type { Harness } from './util.ts';

const trace = suite<{ h: Harness }>('http: trace id and protocol header');
trace.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
trace.after.each(({ h }) => h.remove());

trace('a given X-Trace-Id is echoed and logged', async ({ h }) => {
  const res = await call(h.app, '/api/task/list', { headers: { 'X-Trace-Id': 'abc-123.x:y_z' } });
  assert.is(res.headers.get('x-trace-id'), 'abc-123.x:y_z');
  assert.is(h.logs.at(-1)!.traceId, 'abc-123.x:y_z');
});

trace('without one, an id is generated, returned and logged', async ({ h }) => {
  const first = await call(h.app, '/api/task/list');
  const second = await call(h.app, '/api/task/list');
  assert.is(first.headers.get('x-trace-id'), 'trace-1');
  assert.is(second.headers.get('x-trace-id'), 'trace-2');
  assert.equal(
    h.logs.map((l) => l.traceId),
    ['trace-1', 'trace-2'],
  );
});

trace('an oversized or odd trace id is replaced, not echoed', async ({ h }) => {
  for (const bad of ['x'.repeat(129), 'has space', 'semi;colon', '']) {
    const res = await call(h.app, '/api/task/list', { headers: { 'X-Trace-Id': bad } });
    assert.match(res.headers.get('x-trace-id')!, /^trace-\d+$/, JSON.stringify(bad));
  }
});

trace('X-Mimo-Protocol: 1 and the trace id are on successes, 404s, 405s, 401s, 500s and preflights', async ({ h }) => {
  const responses = [
    await call(h.app, '/api/task/list'),
    await call(h.app, '/nope'),
    await call(h.app, '/api/task/list', { method: 'DELETE' }),
    await call(h.app, '/api/task/list', {
      method: 'OPTIONS',
      headers: { Origin: WEB, 'Access-Control-Request-Method': 'GET' },
    }),
  ];
  const withToken = await makeHarness({ config: { token: 's3cret' } });
  responses.push(await call(withToken.app, '/api/task/list'));
  await withToken.remove();
  const failing = await makeHarness({
    deps: {
      newTaskId: () => {
        throw new Error('boom');
      },
    },
  });
  responses.push(await call(failing.app, '/api/task/id'));
  await failing.remove();
  assert.equal(
    responses.map((r) => r.status),
    [200, 404, 405, 204, 401, 500],
  );
  for (const res of responses) {
    assert.is(res.headers.get('x-mimo-protocol'), '1', String(res.status));
    assert.ok(res.headers.get('x-trace-id'), String(res.status));
  }
});

trace('the access log has method, path without the query, status and duration', async ({ h }) => {
  // A malformed upload token is refused (403) before any lookup: a presign records nothing to look up.
  await call(h.app, '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx/upload?token=SECRET', { method: 'PUT', body: 'x' });
  const entry = h.logs.at(-1)!;
  assert.equal(entry, {
    type: 'http',
    traceId: 'trace-1',
    method: 'PUT',
    path: '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx/upload',
    status: 403,
    durationMs: 0,
  });
  assert.not.match(JSON.stringify(h.logs), /SECRET/);
});

trace.run();

const cors = suite<{ h: Harness }>('http: CORS');
cors.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
cors.after.each(({ h }) => h.remove());

const preflight = (origin: string, method = 'POST') => ({
  method: 'OPTIONS',
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': method,
    'Access-Control-Request-Headers': 'content-type,authorization',
  },
});

cors(
  'a preflight from an allowed origin is answered with the allowed methods and headers, no credentials',
  async ({ h }) => {
    const res = await call(h.app, '/api/extension/extension-id', preflight(WEB));
    assert.is(res.status, 204);
    assert.is(res.headers.get('access-control-allow-origin'), WEB);
    assert.match(res.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(
      res.headers.get('access-control-allow-headers')!.toLowerCase(),
      /authorization.*x-mimo-token.*x-trace-id/,
    );
    assert.is(res.headers.get('access-control-allow-credentials'), null);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
  },
);

cors('both default origins are allowed on real requests, with the trace id exposed', async ({ h }) => {
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000']) {
    const res = await call(h.app, '/api/task/list', { headers: { Origin: origin } });
    assert.is(res.headers.get('access-control-allow-origin'), origin);
    assert.match(res.headers.get('access-control-expose-headers')!, /X-Trace-Id/);
  }
});

cors('a refused origin gets no Access-Control-Allow-Origin, on preflight or request', async ({ h }) => {
  const pre = await call(h.app, '/api/extension/extension-id', preflight('https://evil.example'));
  assert.is(pre.headers.get('access-control-allow-origin'), null);
  const res = await call(h.app, '/api/task/list', { headers: { Origin: 'http://localhost:3001' } });
  assert.is(res.headers.get('access-control-allow-origin'), null);
});

cors('configured origins replace the default; the public base URL origin is always allowed', async () => {
  const h = await makeHarness({
    config: { corsOrigins: ['https://app.example'], publicBaseUrl: 'http://mimo.local:6006/' },
  });
  const allowed = async (origin: string) =>
    (await call(h.app, '/api/task/list', { headers: { Origin: origin } })).headers.get('access-control-allow-origin');
  assert.is(await allowed('https://app.example'), 'https://app.example');
  assert.is(await allowed('http://mimo.local:6006'), 'http://mimo.local:6006');
  assert.is(await allowed(WEB), null);
  await h.remove();
});

cors('"*" is not a wildcard: no arbitrary origin is echoed, never with credentials', async () => {
  const h = await makeHarness({ config: { corsOrigins: ['*'] } });
  const res = await call(h.app, '/api/task/list', preflight('https://anything.example', 'GET'));
  assert.is(res.headers.get('access-control-allow-origin'), null);
  assert.is(res.headers.get('access-control-allow-credentials'), null);
  await h.remove();
});

cors('parseCorsOrigins reads MIMO_CORS_ORIGIN', () => {
  assert.equal(parseCorsOrigins(undefined), ['http://localhost:3000', 'http://127.0.0.1:3000']);
  assert.equal(parseCorsOrigins('  '), ['http://localhost:3000', 'http://127.0.0.1:3000']);
  assert.equal(parseCorsOrigins('https://a.example/, http://b.example:8080 ,'), [
    'https://a.example',
    'http://b.example:8080',
  ]);
});

cors.run();

const auth = suite<{ h: Harness }>('http: token auth');
auth.before.each(async (ctx) => {
  ctx.h = await makeHarness({ config: { token: 's3cret-token' } });
});
auth.after.each(({ h }) => h.remove());

auth('without the token /api/* is 401 UNAUTHORIZED with a hint', async ({ h }) => {
  const res = await call(h.app, '/api/task/list');
  assert.is(res.status, 401);
  assert.is(res.body.ok, false);
  assert.is(res.body.error.code, 'UNAUTHORIZED');
  assert.match(res.body.error.message, /Authorization: Bearer/);
  assert.match(res.headers.get('www-authenticate')!, /^Bearer/);
});

auth('a 401 still carries CORS headers so the web app can read it', async ({ h }) => {
  const res = await call(h.app, '/api/task/list', { headers: { Origin: WEB } });
  assert.is(res.status, 401);
  assert.is(res.headers.get('access-control-allow-origin'), WEB);
});

auth('a wrong token is 401 invalid token', async ({ h }) => {
  const attempts: Array<Record<string, string>> = [
    { Authorization: 'Bearer nope' },
    { 'X-Mimo-Token': 's3cret-token-longer' },
    { Authorization: 'Basic s3cret-token' },
  ];
  for (const headers of attempts) {
    const res = await call(h.app, '/api/task/list', { headers });
    assert.is(res.status, 401, JSON.stringify(headers));
  }
  assert.is(
    (await call(h.app, '/api/task/list', { headers: { Authorization: 'Bearer nope' } })).body.error.message,
    'invalid token',
  );
});

auth('Bearer or X-Mimo-Token lets the request through', async ({ h }) => {
  assert.is((await call(h.app, '/api/task/list', { headers: { Authorization: 'Bearer s3cret-token' } })).status, 200);
  assert.is((await call(h.app, '/api/task/list', { headers: { authorization: 'bearer s3cret-token' } })).status, 200);
  assert.is((await call(h.app, '/api/task/list', { headers: { 'X-Mimo-Token': 's3cret-token' } })).status, 200);
});

auth('POSTs need it too; presign is not exempt', async ({ h }) => {
  const reg = await call(
    h.app,
    '/api/extension/extension-id',
    postJson({ extensionId: 'e', clientId: 'c', version: '1' }),
  );
  assert.is(reg.status, 401);
  const presign = await call(
    h.app,
    '/api/artifacts/presign',
    postJson({ taskId: '01HRZ8YV8Q6P1Q2W3E4R5T6Y7V', kind: 'screenshot', contentType: 'image/png' }),
  );
  assert.is(presign.status, 401);
  assert.equal(h.registry.list(), [], 'nothing registered');
});

auth('artifact upload and download URLs are exempt: they carry their own token / capability', async ({ h }) => {
  const { uploadUrl, artifactId } = await h.artifacts.presign({
    taskId: '01HRZ8YV8Q6P1Q2W3E4R5T6Y7V',
    kind: 'log',
    contentType: 'text/plain',
  });
  const path = new URL(uploadUrl).pathname;
  const forged = await call(h.app, `${path}?token=forged`, {
    method: 'PUT',
    body: 'x',
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.is(forged.status, 403, 'reached the artifact service, which refused the forged token');
  const upload = await call(h.app, `${path}${new URL(uploadUrl).search}`, {
    method: 'POST',
    body: 'x',
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.is(upload.status, 200, 'the signed token is enough');
  const fetched = await h.app.request(`/api/artifacts/${artifactId}`);
  assert.is(fetched.status, 200);
  assert.is(await fetched.text(), 'x');
  const download = await call(h.app, '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx');
  assert.is(download.status, 404, 'reached the artifact service');
  assert.is(
    (await call(h.app, '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx', { method: 'HEAD' })).status,
    404,
    'HEAD is open too',
  );
  // Everything else under /api/artifacts is behind the token (the open routes are those two only).
  assert.is((await call(h.app, '/api/artifacts/presign')).status, 401, 'GET presign is not a download');
  assert.is((await call(h.app, '/api/artifacts/presign', { method: 'PUT' })).status, 401);
  assert.is((await call(h.app, '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx', { method: 'DELETE' })).status, 401);
  assert.is((await call(h.app, '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx/upload')).status, 401);
});

auth('CORS preflights pass without a token', async ({ h }) => {
  const res = await call(h.app, '/api/task/list', {
    method: 'OPTIONS',
    headers: { Origin: WEB, 'Access-Control-Request-Method': 'GET' },
  });
  assert.is(res.status, 204);
});

auth('with no token configured (or an empty one) nothing is required', async () => {
  for (const token of [undefined, '']) {
    const h = await makeHarness({ config: { token } });
    assert.is((await call(h.app, '/api/task/list')).status, 200);
    await h.remove();
  }
});

auth.run();

const errors = suite('http: error envelopes, 404 and 405');

errors(
  'an unexpected exception is a 500 INTERNAL envelope without its message or stack; the log has them',
  async () => {
    const h = await makeHarness({
      deps: {
        taskStore: {
          listTasks: async () => {
            throw new Error('disk at /secret/path exploded');
          },
          listTaskPage: async () => ({ tasks: [], nextCursor: null }),
          getTask: async () => undefined,
          listMessages: async () => [],
        },
      },
    });
    const res = await call(h.app, '/api/task/list', { headers: { 'X-Trace-Id': 't-500' } });
    assert.is(res.status, 500);
    assert.equal(res.body, {
      ok: false,
      error: {
        code: 'INTERNAL',
        message: 'internal server error (trace id t-500)',
        details: { retryable: true, context: { traceId: 't-500' } },
      },
    });
    const errorLog = h.logs.find((l) => l.type === 'http_error') as {
      traceId: string;
      error: { message: string; stack: string };
    };
    assert.is(errorLog.traceId, 't-500');
    assert.match(errorLog.error.message, /secret/);
    assert.match(errorLog.error.stack, /task-routes|middleware/);
    await h.remove();
  },
);

errors('a store error with a code and status is answered as it says', async () => {
  const h = await makeHarness({
    deps: {
      taskStore: {
        listTasks: async () => {
          throw new TaskStoreError('INTERNAL', 'task store could not read (EIO)', { retryable: true });
        },
        listTaskPage: async () => ({ tasks: [], nextCursor: null }),
        getTask: async () => undefined,
        listMessages: async () => [],
      },
    },
  });
  const res = await call(h.app, '/api/task/list');
  assert.is(res.status, 500);
  assert.equal(res.body, {
    ok: false,
    error: { code: 'INTERNAL', message: 'task store could not read (EIO)', details: { retryable: true } },
  });
  await h.remove();
});

errors('unknown routes are 404 NOT_FOUND envelopes', async () => {
  const h = await makeHarness();
  for (const [method, path] of [
    ['GET', '/api/nothing'],
    ['POST', '/api/task'],
    ['GET', '/'],
    ['GET', '/api/task/list/extra'],
  ] as const) {
    const res = await call(h.app, path, { method });
    assert.is(res.status, 404, path);
    assert.equal(res.body, { ok: false, error: { code: 'NOT_FOUND', message: `no route for ${method} ${path}` } });
  }
  await h.remove();
});

errors('a wrong method on a known path is 405 with Allow and a BAD_REQUEST envelope', async () => {
  const h = await makeHarness();
  const cases: Array<[string, string, string]> = [
    ['POST', '/api/task/list', 'GET, HEAD, OPTIONS'],
    ['PUT', '/api/task/id', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/api/task/01HRZ8YV8Q6P1Q2W3E4R5T6Y7V', 'GET, HEAD, OPTIONS'],
    ['POST', '/api/snapshot', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/extension/extension-id', 'POST, OPTIONS'],
    ['POST', '/api/extension/extension-list', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/artifacts/presign', 'POST, OPTIONS'],
    ['GET', '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx/upload', 'PUT, POST, OPTIONS'],
    ['DELETE', '/api/artifacts/art-xxxxxxxxxxxxxxxxxxxxx', 'GET, HEAD, OPTIONS'],
  ];
  for (const [method, path, allow] of cases) {
    const res = await call(h.app, path, { method });
    assert.is(res.status, 405, `${method} ${path}`);
    assert.is(res.headers.get('allow'), allow, `${method} ${path}`);
    assert.is(res.body.error.code, 'BAD_REQUEST');
    assert.is(res.body.error.details.reason, 'method_not_allowed');
  }
  await h.remove();
});

errors.run();
