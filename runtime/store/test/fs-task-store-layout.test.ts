// File-store specifics: the on-disk layout, damaged files at startup, a partial failure between
// the two files of an append, and a cache smaller than the number of tasks.
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFsTaskFiles } from '../task-files.ts';
import { createTaskStore } from '../task-store.ts';
import { createTaskStoreCore } from '../task-store-core.ts';
import type { Message } from '../task-types.ts';
import { listJsonFiles, makeTempDir, rejection, T0 } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const s = suite<{ dir: string; remove(): Promise<void>; clock: TestClock }>('file task store: layout and recovery');
const msg = (id: string): Message => ({ id, role: 'assistant', content: `body ${id}`, timestamp: 1 });

s.before.each(async (ctx) => {
  const temp = await makeTempDir('layout');
  ctx.dir = temp.dir;
  ctx.remove = temp.remove;
  ctx.clock = createTestClock(T0);
});
s.after.each(async (ctx) => ctx.remove());

s(
  'one folder per task with meta.json and the messages.jsonl log; the only shared file is the append-only index',
  async ({ dir, clock }) => {
    const store = createTaskStore({ dataDir: dir, clock });
    await store.createTaskIfAbsent({ taskId: 'a', title: 'A' });
    await store.createTaskIfAbsent({ taskId: 'b', title: 'B' });
    await store.appendMessage('a', msg('m1'));
    await store.close();
    assert.equal(await readdir(dir), ['tasks']);
    assert.equal((await readdir(join(dir, 'tasks'))).sort(), ['a', 'b', 'index.jsonl']);
    assert.equal((await readdir(join(dir, 'tasks', 'a'))).sort(), ['messages.jsonl', 'meta.json']);
    assert.equal(await readdir(join(dir, 'tasks', 'b')), ['meta.json']);
    const meta = JSON.parse(await readFile(join(dir, 'tasks', 'a', 'meta.json'), 'utf8'));
    assert.is(meta.version, 1);
    assert.is(meta.task.taskId, 'a');
    assert.is(await readFile(join(dir, 'tasks', 'a', 'messages.jsonl'), 'utf8'), `${JSON.stringify(msg('m1'))}\n`);
  },
);

s(
  'messages.json of an older store is read before the log; a torn last line is dropped and trimmed',
  async ({ dir, clock }) => {
    const store = createTaskStore({ dataDir: dir, clock });
    await store.createTaskIfAbsent({ taskId: 'a', title: 'A' });
    await store.close();
    await writeFile(
      join(dir, 'tasks', 'a', 'messages.json'),
      JSON.stringify({ version: 1, taskId: 'a', messages: [msg('old')] }),
    );
    await writeFile(join(dir, 'tasks', 'a', 'messages.jsonl'), `${JSON.stringify(msg('m1'))}\n{"id":"m2","ro`);
    const reopened = createTaskStore({ dataDir: dir, clock });
    assert.equal(
      (await reopened.listMessages('a')).map((m) => m.id),
      ['old', 'm1'],
    );
    await reopened.appendMessage('a', msg('m3'));
    await reopened.close();
    const lines = (await readFile(join(dir, 'tasks', 'a', 'messages.jsonl'), 'utf8')).split('\n');
    assert.equal(
      lines.map((l) => (l ? JSON.parse(l).id : '')),
      ['m1', 'm3', ''],
      'the torn line is gone, the new one starts clean',
    );
    const again = createTaskStore({ dataDir: dir, clock });
    assert.equal(
      (await again.listMessages('a')).map((m) => m.id),
      ['old', 'm1', 'm3'],
    );
    await again.close();
  },
);

s('an append writes only the files of its own task', async ({ dir, clock }) => {
  const store = createTaskStore({ dataDir: dir, clock });
  for (const id of ['a', 'b', 'c']) await store.createTaskIfAbsent({ taskId: id, title: id });
  const before = new Map<string, string>();
  for (const file of await listJsonFiles(dir)) before.set(file, await readFile(file, 'utf8'));
  clock.increment(1);
  await store.appendMessage('b', msg('m1'));
  // An append does not rewrite meta.json (its updatedAt goes to the index)...
  assert.is(
    await readFile(join(dir, 'tasks', 'b', 'meta.json'), 'utf8'),
    before.get(join(dir, 'tasks', 'b', 'meta.json')),
  );
  await store.close();
  const changed: string[] = [];
  for (const file of await listJsonFiles(dir))
    if (before.get(file) !== (await readFile(file, 'utf8'))) changed.push(file.slice(dir.length));
  // ...close() brings it up to date once.
  assert.equal(changed.sort(), ['/tasks/b/messages.jsonl', '/tasks/b/meta.json', '/tasks/index.jsonl']);
  assert.is(JSON.parse(await readFile(join(dir, 'tasks', 'b', 'meta.json'), 'utf8')).task.updatedAt, clock.now());
  // The index only grew: b's new summary, then the intent and summary of the meta write at close.
  const index = await readFile(join(dir, 'tasks', 'index.jsonl'), 'utf8');
  assert.ok(index.startsWith(before.get(join(dir, 'tasks', 'index.jsonl'))!));
  assert.equal(
    index
      .slice(before.get(join(dir, 'tasks', 'index.jsonl'))!.length)
      .split('\n')
      .slice(0, -1)
      .map((l) => Object.keys(JSON.parse(l))[0]),
    ['s', 'w', 's'],
  );
});

