// Artifact routes (seed 001 §2.4) over the real artifact service in a temp folder.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArtifactPresignResponseSchema, validate } from '../../../transport/contracts/index.ts';
import { BASE, bytes, call, makeHarness, postJson, stalledBody, T0, TASK_ID } from './util.ts';
import type { Harness } from './util.ts';

const s = suite<{ h: Harness }>('http: artifact routes');
s.before.each(async (ctx) => {
  ctx.h = await makeHarness({ maxUploadBytes: 64 * 1024 });
});
s.after.each(({ h }) => h.remove());

async function presign(h: Harness, contentType = 'image/png') {
  const res = await call(
    h.app,
    '/api/artifacts/presign',
    postJson({ taskId: TASK_ID, kind: 'screenshot', contentType }),
  );
  assert.is(res.status, 200, JSON.stringify(res.body));
  const url = new URL(res.body.data.uploadUrl);
  return {
    ...res.body.data,
    uploadPath: `${url.pathname}${url.search}`,
    path: url.pathname,
    downloadPath: new URL(res.body.data.downloadUrl).pathname,
  };
}

s('presign returns upload and download URLs on the public base URL', async ({ h }) => {
  const res = await call(
    h.app,
    '/api/artifacts/presign',
    postJson({ taskId: TASK_ID, kind: 'screenshot', contentType: 'image/png' }),
  );
  assert.is(res.status, 200);
  const data = res.body.data;
  assert.ok(validate(ArtifactPresignResponseSchema, data).ok);
  assert.match(data.artifactId, /^art-/);
  assert.is(data.uploadUrl.startsWith(`${BASE}/api/artifacts/${data.artifactId}/upload?token=`), true);
  assert.is(data.downloadUrl, `${BASE}/api/artifacts/${data.artifactId}`);
  assert.is(data.expiresAt, T0 + 15 * 60_000);
});

s('presign validates taskId, kind and contentType with field errors', async ({ h }) => {
  const res = await call(
    h.app,
    '/api/artifacts/presign',
    postJson({ taskId: 'nope', kind: 'video', contentType: 'png' }),
  );
  assert.is(res.status, 400);
  const fields = res.body.error.details.fieldErrors.map((e: { field: string }) => e.field).sort();
  assert.equal(fields, ['contentType', 'kind', 'taskId']);
  const missing = await call(h.app, '/api/artifacts/presign', postJson({}));
  assert.equal(missing.body.error.details.fieldErrors.map((e: { field: string }) => e.field).sort(), [
    'contentType',
    'kind',
    'taskId',
  ]);
});

s('presign -> PUT upload -> GET download round trip, with the serving headers', async ({ h }) => {
  const data = bytes(20_000);
  const p = await presign(h);
  h.clock.increment(1000);
  const up = await call(h.app, p.uploadPath, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: data });
  assert.is(up.status, 200, JSON.stringify(up.body));
  assert.equal(up.body.data, {
    artifactId: p.artifactId,
    downloadUrl: p.downloadUrl,
    contentType: 'image/png',
    size: data.length,
    expiresAt: T0 + 1000 + 24 * 3_600_000,
  });
  const res = await h.app.request(p.downloadPath);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'image/png');
  assert.is(res.headers.get('content-length'), String(data.length));
  assert.is(res.headers.get('x-content-type-options'), 'nosniff');
  assert.match(res.headers.get('content-security-policy')!, /sandbox/);
  assert.is(res.headers.get('x-mimo-protocol'), '1');
  assert.equal(new Uint8Array(await res.arrayBuffer()), data);
});

s('POST works for upload as well, with a streamed body', async ({ h }) => {
  const data = bytes(10_000, 3);
  const p = await presign(h);
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(data.slice(offset, offset + 999));
      offset += 999;
    },
  });
  const up = await call(h.app, p.uploadPath, {
    method: 'POST',
    headers: { 'Content-Type': 'image/png' },
    body,
    duplex: 'half',
  } as RequestInit);
  assert.is(up.status, 200, JSON.stringify(up.body));
  assert.equal(new Uint8Array(await (await h.app.request(p.downloadPath)).arrayBuffer()), data);
});

s('HEAD on a download gives the headers without a body', async ({ h }) => {
  const p = await presign(h);
  await call(h.app, p.uploadPath, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: bytes(100) });
  const res = await h.app.request(p.downloadPath, { method: 'HEAD' });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-length'), '100');
  assert.is((await res.arrayBuffer()).byteLength, 0);
});

