// The summary index (task-index.ts): init reads it instead of every meta file, re-reads only the
// tasks it cannot vouch for, rebuilds when it is missing or damaged, and stays compact.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryTaskFiles, createTaskStore, createTaskStoreCore, type TaskFiles } from '../index.ts';
import { parseIndex } from '../task-index.ts';
import { makeTempDir, T0 } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const test = suite('task store: summary index');

/** Memory files that count meta reads (what the slow path costs). */
function counting() {
  const files = createMemoryTaskFiles();
  let metaReads = 0;
  const counted: TaskFiles = {
    listTaskIds: () => files.listTaskIds(),
    index: files.index,
    prepareTask: (taskId) => files.prepareTask(taskId),
    meta(taskId) {
      const adapter = files.meta(taskId);
      return {
        read: () => {
          metaReads++;
          return adapter.read();
        },
        write: (data) => adapter.write(data),
      };
    },
    messageLog: (taskId) => files.messageLog(taskId),
  };
  return { files: counted, raw: files, metaReads: () => metaReads, reset: () => void (metaReads = 0) };
}

async function seed(files: TaskFiles, clock = createTestClock(T0)) {
  const store = createTaskStoreCore({ files, clock });
  for (const id of ['a', 'b', 'c']) {
    await store.createTaskIfAbsent({ taskId: id, title: id });
    clock.increment(5);
  }
  await store.updateTask('a', { status: 'running' });
  const list = await store.listTasks();
  await store.close();
  return list;
}

test('a restart reads the index and no meta file, and lists the same tasks', async () => {
  const c = counting();
  const before = await seed(c.files);
  c.reset();
  const reopened = createTaskStoreCore({ files: c.files, clock: createTestClock(T0) });
  assert.equal((await reopened.init()).taskCount, 3);
  assert.is(c.metaReads(), 0);
  assert.equal(await reopened.listTasks(), before);
  await reopened.close();
});

test('no index (a store from before it): every meta file is read once, then an index is written', async () => {
  const c = counting();
  const before = await seed(c.files);
  await c.files.index.replace('');
  c.reset();
  const reopened = createTaskStoreCore({ files: c.files, clock: createTestClock(T0) });
  assert.equal(await reopened.listTasks(), before);
  assert.is(c.metaReads(), 3);
  await reopened.close();
  const parsed = parseIndex((await c.files.index.read())!);
  assert.ok(!('damaged' in parsed));
  if (!('damaged' in parsed)) assert.equal([...parsed.summaries.keys()].sort(), ['a', 'b', 'c']);
  c.reset();
  const third = createTaskStoreCore({ files: c.files, clock: createTestClock(T0) });
  assert.equal(await third.listTasks(), before);
  assert.is(c.metaReads(), 0);
  await third.close();
});

test('a damaged line in the middle: rebuilt from the meta files; a torn last line is only dropped', async () => {
  const c = counting();
  const before = await seed(c.files);
  const text = (await c.files.index.read())!;
  const lines = text.split('\n');
  lines.splice(2, 0, '{"s":{"taskId":"a","title":');
  await c.files.index.replace(lines.join('\n'));
  c.reset();
  const rebuilt = createTaskStoreCore({ files: c.files, clock: createTestClock(T0) });
  assert.equal(await rebuilt.listTasks(), before);
  assert.is(c.metaReads(), 3);
  await rebuilt.close();

  await c.files.index.append('{"s":{"taskId":"b","ti');
  c.reset();
  const torn = createTaskStoreCore({ files: c.files, clock: createTestClock(T0) });
  assert.equal(await torn.listTasks(), before);
  assert.is(c.metaReads(), 0);
  await torn.close();
});