s(
  'init (index missing: the full scan) skips damaged or foreign folders, reports them, and keeps serving the rest',
  async ({ dir, clock }) => {
    const store = createTaskStore({ dataDir: dir, clock });
    await store.createTaskIfAbsent({ taskId: 'good', title: 'ok' });
    await store.createTaskIfAbsent({ taskId: 'torn', title: 'x' });
    await store.createTaskIfAbsent({ taskId: 'wrong', title: 'x' });
    await store.close();
    await rm(join(dir, 'tasks', 'index.jsonl'));
    await writeFile(join(dir, 'tasks', 'torn', 'meta.json'), '{"version":1,"task":{"taskI');
    await writeFile(
      join(dir, 'tasks', 'wrong', 'meta.json'),
      JSON.stringify({ version: 1, task: { taskId: 'other' } }),
    );
    await mkdir(join(dir, 'tasks', 'empty'));
    await mkdir(join(dir, 'tasks', '.not-a-task'));
    await writeFile(join(dir, 'tasks', 'stray-file'), 'x');
    const reopened = createTaskStore({ dataDir: dir, clock });
    const report = await reopened.init();
    assert.is(report.taskCount, 1);
    assert.equal(report.skipped.map((x) => x.taskId).sort(), ['empty', 'torn', 'wrong']);
    assert.equal(
      (await reopened.listTasks()).map((t) => t.taskId),
      ['good'],
    );
    assert.is(await reopened.getTask('torn'), undefined);
    // Re-creating a skipped task overwrites its meta file and keeps the folder usable.
    assert.is((await reopened.createTaskIfAbsent({ taskId: 'torn', title: 'again' })).created, true);
    await reopened.appendMessage('torn', msg('m1'));
    await reopened.close();
  },
);

s(
  'messages write failing after the meta write: rejected, memory unchanged, only updatedAt may move on disk',
  async ({ dir, clock }) => {
    const files = createFsTaskFiles({ dataDir: dir });
    const store = createTaskStoreCore({ files, clock });
    await store.createTaskIfAbsent({ taskId: 't', title: 'x' });
    await store.appendMessage('t', msg('m1'));
    const before = await store.getTask('t');
    await files.releaseTask!('t'); // the held append handle would keep writing to the moved file
    const log = join(dir, 'tasks', 't', 'messages.jsonl');
    await rename(log, `${log}.aside`);
    await mkdir(log); // the log cannot be appended to
    clock.increment(50);
    const error = await rejection(store.appendMessage('t', msg('m2')));
    assert.is(error.code, 'INTERNAL');
    assert.is(error.details?.context?.errno, 'EISDIR');
    assert.not.match(error.message, dir); // no server paths in messages that may reach a client
    assert.equal(await store.getTask('t'), before);
    assert.equal(await store.listMessages('t'), [msg('m1')]);
    await rm(log, { recursive: true });
    await rename(`${log}.aside`, log);
    await store.appendMessage('t', msg('m2'));
    assert.equal(
      (await store.listMessages('t')).map((m) => m.id),
      ['m1', 'm2'],
    );
    await store.close();
  },
);

s('an unusable data folder makes init reject INTERNAL; it retries once the folder is fixed', async ({ dir, clock }) => {
  const dataDir = join(dir, 'data');
  await writeFile(dataDir, 'a file where the folder should be');
  const store = createTaskStore({ dataDir, clock });
  assert.is((await rejection(store.init())).code, 'INTERNAL');
  assert.is((await rejection(store.createTaskIfAbsent({ taskId: 'a', title: 'A' }))).code, 'INTERNAL');
  await rm(dataDir);
  assert.equal(await store.init(), { taskCount: 0, skipped: [] });
  assert.is((await store.createTaskIfAbsent({ taskId: 'a', title: 'A' })).created, true);
  await store.close();
});

s('a cache smaller than the task count still reads and writes every task correctly', async ({ dir, clock }) => {
  const store = createTaskStore({ dataDir: dir, clock, cacheSize: 2 });
  const ids = ['a', 'b', 'c', 'd', 'e'];
  for (const id of ids) await store.createTaskIfAbsent({ taskId: id, title: id });
  for (let round = 0; round < 3; round++) {
    for (const id of ids) {
      clock.increment(1);
      await store.appendMessage(id, msg(`${id}${round}`));
      await store.updateTask(id, { usage: { promptTokens: round, completionTokens: 0, totalTokens: round } });
    }
  }
  for (const id of ids) {
    assert.equal(
      (await store.listMessages(id)).map((m) => m.id),
      [`${id}0`, `${id}1`, `${id}2`],
    );
    assert.is((await store.getTask(id))!.usage.totalTokens, 2);
  }
  assert.equal(
    (await store.listTasks()).map((t) => t.taskId),
    ['e', 'd', 'c', 'b', 'a'],
  );
  await store.close();
});

s.run();
