// Routing and adoption of task commands (cluster-control.ts) with the database and the adapter
// faked in memory: who holds each task lock, who claimed it last, which nodes are alive, and a bus
// between nodes. The orchestrator is a recorder.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Namespace } from '../../../transport/server/index.ts';
import type { TaskStore } from '../../store/task-types.ts';
import { createClusterControl, type ResumableControl } from '../cluster-control.ts';
import { createTestClock } from '../../clock/index.ts';
import { createTaskFence } from '../task-fence.ts';
import type { Claim, TaskOwnership } from '../task-ownership.ts';

interface World {
  locks: Map<string, string>;
  recorded: Map<string, string>;
  generations: Map<string, number>;
  live: Set<string>;
  bus: Map<string, Map<string, (payload: any) => void>>;
  tasks: Map<string, { status: string }>;
  messages: Map<string, Array<{ id: string; role: string; content: string; meta?: { traceId: string } }>>;
}

function fakeNode(world: World, nodeId: string) {
  const handlers = new Map<string, (payload: any) => void>();
  world.bus.set(nodeId, handlers);
  world.live.add(nodeId);
  const nsp = {
    on: (event: string, fn: (payload: any) => void) => void handlers.set(event, fn),
    serverSideEmit: (event: string, payload: unknown) => {
      for (const [other, map] of world.bus)
        if (other !== nodeId && world.live.has(other)) queueMicrotask(() => map.get(event)?.(payload));
      return true;
    },
  } as unknown as Namespace;
  const ownership = {
    nodeId,
    async claimTask(taskId: string): Promise<Claim> {
      const holder = world.locks.get(taskId);
      if (holder === nodeId)
        return { ok: true, fresh: false, previous: nodeId, generation: world.generations.get(taskId)! };
      if (holder && world.live.has(holder)) return { ok: false };
      world.locks.set(taskId, nodeId);
      const previous = world.recorded.get(taskId) ?? null;
      world.recorded.set(taskId, nodeId);
      const generation = world.generations.has(taskId) ? world.generations.get(taskId)! + 1 : 0;
      world.generations.set(taskId, generation);
      return { ok: true, fresh: true, previous, generation };
    },
    claim: async (taskId: string) => (await ownership.claimTask(taskId)).ok,
    owns: (taskId: string) => world.locks.get(taskId) === nodeId && world.live.has(nodeId),
    fenced: () => false,
    inGrace: () => false,
    ownerOf: async (taskId: string) => {
      const holder = world.locks.get(taskId);
      return holder && world.live.has(holder) ? holder : null;
    },
    recordedOwner: async (taskId: string) => world.recorded.get(taskId) ?? null,
  } as unknown as TaskOwnership;
  const calls: string[] = [];
  const resumed: Array<{ taskId: string; note: string | null; replay: string[] }> = [];
  const local = {
    userMessage: async (message: { id: string; taskId: string }) => (
      calls.push(`userMessage ${message.id}`),
      { ok: true, data: { node: nodeId } }
    ),
    stop: async (taskId: string) => (calls.push(`stop ${taskId}`), { ok: true, data: { node: nodeId } }),
    resumeInterrupted: async (taskId: string, note: string | null, replay?: Array<{ id: string }>) => {
      resumed.push({ taskId, note, replay: (replay ?? []).map((m) => m.id) });
      return { ok: true };
    },
    drop: (taskId: string) => void calls.push(`drop ${taskId}`),
    lateResult: (result: { actionId: string }) => void calls.push(`lateResult ${result.actionId}`),
    selectExtension: async (taskId: string, clientId: string) => (
      calls.push(`selectExtension ${taskId} ${clientId}`),
      { ok: true, data: { node: nodeId } }
    ),
  } as unknown as ResumableControl;
  const taskStore = {
    getTask: async (taskId: string) => world.tasks.get(taskId),
    listMessages: async (taskId: string) => world.messages.get(taskId) ?? [],
  } as unknown as TaskStore;
  const control = createClusterControl({
    nsp,
    ownership,
    fence: createTaskFence(() => ownership, createTestClock(0)),
    taskStore,
    log: () => undefined,
    forwardPollMs: 1,
    sleep: () => new Promise((r) => setImmediate(r)),
  });
  const wrapped = control.wrap(local)!;
  return { nodeId, control, wrapped, calls, resumed };
}

const newWorld = (): World => ({
  locks: new Map(),
  recorded: new Map(),
  generations: new Map(),
  live: new Set(),
  bus: new Map(),
  tasks: new Map(),
  messages: new Map(),
});
const message = (taskId: string, id: string) =>
  ({ v: 1, type: 'user_message', id, timestamp: 1, taskId, content: id }) as any;

const test = suite('cluster control: routing and adoption');

