// Uploads and downloads: streaming into the folder, limits, timeout, concurrency, open().
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactResponseHeaders } from '../download-headers.ts';
import { chunks, makeHarness, manualBody, readAll, rejection, T0, tokenOf, webStream } from './util.ts';
import type { Harness } from './util.ts';

const s = suite<{ h: Harness }>('artifact uploads and downloads');
const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * seed + 3) % 251);

s.before.each(async (ctx) => {
  ctx.h = await makeHarness({ maxUploadBytes: 64 * 1024 });
});
s.after.each(async (ctx) => ctx.h.remove());

async function presignPng(h: Harness) {
  const p = await h.service.presign({ taskId: 'task-1', kind: 'screenshot', contentType: 'image/png' });
  return { ...p, token: tokenOf(p.uploadUrl) };
}

s('an AsyncIterable upload lands in dir/<artifactId> with its metadata beside it', async ({ h }) => {
  const data = bytes(10_000);
  const p = await presignPng(h);
  h.clock.increment(2000);
  const stored = await h.service.acceptUpload(p.artifactId, p.token, chunks(data, 777), {
    contentLength: data.length,
    contentType: 'image/png',
  });
  assert.is(stored.size, data.length);
  assert.is(stored.expiresAt, T0 + 2000 + 24 * 3_600_000);
  assert.equal(await readFile(join(h.dir, p.artifactId)), Buffer.from(data));
  const meta = JSON.parse(await readFile(join(h.dir, `${p.artifactId}.json`), 'utf8'));
  assert.equal(
    {
      taskId: meta.taskId,
      kind: meta.kind,
      contentType: meta.contentType,
      createdAt: meta.createdAt,
      expiresAt: meta.expiresAt,
      state: meta.state,
      size: meta.size,
    },
    {
      taskId: 'task-1',
      kind: 'screenshot',
      contentType: 'image/png',
      createdAt: T0,
      expiresAt: stored.expiresAt,
      state: 'ready',
      size: data.length,
    },
  );
  assert.equal((await readdir(h.dir)).sort(), [p.artifactId, `${p.artifactId}.json`].sort(), 'no temp file left');
});

s('a web ReadableStream upload works and open() streams it back', async ({ h }) => {
  const data = bytes(50_000, 13);
  const p = await presignPng(h);
  await h.service.acceptUpload(p.artifactId, p.token, webStream(data, 4096));
  const opened = await h.service.open(p.artifactId);
  assert.equal(
    {
      artifactId: opened.artifactId,
      taskId: opened.taskId,
      kind: opened.kind,
      contentType: opened.contentType,
      size: opened.size,
      path: opened.path,
    },
    {
      artifactId: p.artifactId,
      taskId: 'task-1',
      kind: 'screenshot',
      contentType: 'image/png',
      size: data.length,
      path: join(h.dir, p.artifactId),
    },
  );
  assert.equal(await readAll(opened.stream()), Buffer.from(data));
  assert.equal(await readAll(opened.stream()), Buffer.from(data), 'each stream() is fresh');
  const headers = artifactResponseHeaders(opened);
  assert.is(headers['content-type'], 'image/png');
  assert.is(headers['content-length'], String(data.length));
  assert.is(headers['x-content-type-options'], 'nosniff');
  assert.match(headers['content-security-policy']!, /sandbox/);
});

s('an empty upload is a valid zero-byte artifact', async ({ h }) => {
  const p = await presignPng(h);
  assert.is(
    (await h.service.acceptUpload(p.artifactId, p.token, chunks(new Uint8Array(0)), { contentLength: 0 })).size,
    0,
  );
  assert.is((await h.service.open(p.artifactId)).size, 0);
});

