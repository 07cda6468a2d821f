// pendingOperations(): what the file store still has queued or running (the soak waits for 0
// before it calls the server at rest).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTaskStore } from '../index.ts';
import { makeTempDir, T0 } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const test = suite('task store: pending operations');

test('counts operations from the call until they settle, across tasks; 0 when idle', async () => {
  const { dir, remove } = await makeTempDir('pending');
  try {
    const store = createTaskStore({ dataDir: dir, clock: createTestClock(T0) });
    await store.init();
    assert.is(store.pendingOperations!(), 0);
    const taskIds = ['01JD0000000000000000000001', '01JD0000000000000000000002'];
    const created = taskIds.map((taskId) => store.createTaskIfAbsent({ taskId, title: 't' }));
    assert.is(store.pendingOperations!(), 2);
    await Promise.all(created);
    const appends = Array.from({ length: 5 }, (_, i) =>
      store.appendMessage(taskIds[i % 2]!, { id: `m${i}`, role: 'user' as const, content: `hello ${i}`, timestamp: i }),
    );
    assert.is(store.pendingOperations!(), 5, 'queued behind each other per task, all counted');
    await Promise.all(appends);
    await new Promise((r) => setImmediate(r));
    assert.is(store.pendingOperations!(), 0);
    await store.close();
  } finally {
    await remove();
  }
});

test.run();