test("a stopped step's late result and the extension choice reach the task's owner, and claim nothing", async () => {
  const world = newWorld();
  const a = fakeNode(world, 'a');
  const b = fakeNode(world, 'b');
  world.tasks.set('t9', { status: 'created' });
  await a.wrapped.userMessage(message('t9', 'm1'), {});
  b.wrapped.lateResult!({ actionId: 'act-1', taskId: 't9', status: 'success' } as any);
  const chosen = await b.wrapped.selectExtension!('t9', 'plugin-x');
  assert.equal(chosen, { ok: true, data: { node: 'a' } });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(a.calls, ['userMessage m1', 'lateResult act-1', 'selectExtension t9 plugin-x']);
  assert.equal(b.calls, []);
  // The owner gone, a late result is dropped (nobody to tell); it does not make B claim the task.
  world.live.delete('a');
  b.wrapped.lateResult!({ actionId: 'act-2', taskId: 't9', status: 'success' } as any);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(b.calls, []);
  assert.is(world.locks.get('t9'), 'a');
});

test('a command reaching the owner during its turn runs on its live actor: no adoption, no note', async () => {
  const world = newWorld();
  const a = fakeNode(world, 'a');
  world.tasks.set('t1', { status: 'created' });
  await a.wrapped.userMessage(message('t1', 'm1'), {});
  world.tasks.set('t1', { status: 'running' }); // the turn runs
  world.messages.set('t1', [{ id: 'm1', role: 'user', content: 'm1' }]);
  await a.wrapped.userMessage(message('t1', 'm2'), {});
  await a.wrapped.stop('t1', 'web');
  assert.equal(a.calls, ['userMessage m1', 'userMessage m2', 'stop t1']);
  assert.equal(a.resumed, [], 'its own task is never adopted');
});

test('another node forwards to the live owner; after the owner dies one fresh claim adopts once, replaying in order', async () => {
  const world = newWorld();
  const a = fakeNode(world, 'a');
  const b = fakeNode(world, 'b');
  world.tasks.set('t2', { status: 'created' });
  await a.wrapped.userMessage(message('t2', 'm1'), {});
  world.tasks.set('t2', { status: 'running' });
  const forwarded = await b.wrapped.userMessage(message('t2', 'm2'), {});
  assert.equal(forwarded, { ok: true, data: { node: 'a' } });
  assert.equal(a.calls, ['userMessage m1', 'userMessage m2']);
  world.messages.set('t2', [
    { id: 'm1', role: 'user', content: 'm1' },
    { id: 'm2', role: 'user', content: 'm2' },
  ]);
  world.live.delete('a'); // kill -9: its locks go with its connection
  const [one, two] = await Promise.all([b.wrapped.userMessage(message('t2', 'm3'), {}), b.wrapped.stop('t2', 'web')]);
  assert.equal(
    [one, two].map((r) => (r as any).data.node),
    ['b', 'b'],
  );
  assert.equal(b.resumed, [
    {
      taskId: 't2',
      note: 'The server node that was running this task stopped; node b took it over and carries on where it was.',
      replay: ['m1', 'm2'],
    },
  ]);
  assert.equal(b.calls, ['userMessage m3', 'stop t2']);
});

test('an owner that dies while a command waits for its answer: the asker claims and runs it at once', async () => {
  const world = newWorld();
  const a = fakeNode(world, 'a');
  const b = fakeNode(world, 'b');
  world.tasks.set('t3', { status: 'created' });
  await a.wrapped.userMessage(message('t3', 'm1'), {});
  world.tasks.set('t3', { status: 'running' });
  world.bus.get('a')!.clear(); // A is hung: it hears nothing any more
  const pending = b.wrapped.userMessage(message('t3', 'm2'), {});
  await new Promise((r) => setTimeout(r, 5));
  world.live.delete('a');
  const result = await pending;
  assert.is((result as any).data.node, 'b');
  assert.is(b.resumed.length, 1);
});

test('a task handed over is carried on without a note', async () => {
  const world = newWorld();
  const b = fakeNode(world, 'b');
  world.tasks.set('t4', { status: 'running' });
  world.recorded.set('t4', 'handoff:a');
  world.messages.set('t4', [{ id: 'm1', role: 'user', content: 'm1' }]);
  assert.is(await b.control.takeOver('t4'), true);
  assert.equal(b.resumed, [{ taskId: 't4', note: null, replay: ['m1'] }]);
});

test('a task whose owner died between acknowledging a message and starting the turn is replayed; an idle one is not', async () => {
  const world = newWorld();
  const b = fakeNode(world, 'b');
  world.tasks.set('t5', { status: 'ongoing' });
  world.recorded.set('t5', 'gone');
  world.messages.set('t5', [
    { id: 'm1', role: 'user', content: 'm1', meta: { traceId: 'trace-m1' } },
    { id: 'a1', role: 'assistant', content: 'x', meta: { traceId: 'trace-m1' } },
    { id: 'm2', role: 'user', content: 'm2' },
  ]);
  world.tasks.set('t6', { status: 'ongoing' });
  world.messages.set('t6', [
    { id: 'm1', role: 'user', content: 'm1', meta: { traceId: 'trace-m1' } },
    { id: 'a1', role: 'assistant', content: 'x', meta: { traceId: 'trace-m1' } },
  ]);
  await b.control.takeOver('t5');
  await b.control.takeOver('t6');
  assert.equal(
    b.resumed.map((r) => [r.taskId, r.replay]),
    [['t5', ['m2']]],
  );
});

test.run();