test('killed between the intent and the summary: that task is read from its meta file', async () => {
  const dir = await makeTempDir('index');
  const clock = createTestClock(T0);
  const store = createTaskStore({ dataDir: dir.dir, clock });
  await store.createTaskIfAbsent({ taskId: 'a', title: 'A' });
  await store.createTaskIfAbsent({ taskId: 'b', title: 'B' });
  await store.close();
  // What a process killed right after its meta write leaves: the intent, the new meta, no summary.
  const metaFile = join(dir.dir, 'tasks', 'b', 'meta.json');
  const meta = JSON.parse(await readFile(metaFile, 'utf8'));
  meta.task = { ...meta.task, status: 'completed', title: 'B done', updatedAt: meta.task.updatedAt + 100 };
  await appendFile(join(dir.dir, 'tasks', 'index.jsonl'), '{"w":"b"}\n');
  await writeFile(metaFile, JSON.stringify(meta));
  const reopened = createTaskStore({ dataDir: dir.dir, clock });
  const list = await reopened.listTasks();
  assert.equal(
    list.map((t) => [t.taskId, t.status, t.title]),
    [
      ['b', 'completed', 'B done'],
      ['a', 'created', 'A'],
    ],
  );
  await reopened.close();
  await dir.remove();
});

test('folders the index does not know are read; entries whose folder is gone are dropped', async () => {
  const c = counting();
  await seed(c.files);
  // Another store (e.g. an older version without the index) added task d behind the index's back.
  await c.raw.prepareTask('d');
  await c.raw.meta('d').write({
    version: 1,
    task: {
      taskId: 'd',
      title: 'd',
      status: 'created',
      createdAt: 1,
      updatedAt: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    },
  });
  c.reset();
  const reopened = createTaskStoreCore({
    files: { ...c.files, listTaskIds: async () => ['a', 'c', 'd'] },
    clock: createTestClock(T0),
  });
  assert.equal(
    (await reopened.listTasks()).map((t) => t.taskId),
    ['a', 'c', 'd'],
  );
  assert.is(c.metaReads(), 1);
  await reopened.close();
});

test('the log is compacted: many writes to few tasks keep it near one line per task', async () => {
  const c = counting();
  const clock = createTestClock(T0);
  const store = createTaskStoreCore({ files: c.files, clock });
  await store.createTaskIfAbsent({ taskId: 'a', title: 'a' });
  for (let i = 0; i < 1_500; i++) {
    clock.increment(1);
    await store.appendMessage('a', { id: `m${i}`, role: 'user', content: 'x', timestamp: 1 });
  }
  await store.close();
  const lines = (await c.files.index.read())!.split('\n').length - 1;
  assert.ok(lines <= 1_003, `${lines} lines for 1 task after 1,500 appends`);
  const reopened = createTaskStoreCore({ files: c.files, clock });
  assert.is((await reopened.getTask('a'))!.updatedAt, clock.now());
  assert.is((await reopened.listMessages('a')).length, 1_500);
  await reopened.close();
});

test('an append leaves meta.json as it was; its updatedAt survives a kill (no close) through the index', async () => {
  const c = counting();
  const clock = createTestClock(T0);
  const store = createTaskStoreCore({ files: c.files, clock });
  await store.createTaskIfAbsent({ taskId: 'a', title: 'a' });
  await store.createTaskIfAbsent({ taskId: 'b', title: 'b' });
  const created = clock.now();
  clock.increment(100);
  await store.appendMessage('a', { id: 'm1', role: 'user', content: 'x', timestamp: 1 });
  assert.is((await c.raw.meta('a').read())!.task.updatedAt, created, 'meta.json not rewritten by the append');
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r)); // the batched index line lands
  // Killed here: no close(). The next process lists and opens the task with the append's time.
  const next = createTaskStoreCore({ files: c.files, clock: createTestClock(T0), cacheSize: 1 });
  assert.equal(
    (await next.listTasks()).map((t) => [t.taskId, t.updatedAt]),
    [
      ['a', created + 100],
      ['b', created],
    ],
  );
  assert.is((await next.getTask('a'))!.updatedAt, created + 100);
  await next.getTask('b'); // evicts a from the one-entry cache: read again from meta.json + index
  assert.is((await next.getTask('a'))!.updatedAt, created + 100);
  await next.close();
  assert.is((await c.raw.meta('a').read())!.task.updatedAt, created + 100, 'close() brought meta.json up to date');
});

test.run();
