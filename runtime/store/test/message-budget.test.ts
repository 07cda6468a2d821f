// The message-list budget: memory holds only the most recently used tasks' messages; the others
// are read again from their files when needed, and nothing is lost or reordered.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryTaskFiles, createTaskStoreCore, type TaskFiles } from '../index.ts';

const test = suite('task store: message budget');

function countingFiles() {
  const files = createMemoryTaskFiles();
  const reads = new Map<string, number>();
  const counted: TaskFiles = {
    listTaskIds: () => files.listTaskIds(),
    index: files.index,
    prepareTask: (taskId) => files.prepareTask(taskId),
    meta: (taskId) => files.meta(taskId),
    messageLog(taskId) {
      const log = files.messageLog(taskId);
      return {
        read: async () => {
          reads.set(taskId, (reads.get(taskId) ?? 0) + 1);
          return log.read();
        },
        append: (message) => log.append(message),
      };
    },
  };
  return { files: counted, reads };
}

test('past the budget, older tasks drop their messages from memory and read them back intact', async () => {
  const { files, reads } = countingFiles();
  let now = 1;
  const store = createTaskStoreCore({ files, clock: { now: () => now++ }, messageCacheBytes: 20_000 });
  const ids = Array.from({ length: 5 }, (_, i) => `01JD00000000000000000000B${i}`);
  for (const taskId of ids) await store.createTaskIfAbsent({ taskId, title: taskId });
  const first = new Map<string, { id: string; role: 'user'; content: string; timestamp: number }>();
  for (let round = 0; round < 10; round++) {
    for (const taskId of ids) {
      const message = {
        id: `m-${taskId}-${round}`,
        role: 'user' as const,
        content: 'x'.repeat(1_000),
        timestamp: now++,
      };
      if (round === 0) first.set(taskId, message);
      await store.appendMessage(taskId, message);
    }
  }
  // 5 tasks x 10 messages x ~2.2 KB is far over 20 KB: most lists were dropped and re-read.
  const totalReads = [...reads.values()].reduce((a, b) => a + b, 0);
  assert.ok(totalReads > 5, `message files re-read ${totalReads} times`);
  for (const taskId of ids) {
    const messages = await store.listMessages(taskId);
    assert.equal(
      messages.map((m) => m.id),
      Array.from({ length: 10 }, (_, round) => `m-${taskId}-${round}`),
    );
  }
  // A duplicate id is still recognised after its list was dropped and reloaded.
  const again = await store.appendMessage(ids[0]!, first.get(ids[0]!)!);
  assert.is(again.appended, false);
});

test('within the budget, a task keeps its messages loaded (no re-reads)', async () => {
  const { files, reads } = countingFiles();
  const store = createTaskStoreCore({ files, clock: { now: () => Date.now() } });
  const taskId = '01JD00000000000000000000C0';
  await store.createTaskIfAbsent({ taskId, title: 't' });
  for (let i = 0; i < 20; i++)
    await store.appendMessage(taskId, { id: `m-${i}`, role: 'user', content: 'hello', timestamp: i + 1 });
  assert.is(reads.get(taskId) ?? 0, 1);
});

test.run();
