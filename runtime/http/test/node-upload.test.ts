// Uploads through a real Node HTTP server, as `mimo` serves them (@hono/node-server's listener):
// the body is read from the Node request itself (node-request-body.ts). A refusal mid-body still
// reaches the client, and an upload cut off by its client leaves its token usable.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytes, call, makeHarness, postJson, TASK_ID } from './util.ts';
import type { Harness } from './util.ts';

const s = suite<{ h: Harness; server: Server; origin: string }>('http: uploads through a Node server');
s.before.each(async (ctx) => {
  ctx.h = await makeHarness({ maxUploadBytes: 256 * 1024 });
  ctx.server = createServer(getRequestListener((req, env) => ctx.h.app.fetch(req, env)));
  await new Promise<void>((resolve) => ctx.server.listen(0, '127.0.0.1', resolve));
  ctx.origin = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}`;
});
s.after.each(async ({ h, server }) => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await h.remove();
});

async function uploadPath(h: Harness): Promise<{ path: string; downloadPath: string }> {
  const res = await call(
    h.app,
    '/api/artifacts/presign',
    postJson({ taskId: TASK_ID, kind: 'screenshot', contentType: 'image/png' }),
  );
  const url = new URL(res.body.data.uploadUrl);
  return { path: `${url.pathname}${url.search}`, downloadPath: new URL(res.body.data.downloadUrl).pathname };
}

const put = (origin: string, path: string, body: BodyInit, init: RequestInit = {}) =>
  fetch(`${origin}${path}`, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body, ...init });

s('a 180 KB screenshot is stored byte for byte', async ({ h, origin }) => {
  const p = await uploadPath(h);
  const png = bytes(180 * 1024, 3);
  const res = await put(origin, p.path, png);
  assert.is(res.status, 200);
  assert.is(((await res.json()) as { data: { size: number } }).data.size, png.length);
  const back = new Uint8Array(await (await fetch(`${origin}${p.downloadPath}`)).arrayBuffer());
  assert.equal(back, png);
});

s(
  'a streamed body over the limit is refused with 413 while it is sent, and the token stays usable',
  async ({ h, origin }) => {
    const p = await uploadPath(h);
    const big = bytes(300 * 1024, 5);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= big.length) return controller.close();
        controller.enqueue(big.slice(offset, offset + 16 * 1024));
        offset += 16 * 1024;
      },
    });
    const refused = await put(origin, p.path, stream, { duplex: 'half' } as RequestInit);
    assert.is(refused.status, 413);
    assert.is(((await refused.json()) as { error: { details: { reason: string } } }).error.details.reason, 'too_large');
    const retry = await put(origin, p.path, bytes(10));
    assert.is(retry.status, 200);
  },
);

s('an upload whose client goes away mid-body is dropped: the same token uploads afterwards', async ({ h, origin }) => {
  const p = await uploadPath(h);
  const { port } = new URL(origin);
  const cut = request({
    host: '127.0.0.1',
    port,
    path: p.path,
    method: 'PUT',
    headers: { 'Content-Type': 'image/png', 'Content-Length': '200000' },
  });
  cut.on('error', () => undefined);
  await new Promise<void>((resolve) => cut.write(bytes(50_000), () => resolve()));
  cut.destroy();
  // The server notices the close on its own turn of the loop: until then the slot is taken (409).
  let res = await put(origin, p.path, bytes(20));
  for (let tries = 0; res.status === 409 && tries < 100; tries++) {
    await new Promise((resolve) => setImmediate(resolve));
    res = await put(origin, p.path, bytes(20));
  }
  assert.is(res.status, 200);
  assert.is(((await res.json()) as { data: { size: number } }).data.size, 20);
});

s.run();
