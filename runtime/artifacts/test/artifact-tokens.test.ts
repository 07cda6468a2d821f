// Presigned upload URLs: shape, and tokens that are forged, tampered, moved, expired or reused.
import { readdir } from 'node:fs/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isValidArtifactId } from '../artifact-id.ts';
import { createFolderArtifactStore } from '../artifact-folder-store.ts';
import { signPresignToken, signUploadToken, verifyPresignToken, verifyUploadToken } from '../upload-token.ts';
import { BASE, chunks, makeHarness, rejection, SECRET, T0, tokenOf } from './util.ts';
import type { Harness } from './util.ts';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
const s = suite<{ h: Harness }>('artifact upload tokens');

s.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
s.after.each(async (ctx) => ctx.h.remove());

s('presign returns the seed 001 §2.4 shape', async ({ h }) => {
  const result = await h.service.presign({
    taskId: '01HR9ZQ6ZC0Y0A7N4V1E8W2K3M',
    kind: 'screenshot',
    contentType: 'image/png',
  });
  assert.ok(isValidArtifactId(result.artifactId));
  assert.is(result.downloadUrl, `${BASE}/api/artifacts/${result.artifactId}`);
  assert.ok(result.uploadUrl.startsWith(`${BASE}/api/artifacts/${result.artifactId}/upload?token=`));
  assert.is(result.expiresAt, T0 + 15 * 60_000);
  const token = tokenOf(result.uploadUrl);
  assert.match(token, /^\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  assert.is(token.split('.')[0], String(result.expiresAt), 'the expiry is inside the token');
  assert.equal(
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()),
    ['01HR9ZQ6ZC0Y0A7N4V1E8W2K3M', 'screenshot', 'image/png', T0],
    'and what the upload records',
  );
  const second = await h.service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  assert.is.not(second.artifactId, result.artifactId);
});

s('publicBaseUrl with a trailing slash or a path prefix builds clean URLs', async ({ h }) => {
  const a = await h
    .make({ publicBaseUrl: 'http://localhost:6006/' })
    .presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  assert.is(a.downloadUrl, `http://localhost:6006/api/artifacts/${a.artifactId}`);
  const b = await h
    .make({ publicBaseUrl: 'https://mimo.example/prefix/' })
    .presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  assert.is(b.downloadUrl, `https://mimo.example/prefix/api/artifacts/${b.artifactId}`);
});

s('the issued token uploads once; the same token again is CONFLICT', async ({ h }) => {
  const p = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  const stored = await h.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png));
  assert.equal(stored, {
    artifactId: p.artifactId,
    downloadUrl: p.downloadUrl,
    contentType: 'image/png',
    size: png.length,
    expiresAt: T0 + 24 * 3_600_000,
  });
  const again = await rejection(
    h.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(new Uint8Array([9]))),
  );
  assert.is(again.code, 'CONFLICT');
  assert.is(again.status, 409);
  assert.is(again.reason, 'already_uploaded');
  const opened = await h.service.open(p.artifactId);
  assert.is(opened.size, png.length, 'the first upload is kept');
});

