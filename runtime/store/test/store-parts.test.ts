// Unit tests for the small parts the store is built from.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createKeyedQueue } from '../keyed-queue.ts';
import { createLruCache } from '../lru-cache.ts';
import { isStorableTaskId, isUuidOrUlid } from '../task-validation.ts';

const queue = suite('keyed queue');

queue('runs jobs of one key one at a time, in order, and other keys alongside', async () => {
  const q = createKeyedQueue();
  const log: string[] = [];
  let releaseA!: () => void;
  const a1 = q.run('a', () => new Promise<void>((resolve) => (releaseA = () => (log.push('a1'), resolve()))));
  const a2 = q.run('a', async () => void log.push('a2'));
  await q.run('b', async () => void log.push('b1'));
  assert.equal(log, ['b1']); // b ran while a1 was still holding key a, and a2 waited
  releaseA();
  await Promise.all([a1, a2]);
  assert.equal(log, ['b1', 'a1', 'a2']);
  await q.drain();
  assert.is(q.activeKeys, 0);
});

queue('a failing job rejects its own caller only', async () => {
  const q = createKeyedQueue();
  const failed = q.run('a', async () => {
    throw new Error('boom');
  });
  const next = q.run('a', async () => 42);
  const error = await failed.then(
    () => undefined,
    (e: Error) => e,
  );
  assert.is(error?.message, 'boom');
  assert.is(await next, 42);
});

queue.run();

const lru = suite('lru cache');

lru('evicts the least recently used entry', () => {
  const cache = createLruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.get('a');
  cache.set('c', 3);
  assert.is(cache.get('b'), undefined);
  assert.is(cache.get('a'), 1);
  assert.is(cache.get('c'), 3);
  assert.is(cache.size, 2);
  assert.throws(() => createLruCache(0), RangeError);
});

lru.run();

const ids = suite('task ids');

ids('the store accepts folder-safe ids only; the API rule is UUID or ULID', () => {
  for (const ok of ['a', 'task-1', '01HR0000000000000000000000', 'A_b-9']) assert.ok(isStorableTaskId(ok), ok);
  for (const bad of ['', '-a', '_a', '.', '..', 'a/b', 'a\\b', 'a.b', 'a\u0000', 'é', 'x'.repeat(129), null, 1])
    assert.not.ok(isStorableTaskId(bad), String(bad));
  assert.ok(isUuidOrUlid('0f8fad5b-d9cb-469f-a165-70867728950e'));
  assert.ok(isUuidOrUlid('01HR9ZQ6ZC0Y0A7N4V1E8W2K3M'));
  for (const bad of [
    '01HR',
    'task-1',
    '8ZZZZZZZZZZZZZZZZZZZZZZZZZ',
    '0f8fad5b-d9cb-469f-a165-70867728950',
    '01HR9ZQ6ZC0Y0A7N4V1E8W2K3U',
  ])
    assert.not.ok(isUuidOrUlid(bad), bad);
});

ids.run();
