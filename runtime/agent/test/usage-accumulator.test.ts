// Token usage reports add up in the stored total even when they arrive while an earlier one is
// still being written (a slow store): each addition reads the total after the previous wrote it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryTaskStore } from '../../store/memory-task-store.ts';
import type { TaskStore } from '../../store/task-types.ts';
import { createUsageAccumulator } from '../task-history.ts';

const test = suite('usage accumulator');
const TASK = '01JD0000000000000000000U01';

/** A store whose reads answer a few turns of the event loop late, as a loaded disk or database would. */
function slowReads(store: TaskStore): TaskStore {
  return Object.assign(Object.create(store) as TaskStore, {
    getTask: async (taskId: string) => {
      const task = await store.getTask(taskId);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      return task;
    },
  });
}

test('three reports sent together all count; the web sees each at once', async () => {
  const store = createMemoryTaskStore({ clock: { now: () => 1_700_000_000_000 } });
  await store.createTaskIfAbsent({ taskId: TASK, title: 'usage' });
  const seen: unknown[] = [];
  const add = createUsageAccumulator(
    {
      events: { toTask: (_taskId: string, event: unknown) => void seen.push(event) } as never,
      taskStore: slowReads(store),
    },
    TASK,
  );
  await Promise.all([
    add({ promptTokens: 100, completionTokens: 10, totalTokens: 110 }),
    add({ promptTokens: 200, completionTokens: 20, totalTokens: 220 }),
    add({ promptTokens: 300, completionTokens: 30, totalTokens: 330 }),
  ]);
  assert.equal((await store.getTask(TASK))?.usage, { promptTokens: 600, completionTokens: 60, totalTokens: 660 });
  assert.is(seen.length, 3);
});

test('a failed write does not stop the reports after it', async () => {
  const store = createMemoryTaskStore({ clock: { now: () => 1_700_000_000_000 } });
  await store.createTaskIfAbsent({ taskId: TASK, title: 'usage' });
  let fail = true;
  const flaky = Object.assign(Object.create(store) as TaskStore, {
    updateTask: async (taskId: string, patch: never) => {
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      return store.updateTask(taskId, patch);
    },
  });
  const add = createUsageAccumulator({ events: { toTask: () => undefined } as never, taskStore: flaky }, TASK);
  const first = add({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
  const second = add({ promptTokens: 5, completionTokens: 5, totalTokens: 10 });
  assert.is(
    await first.then(
      () => 'written',
      (error: Error) => error.message,
    ),
    'disk full',
  );
  await second;
  assert.equal((await store.getTask(TASK))?.usage, { promptTokens: 5, completionTokens: 5, totalTokens: 10 });
});

test.run();
