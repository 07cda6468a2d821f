// Graceful leave (graceful-leave.ts) and the database retry (db-retry.ts) on simulated time:
// `sleep` moves the test clock (runtime/clock createTestClock) on, nothing waits for real.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestClock } from '../../clock/index.ts';
import { isTransientDbError, withDbRetry } from '../db-retry.ts';
import { leaveCluster } from '../graceful-leave.ts';
import type { ActionLedger } from '../action-ledger.ts';
import type { ClusterControl } from '../cluster-control.ts';
import { createTaskFence, type TaskFence } from '../task-fence.ts';
import type { TaskOwnership } from '../task-ownership.ts';

/** h25's one test clock, from 0: `sleep` moves it on (due timers fire), `at` sets a timer. */
function simulated() {
  const clock = createTestClock(0);
  return {
    now: () => clock.now(),
    sleep: async (ms: number) => clock.increment(ms),
    at: (ms: number, fn: () => void) => void clock.setTimeout(fn, ms - clock.now()),
  };
}

function leaving(inFlight: () => number, now: () => number = () => 0) {
  const steps: string[] = [];
  const at: Record<string, number> = {};
  const deps = {
    ownership: {
      nodeId: 'a',
      owned: () => ['t1', 't2'],
      handOffAll: async () => (steps.push('handoff'), ['t1', 't2']),
    } as unknown as TaskOwnership,
    control: { dropTasks: (ids: string[]) => void steps.push(`drop ${ids.join(',')}`) } as unknown as ClusterControl,
    fence: {
      drain: () => void steps.push('drain'),
      markLost: (ids: string[]) => void steps.push(`lost ${ids.join(',')}`),
    } as unknown as TaskFence,
    ledger: { inFlight } as unknown as ActionLedger,
    taskStore: { settled: async () => void (steps.push('writes settled'), (at.settled = now())) },
    log: () => undefined,
    announce: () => void steps.push('announce'),
  };
  return { deps, steps, at };
}

const leave = suite('graceful leave');

leave('holds new actions, waits for those in flight, then hands every task over and tells the others', async () => {
  const clock = simulated();
  let inFlight = 2;
  clock.at(300, () => (inFlight = 1));
  clock.at(900, () => (inFlight = 0));
  const { deps, steps, at } = leaving(() => inFlight, clock.now);
  const handed = await leaveCluster({ ...deps, sleep: clock.sleep, now: clock.now });
  assert.equal(handed, ['t1', 't2']);
  assert.equal(steps, ['drain', 'writes settled', 'lost t1,t2', 'handoff', 'drop t1,t2', 'announce']);
  assert.ok(at.settled! >= 900 && at.settled! < 1_000, `actions settled at ${at.settled} ms`);
});

leave('an action that never settles delays the handoff by 10 s at most', async () => {
  const clock = simulated();
  const { deps, steps, at } = leaving(() => 1, clock.now);
  await leaveCluster({ ...deps, sleep: clock.sleep, now: clock.now });
  assert.ok(at.settled! >= 10_000 && at.settled! <= 10_100, `stopped waiting at ${at.settled} ms`);
  assert.ok(steps.includes('handoff'));
});

leave('a write held by the drain never gets out once the task is handed over (it would answer twice)', async () => {
  const clock = simulated();
  const owned = new Set(['t1']);
  const ownership = {
    nodeId: 'a',
    owns: (id: string) => owned.has(id),
    fenced: () => false,
    owned: () => [...owned],
    // Each lock goes, then a waiting write looks again (woken by the change) before the actors are dropped.
    handOffAll: async () => {
      owned.delete('t1');
      fence.changed();
      await new Promise((r) => setTimeout(r, 5));
      return ['t1'];
    },
  } as unknown as TaskOwnership;
  const fence = createTaskFence(() => ownership, createTestClock(0));
  let written: string | undefined;
  const { deps } = leaving(() => 0, clock.now);
  fence.drain();
  const write = fence.gate('t1').then(
    () => (written = 'written'),
    (error: { code?: string }) => (written = error.code),
  );
  await leaveCluster({
    ...deps,
    ownership,
    fence,
    control: { dropTasks: (ids) => fence.markLost(ids) } as ClusterControl,
    sleep: clock.sleep,
    now: clock.now,
  });
  await write;
  assert.is(written, 'CLUSTER_TASK_LOST');
});

const retry = suite('database retry');

retry('transient errors (also as a cause) are retried with backoff; others are thrown at once', async () => {
  const clock = simulated();
  let calls = 0;
  const wrapped = Object.assign(new Error('task store could not append the message'), {
    code: 'INTERNAL',
    cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  });
  const value = await withDbRetry(
    async () => {
      if (++calls < 4) throw wrapped;
      return 'ok';
    },
    { sleep: clock.sleep, now: clock.now },
  );
  assert.is(value, 'ok');
  assert.is(calls, 4);
  assert.is(clock.now(), 100 + 200 + 400);
  assert.ok(isTransientDbError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })));
  assert.not.ok(isTransientDbError(Object.assign(new Error('duplicate key value'), { code: '23505' })));
  let plain = 0;
  await withDbRetry(async () => {
    plain++;
    throw Object.assign(new Error('duplicate key value'), { code: '23505' });
  }).catch(() => undefined);
  assert.is(plain, 1);
});

retry('bounded: past maxMs the last error is thrown; a gate that throws stops the retry', async () => {
  const clock = simulated();
  const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const error = await withDbRetry(async () => Promise.reject(down), {
    sleep: clock.sleep,
    now: clock.now,
    maxMs: 30_000,
  }).catch((e) => e);
  assert.is(error, down);
  assert.ok(clock.now() > 30_000 && clock.now() < 33_000, `gave up at ${clock.now()} ms`);
  const lost = Object.assign(new Error('lost'), { code: 'CLUSTER_TASK_LOST' });
  let attempts = 0;
  const stopped = await withDbRetry(async () => (attempts++, Promise.reject(down)), {
    sleep: clock.sleep,
    now: clock.now,
    gate: async () => {
      if (attempts >= 2) throw lost;
    },
  }).catch((e) => e);
  assert.is(stopped, lost);
  assert.is(attempts, 2);
});

leave.run();
retry.run();
