// Child process for task-store-crash.test.ts: appends messages to a few tasks as fast as it can
// (several appends in flight per task, plus meta updates) and prints `ack <taskId> <messageId>`
// once each append has resolved, no faster than the parent reads them. The parent SIGKILLs it mid-stream.
//   node --import tsx append-child.ts <dataDir> <round> <fsync 0|1>
import { once } from 'node:events';
import { createTaskStore } from '../task-store.ts';

const [dataDir, round = '0', fsync = '0'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: append-child.ts <dataDir> <round> <fsync>');
const store = createTaskStore({ dataDir, clock: { now: () => Date.now() }, fsync: fsync === '1' });
const taskIds = ['crash-a', 'crash-b', 'crash-c'];
for (const taskId of taskIds) await store.createTaskIfAbsent({ taskId, title: taskId });
process.stdout.write('ready\n');

let n = 0;
async function appendLoop(taskId: string): Promise<never> {
  for (;;) {
    // Three appends in flight at once for the same task: they queue behind each other.
    const ids = [0, 1, 2].map(() => `r${round}-${taskId}-${n++}`);
    await Promise.all(
      ids.map(async (id) => {
        await store.appendMessage(taskId, {
          id,
          role: 'user',
          content: `payload ${id} ${'x'.repeat(200)}`,
          timestamp: Date.now(),
          meta: { n },
        });
        process.stdout.write(`ack ${taskId} ${id}\n`);
      }),
    );
    // A parent slow to read (a loaded machine) holds the appends back: the acks never pile up in memory.
    if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
  }
}
async function snapshotLoop(): Promise<never> {
  for (let i = 0; ; i++) await store.updateTask('crash-a', { machineSnapshot: { step: i, blob: 'y'.repeat(500) } });
}
await Promise.all([...taskIds.map(appendLoop), snapshotLoop()]);
