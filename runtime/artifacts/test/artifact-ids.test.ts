// Artifact ids are the only thing from a URL that reaches a file path: everything that is not
// `art-` + 21 URL-safe characters is refused, so nothing can escape the artifact folder.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyEntry } from '../artifact-folder.ts';
import { isValidArtifactId, newArtifactId } from '../artifact-id.ts';
import { chunks, makeHarness, rejection } from './util.ts';

const hostile = [
  '../secret',
  '..%2fsecret',
  '%2e%2e',
  '%2e%2e%2fsecret',
  'art-../../../etc/passwd',
  '/etc/passwd',
  'art-AAAAAAAAAAAAAAAAAAAA/',
  'art-AAAAAAAAAAAAAAAAAAAAA/..',
  'art-AAAAAAAAAAAAAAAAAAAA\u0000',
  'art-AAAAAAAAAAAAAAAAAAAAA\u0000.json',
  'art-..\\..\\windows\\win.ini',
  'art-AAAAAAAAAAAA\\AAAAAAAA',
  'C:\\Windows\\win.ini',
  'art-AAAAAAAAAAAAAAAAAAAAA.json',
  'art-AAAAAAAAAAAAAAAAAAA..',
  '.art-AAAAAAAAAAAAAAAAAAAAA',
  'art-AAAAAAAAAAAAAAAAAAAAAA',
  'art-AAAAAAAAAAAAAAAAAAAA',
  'art-',
  'art',
  '',
  ' art-AAAAAAAAAAAAAAAAAAAAA',
  'art-AAAAAAAAAAAAAAAAAAAAA\n',
  'ART-AAAAAAAAAAAAAAAAAAAAA',
  'art-AAAAAAAAAAAAAAAAAAAA%',
  'art-ÀAAAAAAAAAAAAAAAAAAAA',
  'art-AAAAAAAAA AAAAAAAAAAA',
  'file:///etc/passwd',
  '~/secret',
  'art-AAAAAAAAAAAAAAAAAAAAA?x=1',
];

const s = suite('artifact ids and path traversal');

s('newArtifactId makes valid, distinct ids', () => {
  const ids = new Set(Array.from({ length: 1000 }, newArtifactId));
  assert.is(ids.size, 1000);
  for (const id of ids) assert.ok(isValidArtifactId(id), id);
  assert.ok(isValidArtifactId('art-AAAAAAAAAAAAAAAAAAAAA'));
  assert.ok(isValidArtifactId('art-a_b-c_d-e_f-g_h-i_j-k'.slice(0, 25)));
});

s(`${hostile.length} hostile ids are refused by isValidArtifactId and by the folder classifier`, () => {
  assert.ok(hostile.length >= 15);
  for (const id of hostile) {
    assert.not.ok(isValidArtifactId(id), JSON.stringify(id));
    assert.is.not(classifyEntry(id).type, 'data', JSON.stringify(id));
  }
  for (const value of [null, undefined, 42, {}, ['art-AAAAAAAAAAAAAAAAAAAAA']]) assert.not.ok(isValidArtifactId(value));
});

s('open and acceptUpload answer BAD_REQUEST invalid_id and never touch files outside the folder', async () => {
  const h = await makeHarness();
  try {
    // Bait: a readable file and a plausible metadata file just outside the artifact folder.
    const outside = join(h.dir, '..');
    await mkdir(h.dir, { recursive: true });
    await writeFile(join(outside, 'secret'), 'top secret');
    await writeFile(
      join(outside, 'secret.json'),
      JSON.stringify({
        artifactId: '../secret',
        state: 'ready',
        contentType: 'text/plain',
        expiresAt: Infinity,
        uploadExpiresAt: Infinity,
      }),
    );
    const before = (await readdir(outside)).sort();
    for (const id of hostile) {
      const opened = await rejection(h.service.open(id));
      assert.equal([opened.code, opened.status, opened.reason], ['BAD_REQUEST', 400, 'invalid_id'], JSON.stringify(id));
      const uploaded = await rejection(h.service.acceptUpload(id, 'token', chunks(new Uint8Array([1]))));
      assert.is(uploaded.reason, 'invalid_id', JSON.stringify(id));
    }
    assert.equal((await readdir(outside)).sort(), before);
    assert.equal(await readdir(h.dir), []);
  } finally {
    await h.remove();
  }
});

s.run();
