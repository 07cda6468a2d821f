// The held-open append handles behind the message logs (append-files.ts), on a real folder.
import { mkdir, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAppendFiles } from '../append-files.ts';
import { parseIndex } from '../task-index.ts';
import { createTaskStore } from '../task-store.ts';
import { makeTempDir, T0 } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const s = suite<{ dir: string; remove(): Promise<void> }>('append files: held-open append handles');

s.before.each(async (ctx) => {
  const temp = await makeTempDir('append-files');
  ctx.dir = temp.dir;
  ctx.remove = temp.remove;
});
s.after.each(async (ctx) => ctx.remove());

/** The fds of this process that point at files under `dir` (Linux /proc). */
async function openFdsUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(dir)) out.push(target);
  }
  return out.sort();
}

s(
  'appends to one file keep call order, also when many are handed in at once (they queue behind the write on disk)',
  async ({ dir }) => {
    const files = createAppendFiles();
    const file = join(dir, 'a.jsonl');
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}\n`);
    // All handed in at once: the first write carries line 0, the rest queue behind it.
    await Promise.all(lines.map((line) => files.append(file, line)));
    assert.is(await readFile(file, 'utf8'), lines.join(''));
    assert.is(files.openHandles, 1);
    await files.close();
    assert.is(files.openHandles, 0);
  },
);

for (const syncWrites of [true, false]) {
  s(
    `syncWrites ${syncWrites}: order per file across interleaved appends to several files, handles reused, failures on /dev/full reject`,
    async ({ dir }) => {
      const files = createAppendFiles({ syncWrites });
      const expected = new Map<string, string>();
      const pending: Promise<void>[] = [];
      for (let i = 0; i < 300; i++) {
        const file = join(dir, `f${i % 3}`);
        const line = `${i}\n`;
        expected.set(file, (expected.get(file) ?? '') + line);
        pending.push(files.append(file, line));
        if (i % 7 === 0) await pending.at(-1); // some while idle (written at once), some queued behind an open
      }
      await Promise.all(pending);
      for (const [file, text] of expected) assert.is(await readFile(file, 'utf8'), text);
      assert.is(files.openHandles, 3);
      assert.is(
        await files.append('/dev/full', 'x\n').then(
          () => null,
          (e: NodeJS.ErrnoException) => e.code,
        ),
        'ENOSPC',
      );
      await files.append('/dev/full', 'x\n').catch(() => undefined);
      assert.is(files.openHandles, 3, 'the failed handle is closed');
      await files.close();
      assert.is(files.openHandles, 0);
    },
  );
}

s(
  'one handle per file stays open between appends; close() closes them all and later appends reject',
  async ({ dir }) => {
    const files = createAppendFiles();
    await files.append(join(dir, 'a'), 'a1\n');
    await files.append(join(dir, 'b'), 'b1\n');
    await files.append(join(dir, 'a'), 'a2\n');
    assert.equal(await openFdsUnder(dir), [join(dir, 'a'), join(dir, 'b')]);
    await files.close();
    assert.equal(await openFdsUnder(dir), []);
    assert.is(await readFile(join(dir, 'a'), 'utf8'), 'a1\na2\n');
    const late = await files.append(join(dir, 'a'), 'a3\n').then(
      () => null,
      (error: NodeJS.ErrnoException) => error,
    );
    assert.ok(late, 'an append after close() rejects');
    assert.is(await readFile(join(dir, 'a'), 'utf8'), 'a1\na2\n');
  },
);

s(
  'the LRU bound: at most `capacity` handles stay open; the least recently used one is closed and reopens on use',
  async ({ dir }) => {
    const files = createAppendFiles({ capacity: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      await files.append(join(dir, name), `${name}\n`);
      assert.ok(files.openHandles <= 2, `${files.openHandles} open after ${name}`);
    }
    assert.equal(await openFdsUnder(dir), [join(dir, 'd'), join(dir, 'e')], 'the two most recently used');
    await files.append(join(dir, 'a'), 'a again\n');
    assert.equal(await openFdsUnder(dir), [join(dir, 'a'), join(dir, 'e')]);
    assert.is(await readFile(join(dir, 'a'), 'utf8'), 'a\na again\n');
    // Concurrent appends to more files than the capacity: the bound holds again once they are written.
    await Promise.all(['f', 'g', 'h', 'i'].map((name) => files.append(join(dir, name), `${name}\n`)));
    assert.ok(files.openHandles <= 2, `${files.openHandles} open`);
    assert.ok((await openFdsUnder(dir)).length <= 2);
    await files.close();
  },
);

s('release(file) closes that handle once its queued appends are written', async ({ dir }) => {
  const files = createAppendFiles();
  const file = join(dir, 'a');
  const pending = Promise.all([files.append(file, '1\n'), files.append(file, '2\n')]);
  await files.release(file);
  await pending;
  assert.equal(await openFdsUnder(dir), []);
  assert.is(await readFile(file, 'utf8'), '1\n2\n');
  await files.append(file, '3\n');
  assert.is(await readFile(file, 'utf8'), '1\n2\n3\n');
  await files.close();
});

s(
  'a torn last line (a crash mid-append) is trimmed when the file is opened, so the next line starts clean',
  async ({ dir }) => {
    const file = join(dir, 'log.jsonl');
    await writeFile(file, '{"id":"m1"}\n{"id":"m2","ro');
    const files = createAppendFiles();
    await files.append(file, '{"id":"m3"}\n');
    assert.is(await readFile(file, 'utf8'), '{"id":"m1"}\n{"id":"m3"}\n');
    // A torn tail longer than one read chunk, with no newline at all before it.
    const only = join(dir, 'only.jsonl');
    await writeFile(only, 'x'.repeat(200_000));
    await files.append(only, 'fresh\n');
    assert.is(await readFile(only, 'utf8'), 'fresh\n');
    await files.close();
  },
);

s(
  'a failed write rejects its callers, leaves nothing behind, and the next append reopens the file',
  async ({ dir }) => {
    const files = createAppendFiles();
    const file = join(dir, 'log');
    await mkdir(file); // a folder where the file should be: opening fails with EISDIR
    const error = await files.append(file, 'x\n').then(
      () => null,
      (e: NodeJS.ErrnoException) => e,
    );
    assert.is(error?.code, 'EISDIR');
    assert.is(files.openHandles, 0);
    await rm(file, { recursive: true });
    await files.append(file, 'y\n');
    assert.is(await readFile(file, 'utf8'), 'y\n');
    await files.close();
  },
);

s(
  'a write that fails on an open handle (ENOSPC: /dev/full) rejects its callers and closes the handle',
  async ({ dir }) => {
    const files = createAppendFiles();
    const errors = await Promise.all(
      ['a\n', 'b\n'].map((text) =>
        files.append('/dev/full', text).then(
          () => null,
          (e: NodeJS.ErrnoException) => e.code,
        ),
      ),
    );
    assert.equal(errors, ['ENOSPC', 'ENOSPC']);
    assert.is(files.openHandles, 0, 'closed after the failure (the next append reopens)');
    await files.append(join(dir, 'ok'), 'fine\n');
    assert.is(files.openHandles, 1);
    await files.close();
  },
);

s(
  'trimOnOpen false (the task store: it reads, and trims, a log before appending) opens with no read',
  async ({ dir }) => {
    const file = join(dir, 'log.jsonl');
    await writeFile(file, 'whole\n');
    const files = createAppendFiles({ trimOnOpen: false });
    await files.append(file, 'next\n');
    assert.is(await readFile(file, 'utf8'), 'whole\nnext\n');
    await files.close();
  },
);

s('the task store closes its log handles on close() and when a task finishes', async ({ dir }) => {
  const clock = createTestClock(T0);
  const store = createTaskStore({ dataDir: dir, clock });
  const log = (taskId: string) => join(dir, 'tasks', taskId, 'messages.jsonl');
  for (const taskId of ['a', 'b']) {
    await store.createTaskIfAbsent({ taskId, title: taskId });
    await store.appendMessage(taskId, { id: `${taskId}-1`, role: 'user', content: 'hi', timestamp: 1 });
  }
  const logs = async () => (await openFdsUnder(dir)).filter((path) => path.endsWith('messages.jsonl'));
  assert.equal(await logs(), [log('a'), log('b')]);
  await store.updateTask('a', { status: 'running' });
  assert.equal(await logs(), [log('a'), log('b')], 'still running: kept open');
  await store.updateTask('a', { status: 'completed' });
  await new Promise((r) => setImmediate(r)); // the release is not awaited by updateTask
  assert.equal(await logs(), [log('b')]);
  // A follow-up message on the finished task reopens its log.
  await store.appendMessage('a', { id: 'a-2', role: 'user', content: 'again', timestamp: 2 });
  assert.equal(await logs(), [log('a'), log('b')]);
  await store.close();
  assert.equal(await openFdsUnder(dir), [], 'no handle under the data folder after close()');
  const reopened = createTaskStore({ dataDir: dir, clock });
  assert.equal(
    (await reopened.listMessages('a')).map((m) => m.id),
    ['a-1', 'a-2'],
  );
  await reopened.close();
});

s(
  'the store index: a torn last line (a kill mid-append) is trimmed before the next append, so the log stays parseable',
  async ({ dir }) => {
    const clock = createTestClock(T0);
    const first = createTaskStore({ dataDir: dir, clock });
    await first.createTaskIfAbsent({ taskId: 'a', title: 'A' });
    await first.close();
    const index = join(dir, 'tasks', 'index.jsonl');
    await writeFile(index, `${await readFile(index, 'utf8')}{"s":{"taskId":"a","ti`);
    const second = createTaskStore({ dataDir: dir, clock });
    await second.createTaskIfAbsent({ taskId: 'b', title: 'B' });
    await second.close();
    const parsed = parseIndex(await readFile(index, 'utf8'));
    assert.not.ok('damaged' in parsed, JSON.stringify(parsed));
    if (!('damaged' in parsed)) assert.equal([...parsed.summaries.keys()].sort(), ['a', 'b']);
  },
);

s.run();