s(
  'oversize while streaming: 413, nothing past the limit written, nothing left behind, token still usable',
  async ({ h }) => {
    const p = await presignPng(h);
    const body = manualBody();
    const upload = h.service.acceptUpload(p.artifactId, p.token, body);
    body.push(bytes(40 * 1024));
    body.push(bytes(30 * 1024)); // crosses 64 KiB
    const error = await rejection(upload);
    assert.is(error.code, 'BAD_REQUEST');
    assert.is(error.status, 413);
    assert.is(error.reason, 'too_large');
    assert.ok(body.cancelled, 'the sender is cut off');
    assert.equal(await readdir(h.dir), [], 'nothing left behind (a presign records nothing)');
    await rejection(h.service.open(p.artifactId)).then((e) => assert.is(e.reason, 'pending'));
    // A failed attempt does not consume the token.
    assert.is((await h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(64 * 1024)))).size, 64 * 1024);
  },
);

s('a declared Content-Length over the limit is refused before reading the body', async ({ h }) => {
  const p = await presignPng(h);
  const body = manualBody();
  const error = await rejection(h.service.acceptUpload(p.artifactId, p.token, body, { contentLength: 64 * 1024 + 1 }));
  assert.is(error.status, 413);
  assert.is(body.readCount, 0);
  assert.ok(body.cancelled);
});

s('the default limit is 25 MB', async ({ h }) => {
  const service = h.make({ maxUploadBytes: undefined });
  const p = await service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  const token = tokenOf(p.uploadUrl);
  assert.is(
    (
      await rejection(
        service.acceptUpload(p.artifactId, token, chunks(new Uint8Array(1)), { contentLength: 25 * 1024 * 1024 + 1 }),
      )
    ).status,
    413,
  );
  const big = new Uint8Array(25 * 1024 * 1024);
  assert.is((await service.acceptUpload(p.artifactId, token, chunks(big, 1024 * 1024))).size, big.length);
});

s('fewer or more bytes than the declared Content-Length: 400 length_mismatch', async ({ h }) => {
  const p = await presignPng(h);
  const error = await rejection(
    h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(100)), { contentLength: 101 }),
  );
  assert.is(error.reason, 'length_mismatch');
  assert.is(error.status, 400);
  assert.is(
    (await rejection(h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(100)), { contentLength: 99 }))).reason,
    'length_mismatch',
  );
  assert.equal(await readdir(h.dir), [], 'nothing left behind (a presign records nothing)');
});

s('an upload that stalls past uploadTimeoutMs fails with 408 and cleans up', async ({ h }) => {
  const p = await presignPng(h);
  const body = manualBody();
  const upload = h.service.acceptUpload(p.artifactId, p.token, body);
  body.push(bytes(1000));
  await body.reads(2); // first chunk written, now waiting for more
  const [timer] = [...h.scheduler.timeouts.values()];
  assert.is(timer?.ms, 60_000, 'default upload timeout');
  h.scheduler.fireTimeouts();
  const error = await rejection(upload);
  assert.is(error.status, 408);
  assert.is(error.reason, 'upload_timeout');
  assert.is(error.retryable, true);
  assert.ok(body.cancelled);
  assert.equal(await readdir(h.dir), [], 'nothing left behind (a presign records nothing)');
  assert.is(h.scheduler.timeouts.size, 0);
});

s('a finished upload clears its timer', async ({ h }) => {
  const p = await presignPng(h);
  await h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(10)));
  assert.is(h.scheduler.timeouts.size, 0);
});

s('a second upload while the first is streaming is CONFLICT upload_in_progress', async ({ h }) => {
  const p = await presignPng(h);
  const first = manualBody();
  const upload = h.service.acceptUpload(p.artifactId, p.token, first);
  await first.reads(1);
  const second = await rejection(h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(5))));
  assert.is(second.code, 'CONFLICT');
  assert.is(second.reason, 'upload_in_progress');
  first.push(bytes(20));
  first.end();
  assert.is((await upload).size, 20);
});

s('racing uploads with one token: exactly one succeeds', async ({ h }) => {
  const p = await presignPng(h);
  const results = await Promise.allSettled(
    [1, 2, 3, 4].map((n) => h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(100, n)))),
  );
  assert.is(results.filter((r) => r.status === 'fulfilled').length, 1);
  for (const r of results) if (r.status === 'rejected') assert.is((r.reason as { code: string }).code, 'CONFLICT');
});