s('forged, tampered and malformed tokens are FORBIDDEN', async ({ h }) => {
  const p = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  const good = tokenOf(p.uploadUrl);
  const [expiry, fields, mac] = good.split('.') as [string, string, string];
  const flip = (c: string) => (c === 'A' ? 'B' : 'A');
  // Same decoded bytes, different text: flip one of the two spare bits of the last character.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const nonCanonical = mac.slice(0, 42) + alphabet[alphabet.indexOf(mac[42]!) ^ 1];
  assert.equal(Buffer.from(nonCanonical, 'base64url'), Buffer.from(mac, 'base64url'));
  const other = (list: unknown[]) => Buffer.from(JSON.stringify(list)).toString('base64url');
  const forged = [
    '',
    'abc',
    good + 'x',
    `${expiry}.`,
    `.${mac}`,
    `${expiry}.${mac}`,
    `${expiry}.${fields}.${mac}.x`,
    `${Number(expiry) + 3_600_000}.${fields}.${mac}`, // extended expiry
    `${expiry}.${other(['t', 'screenshot', 'text/html', T0])}.${mac}`, // another content type
    `${expiry}.${other(['other-task', 'screenshot', 'image/png', T0])}.${mac}`, // another task
    `${expiry}.${Buffer.from(`["t", "screenshot", "image/png", ${T0}]`).toString('base64url')}.${mac}`, // the same values, spelled otherwise
    `${expiry}.${fields}.${flip(mac[0]!)}${mac.slice(1)}`,
    `${expiry}.${fields}.${nonCanonical}`,
    `${expiry}.${fields}.${'A'.repeat(43)}`,
    signPresignToken(Buffer.from('another-secret-0123456789'), p.artifactId, Number(expiry), {
      taskId: 't',
      kind: 'screenshot',
      contentType: 'image/png',
      createdAt: T0,
    }),
    signUploadToken(Buffer.from(SECRET), p.artifactId, Number(expiry), 'image/png'), // the older form: no pending record to check it against
    ` ${good}`,
    good.replace('.', '%2E'),
    42 as unknown as string,
    null as unknown as string,
  ];
  for (const token of forged) {
    const error = await rejection(h.service.acceptUpload(p.artifactId, token, chunks(png)));
    assert.is(error.status, error.code === 'FORBIDDEN' ? 403 : 404, JSON.stringify(token));
    // A token of the older form is checked against the pending record it needs: there is none.
    if (error.code === 'NOT_FOUND')
      assert.match(token, /^\d+\.[A-Za-z0-9_-]{43}$/, 'only the older form reaches the (absent) record');
    else assert.is(error.reason, 'invalid_token', JSON.stringify(token));
  }
  // None of these consumed the upload.
  assert.is((await h.service.acceptUpload(p.artifactId, good, chunks(png))).size, png.length);
});

s('a token cannot be moved to another artifact, task, kind or content type', async ({ h }) => {
  const a = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  const b = await h.service.presign({ taskId: 't', kind: 'html', contentType: 'text/html' });
  const error = await rejection(h.service.acceptUpload(b.artifactId, tokenOf(a.uploadUrl), chunks(png)));
  assert.is(error.reason, 'invalid_token');
  // Pure check of the MAC inputs: each of id, expiry and the fields is bound.
  const fields = { taskId: 't', kind: 'screenshot', contentType: 'image/png', createdAt: T0 };
  const token = signPresignToken(Buffer.from(SECRET), a.artifactId, a.expiresAt, fields);
  assert.is(tokenOf(a.uploadUrl), token, 'presign signs exactly these inputs');
  assert.equal(verifyPresignToken(Buffer.from(SECRET), token, a.artifactId, T0), {
    ok: true,
    expiresAt: a.expiresAt,
    fields,
  });
  assert.equal(verifyPresignToken(Buffer.from(SECRET), token, b.artifactId, T0), {
    ok: false,
    reason: 'invalid_token',
  });
  for (const change of [{ taskId: 'u' }, { kind: 'html' }, { contentType: 'text/html' }, { createdAt: T0 + 1 }]) {
    const moved = signPresignToken(Buffer.from(SECRET), a.artifactId, a.expiresAt, { ...fields, ...change });
    assert.is.not(moved.split('.')[2], token.split('.')[2], JSON.stringify(change));
  }
  // The older form binds id, expiry and content type.
  const older = signUploadToken(Buffer.from(SECRET), a.artifactId, a.expiresAt, 'image/png');
  assert.equal(verifyUploadToken(Buffer.from(SECRET), older, a.artifactId, 'image/png', T0), {
    ok: true,
    expiresAt: a.expiresAt,
  });
  assert.equal(verifyUploadToken(Buffer.from(SECRET), older, b.artifactId, 'image/png', T0), {
    ok: false,
    reason: 'invalid_token',
  });
  assert.equal(verifyUploadToken(Buffer.from(SECRET), older, a.artifactId, 'text/html', T0), {
    ok: false,
    reason: 'invalid_token',
  });
});

