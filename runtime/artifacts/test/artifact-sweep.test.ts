// Cleanup with a fake clock: what a sweep deletes and what it must keep, and the sweeper timer.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newArtifactId } from '../artifact-id.ts';
import type { SweepResult } from '../artifact-types.ts';
import { chunks, makeHarness, manualBody, rejection, tokenOf } from './util.ts';
import type { Harness } from './util.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const s = suite<{ h: Harness }>('artifact sweep');

s.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
s.after.each(async (ctx) => ctx.h.remove());

const names = async (h: Harness) => (await readdir(h.dir)).sort();

s('a presign never uploaded leaves nothing to sweep; uploads go when their download TTL does', async ({ h }) => {
  const abandoned = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  const uploaded = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  await h.service.acceptUpload(uploaded.artifactId, tokenOf(uploaded.uploadUrl), chunks(new Uint8Array(10)));
  const put = await h.service.putArtifact({ taskId: 't', kind: 'readability', contentType: 'text/plain', bytes: 'x' });

  assert.equal(await h.service.sweep(), { removed: [], tempFilesRemoved: 0, errors: [] });
  assert.equal(
    await names(h),
    [uploaded.artifactId, `${uploaded.artifactId}.json`, put.artifactId, `${put.artifactId}.json`].sort(),
    'no file for the abandoned presign',
  );
  h.clock.increment(15 * MIN);
  assert.equal((await h.service.sweep()).removed, []);
  assert.is((await rejection(h.service.open(abandoned.artifactId))).status, 404);
  assert.is(
    (
      await rejection(
        h.service.acceptUpload(abandoned.artifactId, tokenOf(abandoned.uploadUrl), chunks(new Uint8Array(1))),
      )
    ).reason,
    'token_expired',
  );

  h.clock.increment(24 * HOUR - 15 * MIN - 1);
  assert.equal((await h.service.sweep()).removed, []);
  h.clock.increment(1);
  assert.equal((await h.service.sweep()).removed.sort(), [uploaded.artifactId, put.artifactId].sort());
  assert.equal(await names(h), []);
});

s('leftover temp files, files without metadata and damaged metadata are removed; unknown files kept', async ({ h }) => {
  const keep = await h.service.putArtifact({ taskId: 't', kind: 'log', contentType: 'text/plain', bytes: 'keep' });
  const orphan = newArtifactId();
  const damaged = newArtifactId();
  await writeFile(join(h.dir, orphan), 'data whose metadata write never happened');
  await writeFile(join(h.dir, damaged), 'x');
  await writeFile(join(h.dir, `${damaged}.json`), '{"artifactId":');
  await writeFile(join(h.dir, `.${keep.artifactId}.0123456789ab.upload`), 'half an upload');
  await writeFile(join(h.dir, `.${orphan}.abcdef012345.tmp`), 'half a metadata file');
  await writeFile(join(h.dir, 'README.txt'), 'not ours');
  const result = await h.service.sweep();
  assert.equal(result.removed.sort(), [orphan, damaged].sort());
  assert.is(result.tempFilesRemoved, 2);
  assert.equal(await names(h), ['README.txt', keep.artifactId, `${keep.artifactId}.json`].sort());
});

s('an upload in flight is never swept, even past its upload expiry', async ({ h }) => {
  const p = await h.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  const body = manualBody();
  const upload = h.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), body);
  body.push(new Uint8Array(100));
  await body.reads(2);
  h.clock.increment(16 * MIN);
  const result = await h.service.sweep();
  assert.equal(result, { removed: [], tempFilesRemoved: 0, errors: [] });
  assert.equal((await names(h)).length, 1, 'the temp file of the upload (a presign writes no metadata)');
  body.end();
  const stored = await upload;
  assert.is(stored.size, 100);
  assert.is((await h.service.open(p.artifactId)).size, 100);
});

s('sweeping a folder that does not exist yet is a no-op', async ({ h }) => {
  assert.equal(await h.service.sweep(), { removed: [], tempFilesRemoved: 0, errors: [] });
});

s('startSweeper sweeps at once and then every 6 hours until stopped', async ({ h }) => {
  const results: SweepResult[] = [];
  let notify: (() => void) | undefined;
  const nextResult = () => new Promise<void>((resolve) => (notify = resolve));
  await h.service.putArtifact({ taskId: 't', kind: 'log', contentType: 'text/plain', bytes: 'x' });
  h.clock.increment(24 * HOUR);
  let pending = nextResult();
  const stop = h.service.startSweeper({ onResult: (r) => (results.push(r), notify?.()) });
  const [interval] = [...h.scheduler.intervals.values()];
  assert.is(interval?.ms, 6 * HOUR);
  await pending;
  assert.is(results[0]!.removed.length, 1, 'the startup sweep removed the expired artifact');

  await h.service.putArtifact({ taskId: 't', kind: 'log', contentType: 'text/plain', bytes: 'x' });
  h.clock.increment(24 * HOUR);
  pending = nextResult();
  h.scheduler.tickIntervals();
  await pending;
  assert.is(results.length, 2);
  assert.is(results[1]!.removed.length, 1);
  stop();
  stop();
  assert.is(h.scheduler.intervals.size, 0);
});

s('a failing sweep reports to onError and the sweeper keeps its schedule', async ({ h }) => {
  await writeFile(h.dir, 'not a folder'); // readdir fails with ENOTDIR
  const errors: unknown[] = [];
  const reported = new Promise<void>((resolve) => {
    h.service.startSweeper({ intervalMs: 1000, onError: (e) => (errors.push(e), resolve()) });
  });
  await reported;
  assert.is(errors.length, 1);
  assert.is((errors[0] as { code: string }).code, 'INTERNAL');
  assert.is([...h.scheduler.intervals.values()][0]?.ms, 1000);
});

s('a throwing onResult or onError does not become an unhandled rejection', async ({ h }) => {
  let calls = 0;
  const done = new Promise<void>((resolve) => {
    h.service.startSweeper({
      onResult: () => {
        calls++;
        throw new Error('listener bug');
      },
      onError: () => {
        calls++;
        setImmediate(resolve);
        throw new Error('error listener bug');
      },
    });
  });
  await done;
  assert.is(calls, 2, 'the onResult failure went to onError');
});

s.run();