s('bytes left without metadata by a crashed upload are replaced by the upload', async ({ h }) => {
  const p = await presignPng(h);
  const { mkdir, writeFile } = await import('node:fs/promises');
  await mkdir(h.dir, { recursive: true });
  await writeFile(join(h.dir, p.artifactId), bytes(5_000, 3)); // a crash between the bytes and their metadata
  const restarted = h.make(); // after the restart nothing is known to be presigned: the store is asked
  const data = bytes(300, 11);
  assert.is((await restarted.acceptUpload(p.artifactId, p.token, chunks(data, 64))).size, data.length);
  assert.equal(await readFile(join(h.dir, p.artifactId)), Buffer.from(data));
  assert.is((await rejection(h.service.acceptUpload(p.artifactId, p.token, chunks(data)))).reason, 'already_uploaded');
});

s('after a failed upload the same URL uploads; after a success it is refused, bytes kept', async ({ h }) => {
  const p = await presignPng(h);
  const failing = manualBody();
  const upload = h.service.acceptUpload(p.artifactId, p.token, failing);
  await failing.reads(1);
  failing.push(bytes(10));
  failing.fail(new Error('connection reset'));
  assert.is((await rejection(upload)).reason, 'body_error');
  assert.equal(await readdir(h.dir), [], 'nothing kept of the failed upload');
  const data = bytes(60_000, 5); // several chunks, gathered into one write
  assert.is((await h.service.acceptUpload(p.artifactId, p.token, chunks(data, 4096))).size, data.length);
  assert.is(
    (await rejection(h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(3))))).reason,
    'already_uploaded',
  );
  assert.equal(await readFile(join(h.dir, p.artifactId)), Buffer.from(data));
});

s('a body that errors or yields non-bytes: 400 body_error, nothing kept', async ({ h }) => {
  const p = await presignPng(h);
  const body = manualBody();
  const upload = h.service.acceptUpload(p.artifactId, p.token, body);
  body.push(bytes(10));
  body.fail(new Error('client went away'));
  assert.is((await rejection(upload)).reason, 'body_error');
  async function* strings() {
    yield 'not bytes' as unknown as Uint8Array;
  }
  assert.is((await rejection(h.service.acceptUpload(p.artifactId, p.token, strings()))).reason, 'body_error');
  assert.is((await rejection(h.service.acceptUpload(p.artifactId, p.token, 'text' as never))).reason, 'body_error');
  assert.equal(await readdir(h.dir), [], 'nothing left behind (a presign records nothing)');
});

s('a Content-Type other than the presigned one is refused with 415', async ({ h }) => {
  const p = await presignPng(h);
  const error = await rejection(
    h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(4)), { contentType: 'text/html' }),
  );
  assert.is(error.status, 415);
  assert.is(error.reason, 'content_type_mismatch');
  assert.is(
    (await h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(4)), { contentType: 'IMAGE/PNG; q=1' })).size,
    4,
  );
});

s('open: unknown is 404, not yet uploaded is 404 pending, past the download TTL is 410 expired', async ({ h }) => {
  const unknown = await rejection(h.service.open('art-AAAAAAAAAAAAAAAAAAAAA'));
  assert.equal([unknown.code, unknown.status, unknown.reason], ['NOT_FOUND', 404, 'not_found']);
  const p = await presignPng(h);
  const pending = await rejection(h.service.open(p.artifactId));
  assert.equal([pending.code, pending.status, pending.reason], ['NOT_FOUND', 404, 'pending']);
  await h.service.acceptUpload(p.artifactId, p.token, chunks(bytes(8)));
  h.clock.increment(24 * 3_600_000 - 1);
  assert.is((await h.service.open(p.artifactId)).size, 8);
  h.clock.increment(1);
  const expired = await rejection(h.service.open(p.artifactId));
  assert.equal([expired.code, expired.status, expired.reason], ['NOT_FOUND', 410, 'expired']);
  assert.equal(expired.toJSON(), {
    code: 'NOT_FOUND',
    message: expired.message,
    details: { reason: 'expired', context: { artifactId: p.artifactId } },
  });
});