s(
  'a presign writes nothing; its URL works from another service instance on the same folder (a restart)',
  async ({ h }) => {
    const p = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
    assert.is(
      await readdir(h.dir).then(
        (names) => names.length,
        () => 0,
      ),
      0,
      'no file for a presign',
    );
    assert.is((await rejection(h.service.open(p.artifactId))).reason, 'pending', 'this process knows it is presigned');
    const restarted = h.make();
    assert.is((await rejection(restarted.open(p.artifactId))).reason, 'not_found', 'after a restart: 404 not_found');
    const stored = await restarted.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png));
    assert.is(stored.size, png.length);
    const meta = await createFolderArtifactStore(h.dir).readMeta(p.artifactId);
    assert.equal(meta, {
      version: 1,
      artifactId: p.artifactId,
      taskId: 't',
      kind: 'screenshot',
      contentType: 'image/png',
      createdAt: T0,
      state: 'ready',
      uploadExpiresAt: p.expiresAt,
      expiresAt: T0 + 24 * 3_600_000,
      size: png.length,
      uploadedAt: T0,
    });
    assert.is(
      (await rejection(h.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png)))).reason,
      'already_uploaded',
    );
  },
);

s('a pending record and token of the older form (written before an upgrade) still upload, once', async ({ h }) => {
  const artifactId = 'art-0123456789abcdefghijk';
  const expiresAt = T0 + 15 * 60_000;
  const store = createFolderArtifactStore(h.dir);
  await store.folder.ensureDir();
  await store.folder.writeMeta({
    version: 1,
    artifactId,
    taskId: 't',
    kind: 'log',
    contentType: 'text/plain',
    createdAt: T0,
    state: 'pending',
    uploadExpiresAt: expiresAt,
    expiresAt,
  });
  const token = signUploadToken(Buffer.from(SECRET), artifactId, expiresAt, 'text/plain');
  assert.is((await rejection(h.service.open(artifactId))).reason, 'pending');
  assert.is(
    (
      await rejection(
        h.service.acceptUpload(
          artifactId,
          signUploadToken(Buffer.from(SECRET), artifactId, expiresAt, 'image/png'),
          chunks(png),
        ),
      )
    ).reason,
    'invalid_token',
  );
  assert.is((await h.service.acceptUpload(artifactId, token, chunks(png))).size, png.length);
  assert.is((await rejection(h.service.acceptUpload(artifactId, token, chunks(png)))).reason, 'already_uploaded');
});

s(
  'a ready artifact outlives a still valid upload token (uploadTtlMs > downloadTtlMs): the token cannot upload again after a sweep',
  async ({ h }) => {
    const service = h.make({ uploadTtlMs: 48 * 3_600_000, downloadTtlMs: 3_600_000 });
    const p = await service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
    await service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png));
    h.clock.increment(2 * 3_600_000);
    assert.is((await rejection(service.open(p.artifactId))).reason, 'expired');
    assert.equal((await service.sweep()).removed, [], 'kept while its upload token is valid');
    assert.is(
      (await rejection(service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png)))).reason,
      'already_uploaded',
    );
    h.clock.increment(46 * 3_600_000);
    assert.equal((await service.sweep()).removed, [p.artifactId]);
    assert.is(
      (await rejection(service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png)))).reason,
      'token_expired',
    );
  },
);

s('an expired token is refused (FORBIDDEN token_expired), exactly at the expiry', async ({ h }) => {
  const p = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  h.clock.increment(15 * 60_000 - 1);
  const early = await h.service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  assert.ok(early); // (unrelated artifact, keeps the clock story honest)
  h.clock.increment(1);
  const error = await rejection(h.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png)));
  assert.is(error.code, 'FORBIDDEN');
  assert.is(error.reason, 'token_expired');
  assert.equal(error.toJSON().details.reason, 'token_expired');
});

s('uploadTtlMs is configurable and still enforced', async ({ h }) => {
  const service = h.make({ uploadTtlMs: 1000 });
  const p = await service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  assert.is(p.expiresAt, T0 + 1000);
  h.clock.increment(999);
  assert.is((await service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(png))).size, png.length);
  const q = await service.presign({ taskId: 't', kind: 'log', contentType: 'text/plain' });
  h.clock.increment(1000);
  assert.is(
    (await rejection(service.acceptUpload(q.artifactId, tokenOf(q.uploadUrl), chunks(png)))).reason,
    'token_expired',
  );
});

s('a weak secret or a bad base URL is refused at construction', async ({ h }) => {
  assert.throws(() => h.make({ secret: 'short' }), /secret/);
  assert.throws(() => h.make({ publicBaseUrl: 'ftp://x' }), /publicBaseUrl/);
  assert.throws(() => h.make({ maxUploadBytes: 0 }), /maxUploadBytes/);
});

s.run();
