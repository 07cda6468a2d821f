// JSON request bodies: media type, size limit, malformed JSON, schema errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { call, makeHarness, postJson } from './util.ts';
import type { Harness } from './util.ts';

const PATH = '/api/extension/extension-id';
const valid = { extensionId: 'ext', clientId: 'plugin-a', version: '1.0.0' };

const s = suite<{ h: Harness }>('http: JSON bodies');
s.before.each(async (ctx) => {
  ctx.h = await makeHarness({ config: { maxJsonBytes: 256 } });
});
s.after.each(({ h }) => h.remove());

s('application/json with a charset and +json types are accepted', async ({ h }) => {
  for (const type of ['application/json; charset=utf-8', 'application/vnd.mimo+json', 'Application/JSON']) {
    const res = await call(h.app, PATH, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body: JSON.stringify(valid),
    });
    assert.is(res.status, 200, type);
  }
});

s('a non-JSON or missing Content-Type is 415 BAD_REQUEST', async ({ h }) => {
  for (const headers of [
    { 'Content-Type': 'text/plain' },
    { 'Content-Type': 'application/x-www-form-urlencoded' },
    {},
  ] as Array<Record<string, string>>) {
    const res = await call(h.app, PATH, { method: 'POST', headers, body: JSON.stringify(valid) });
    assert.is(res.status, 415, JSON.stringify(headers));
    assert.is(res.body.error.code, 'BAD_REQUEST');
    assert.is(res.body.error.details.reason, 'unsupported_media_type');
  }
  assert.equal(h.registry.list(), []);
});

s('malformed, empty or non-UTF-8 JSON is 400 invalid_json', async ({ h }) => {
  const bodies: Array<string | Uint8Array<ArrayBuffer>> = [
    '{"clientId":',
    '',
    'undefined',
    "{'a':1}",
    Uint8Array.from([0x7b, 0xff, 0x7d]),
  ];
  for (const body of bodies) {
    const res = await call(h.app, PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    assert.is(res.status, 400, String(body));
    assert.equal(res.body.error, {
      code: 'BAD_REQUEST',
      message: 'request body is not valid JSON',
      details: { reason: 'invalid_json' },
    });
  }
});

s('JSON that is not an object is a schema error on the root', async ({ h }) => {
  for (const body of ['"x"', 'null', '42']) {
    const res = await call(h.app, PATH, postJson(body));
    assert.is(res.status, 400, body);
    assert.is(res.body.error.details.fieldErrors[0].field, '', body);
  }
  const array = await call(h.app, PATH, postJson('[]'));
  assert.is(array.status, 400);
  assert.ok(array.body.error.details.fieldErrors.some((e: { field: string }) => e.field === 'clientId'));
});

s('a body over the limit is 413, by Content-Length or while streaming', async ({ h }) => {
  const big = JSON.stringify({ ...valid, ua: 'x'.repeat(300) });
  const declared = await call(h.app, PATH, postJson(big));
  assert.is(declared.status, 413);
  assert.equal(declared.body.error, {
    code: 'BAD_REQUEST',
    message: 'request body exceeds 256 bytes',
    details: { reason: 'too_large' },
  });
  const encoded = new TextEncoder().encode(big);
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = encoded.subarray(pulls * 64, (pulls + 1) * 64);
      pulls++;
      if (chunk.length === 0) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const streamed = await call(h.app, PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  assert.is(streamed.status, 413);
  assert.ok(pulls < Math.ceil(encoded.length / 64) + 1, `stopped reading early (${pulls} pulls)`);
  assert.equal(h.registry.list(), []);
});

s('a body at exactly the limit is read', async ({ h }) => {
  const base = JSON.stringify({ ...valid, ua: '' });
  const exact = JSON.stringify({ ...valid, ua: 'y'.repeat(256 - base.length) });
  assert.is(new TextEncoder().encode(exact).length, 256);
  assert.is((await call(h.app, PATH, postJson(exact))).status, 200);
});

s.run();