s('putArtifact stores server-side bytes or text for download', async ({ h }) => {
  const text = '# Readability\n'.repeat(1000) + 'é';
  const stored = await h.service.putArtifact({
    taskId: 'task-1',
    kind: 'readability',
    contentType: 'text/markdown; charset=utf-8',
    bytes: text,
  });
  assert.is(stored.size, Buffer.byteLength(text));
  assert.is(stored.expiresAt, T0 + 24 * 3_600_000);
  const opened = await h.service.open(stored.artifactId);
  assert.is(opened.kind, 'readability');
  assert.is((await readAll(opened.stream())).toString('utf8'), text);
  const binary = await h.service.putArtifact({
    taskId: 'task-1',
    kind: 'screenshot',
    contentType: 'image/png',
    bytes: bytes(300),
  });
  assert.equal(await readFile(join(h.dir, binary.artifactId)), Buffer.from(bytes(300)));
  const tooBig = await rejection(
    h.service.putArtifact({
      taskId: 't',
      kind: 'log',
      contentType: 'text/plain',
      bytes: new Uint8Array(64 * 1024 + 1),
    }),
  );
  assert.is(tooBig.status, 413);
  assert.is((await readdir(h.dir)).length, 4, 'two artifacts, two metadata files, nothing for the refused one');
});

s('presign and putArtifact refuse bad input (header injection, odd kinds, path-like task ids)', async ({ h }) => {
  const bad = [
    { taskId: 't', kind: 'screenshot', contentType: 'image/png\r\nSet-Cookie: x=1' },
    { taskId: 't', kind: 'screenshot', contentType: 'png' },
    { taskId: 't', kind: 'screenshot', contentType: '' },
    { taskId: 't', kind: 'a/b', contentType: 'image/png' },
    { taskId: 't', kind: '', contentType: 'image/png' },
    { taskId: '../etc', kind: 'log', contentType: 'text/plain' },
    { taskId: '', kind: 'log', contentType: 'text/plain' },
    { kind: 'log', contentType: 'text/plain' },
    { taskId: 't', kind: 'log', contentType: `text/${'x'.repeat(300)}` },
    null,
  ];
  for (const input of bad) {
    const error = await rejection(h.service.presign(input as never));
    assert.is(error.code, 'BAD_REQUEST', JSON.stringify(input));
    assert.is(error.reason, 'invalid_input');
    assert.is(
      (await rejection(h.service.putArtifact({ ...(input as object), bytes: 'x' } as never))).code,
      'BAD_REQUEST',
    );
  }
  assert.is(
    (await rejection(h.service.putArtifact({ taskId: 't', kind: 'log', contentType: 'text/plain', bytes: 5 as never })))
      .reason,
    'invalid_input',
  );
  assert.equal(await readdir(h.dir).catch(() => []), []);
});

s('an unwritable folder gives INTERNAL 500; the service works once it is fixed', async ({ h }) => {
  const { writeFile, rm } = await import('node:fs/promises');
  await writeFile(h.dir, 'a file where the folder should be');
  const service = h.make();
  // A presign writes nothing, so it still answers; the upload is what meets the broken folder.
  const p = await service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  const error = await rejection(service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(bytes(3))));
  assert.equal([error.code, error.status, error.reason], ['INTERNAL', 500, 'io_error']);
  assert.not.match(error.message, h.dir);
  const put = await rejection(service.putArtifact({ taskId: 't', kind: 'log', contentType: 'text/plain', bytes: 'x' }));
  assert.equal([put.code, put.status, put.reason], ['INTERNAL', 500, 'io_error']);
  await rm(h.dir);
  assert.is(
    (await service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(bytes(3)))).size,
    3,
    'the same URL works once the folder is fixed',
  );
});

s.run();
