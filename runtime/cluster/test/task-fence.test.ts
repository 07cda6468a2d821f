// The fence's gate on the node's clock: a held task's action waits, is let through when the
// ownership is proven again even if nobody calls changed() (the periodic re-check, on the injected
// clock), and fails with CLUSTER_TASK_LOST when the task went to another node.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestClock } from '../../clock/index.ts';
import { createTaskFence, FENCE_RECHECK_MS } from '../task-fence.ts';
import type { TaskOwnership } from '../task-ownership.ts';

const s = suite('task fence');

function world() {
  const clock = createTestClock(0);
  const state = { fenced: true };
  const ownership = { owns: (id: string) => id === 't1', fenced: () => state.fenced } as unknown as TaskOwnership;
  const fence = createTaskFence(() => ownership, clock);
  return { clock, state, fence };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

s('a held gate opens at the next re-check on the clock, not before, without changed()', async () => {
  const { clock, state, fence } = world();
  let passed = false;
  const gate = fence.gate('t1').then(() => (passed = true));
  assert.is(fence.state('t1'), 'held');
  state.fenced = false; // the lock connection is back, and nobody said so
  clock.increment(FENCE_RECHECK_MS - 1);
  await settled();
  assert.is(passed, false, 'still waiting before the re-check');
  clock.increment(1);
  await gate;
  assert.is(passed, true);
});

s('changed() wakes a held gate at once and leaves no timer behind', async () => {
  const { clock, state, fence } = world();
  const gate = fence.gate('t1');
  await settled();
  assert.is(clock.pending().length, 1, 'one re-check timer while held');
  state.fenced = false;
  fence.changed();
  await gate;
  assert.is(clock.pending().length, 0, 'the re-check timer is cleared');
});

s('a task lost while held fails its gate with CLUSTER_TASK_LOST', async () => {
  const { fence } = world();
  const gate = fence.gate('t1').then(
    () => 'passed',
    (error: { code?: string }) => error.code,
  );
  fence.markLost(['t1']);
  assert.is(await gate, 'CLUSTER_TASK_LOST');
});

s("a task that is not this node's is open", () => {
  const { fence } = world();
  assert.is(fence.state('other'), 'open');
});

s.run();