s('an upload over the limit is 413, declared or streamed, and the token stays usable', async ({ h }) => {
  const p = await presign(h);
  const declared = await call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: bytes(64 * 1024 + 1),
  });
  assert.is(declared.status, 413);
  assert.is(declared.body.error.code, 'BAD_REQUEST');
  assert.is(declared.body.error.details.reason, 'too_large');
  const big = bytes(70 * 1024);
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= big.length) return controller.close();
      controller.enqueue(big.slice(offset, offset + 8192));
      offset += 8192;
    },
  });
  const streamed = await call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  assert.is(streamed.status, 413);
  const retry = await call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: bytes(10),
  });
  assert.is(retry.status, 200);
});

s("a forged, missing or other artifact's token is 403 FORBIDDEN", async ({ h }) => {
  const p = await presign(h);
  const other = await presign(h);
  const otherToken = new URL(other.uploadUrl).searchParams.get('token')!;
  for (const query of ['?token=123.forged', '', `?token=${encodeURIComponent(otherToken)}`]) {
    const res = await call(h.app, `${p.path}${query}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: bytes(10),
    });
    assert.is(res.status, 403, query);
    assert.is(res.body.error.code, 'FORBIDDEN');
    assert.is(res.body.error.details.reason, 'invalid_token');
  }
});

s('an expired upload token is 403 token_expired', async ({ h }) => {
  const p = await presign(h);
  h.clock.increment(15 * 60_000 + 1);
  const res = await call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: bytes(10),
  });
  assert.is(res.status, 403);
  assert.is(res.body.error.details.reason, 'token_expired');
});

s('a second upload with the same token is 409 CONFLICT', async ({ h }) => {
  const p = await presign(h);
  assert.is(
    (await call(h.app, p.uploadPath, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: bytes(10) }))
      .status,
    200,
  );
  const again = await call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: bytes(10),
  });
  assert.is(again.status, 409);
  assert.is(again.body.error.code, 'CONFLICT');
});

s('a Content-Type other than the presigned one is 415', async ({ h }) => {
  const p = await presign(h);
  const res = await call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'text/html' },
    body: '<p>x</p>',
  });
  assert.is(res.status, 415);
  assert.is(res.body.error.details.reason, 'content_type_mismatch');
});

s('an upload that does not finish in time is 408', async ({ h }) => {
  const p = await presign(h);
  const body = stalledBody(bytes(10));
  const pending = call(h.app, p.uploadPath, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: body.stream,
    duplex: 'half',
  } as RequestInit);
  await body.reads(2);
  h.scheduler.fireTimeouts();
  const res = await pending;
  assert.is(res.status, 408);
  assert.is(res.body.error.details.reason, 'upload_timeout');
});

s('an expired artifact is 410 with details.reason "expired"', async ({ h }) => {
  const p = await presign(h);
  await call(h.app, p.uploadPath, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: bytes(10) });
  h.clock.increment(24 * 3_600_000 + 1);
  const res = await call(h.app, p.downloadPath);
  assert.is(res.status, 410);
  assert.is(res.body.ok, false);
  assert.is(res.body.error.code, 'NOT_FOUND');
  assert.is(res.body.error.details.reason, 'expired');
});

s('unknown, not yet uploaded and malformed artifact ids', async ({ h }) => {
  const unknown = await call(h.app, '/api/artifacts/art-aaaaaaaaaaaaaaaaaaaaa');
  assert.equal(
    [unknown.status, unknown.body.error.code, unknown.body.error.details.reason],
    [404, 'NOT_FOUND', 'not_found'],
  );
  const p = await presign(h);
  const pending = await call(h.app, p.downloadPath);
  assert.equal([pending.status, pending.body.error.details.reason], [404, 'pending']);
  for (const bad of ['x', '..', 'art-short', '%2e%2e%2fetc%2fpasswd']) {
    const res = await call(h.app, `/api/artifacts/${bad}`);
    assert.ok(res.status === 400 || res.status === 404, `${bad}: ${res.status}`);
    assert.is(res.body.ok, false);
  }
  assert.is((await call(h.app, '/api/artifacts/x')).body.error.details.reason, 'invalid_id');
});

s.run();
