// GET /api/task/id, /api/task/list, /api/task/:taskId (seed 001 §2.1).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validate, TaskDetailSchema, TaskListResponseSchema } from '../../../transport/contracts/index.ts';
import { call, makeHarness, T0, TASK_ID, TASK_UUID } from './util.ts';
import type { Harness } from './util.ts';

const s = suite<{ h: Harness }>('http: task routes');
s.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
s.after.each(({ h }) => h.remove());

s('GET /api/task/id returns a fresh id from newTaskId each time, not cached', async ({ h }) => {
  const a = await call(h.app, '/api/task/id');
  const b = await call(h.app, '/api/task/id');
  assert.is(a.status, 200);
  assert.equal(a.body, { ok: true, data: { taskId: h.issuedTaskIds[0] } });
  assert.equal(b.body.data.taskId, h.issuedTaskIds[1]);
  assert.is.not(a.body.data.taskId, b.body.data.taskId);
  assert.is(a.headers.get('cache-control'), 'no-store');
});

s('GET /api/task/list: empty, then summaries most recent first, matching the contract', async ({ h }) => {
  assert.equal((await call(h.app, '/api/task/list')).body, { ok: true, data: [] });
  await h.taskStore.createTaskIfAbsent({ taskId: TASK_ID, title: 'Find flights' });
  h.clock.increment(1000);
  await h.taskStore.createTaskIfAbsent({ taskId: TASK_UUID, title: 'Read news', selectedClientId: 'plugin-abc' });
  await h.taskStore.updateTask(TASK_UUID, { machineSnapshot: { big: 'internal' }, status: 'ongoing' });
  const res = await call(h.app, '/api/task/list');
  assert.is(res.status, 200);
  assert.equal(res.body.data, [
    {
      taskId: TASK_UUID,
      title: 'Read news',
      status: 'ongoing',
      createdAt: T0 + 1000,
      updatedAt: T0 + 1000,
      selectedClientId: 'plugin-abc',
    },
    { taskId: TASK_ID, title: 'Find flights', status: 'created', createdAt: T0, updatedAt: T0 },
  ]);
  assert.ok(validate(TaskListResponseSchema, res.body.data).ok);
});

s(
  'GET /api/task/list?limit=&cursor=: pages of { tasks, nextCursor } covering the list once; bad limit or cursor is BAD_REQUEST',
  async ({ h }) => {
    const ids = [TASK_ID, TASK_UUID, '01HRZ8Y2J4K6M8N0P2Q4R6S8T0'];
    for (const taskId of ids) {
      await h.taskStore.createTaskIfAbsent({ taskId, title: taskId });
      h.clock.increment(1000);
    }
    const first = await call(h.app, '/api/task/list?limit=2');
    assert.is(first.status, 200);
    assert.equal(
      first.body.data.tasks.map((t: { taskId: string }) => t.taskId),
      [ids[2], ids[1]],
    );
    assert.ok(validate(TaskListResponseSchema, first.body.data.tasks).ok);
    assert.type(first.body.data.nextCursor, 'string');
    const second = await call(h.app, `/api/task/list?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`);
    assert.equal(second.body.data, {
      tasks: [{ taskId: ids[0], title: ids[0], status: 'created', createdAt: T0, updatedAt: T0 }],
      nextCursor: null,
    });
    // No parameters: the seed's shape (an array of every task).
    assert.equal(
      (await call(h.app, '/api/task/list')).body.data.map((t: { taskId: string }) => t.taskId),
      [ids[2], ids[1], ids[0]],
    );
    for (const query of ['limit=0', 'limit=501', 'limit=abc', 'limit=-1', 'cursor=garbage']) {
      const res = await call(h.app, `/api/task/list?${query}`);
      assert.is(res.status, 400, query);
      assert.is(res.body.ok, false);
      assert.is(res.body.error.code, 'BAD_REQUEST');
      assert.type(res.body.error.details.fieldErrors[0].field, 'string');
    }
  },
);

s('GET /api/task/:taskId returns the task and its messages', async ({ h }) => {
  await h.taskStore.createTaskIfAbsent({ taskId: TASK_ID, title: 'Find flights' });
  await h.taskStore.appendMessage(TASK_ID, {
    id: 'msg-1',
    role: 'user',
    content: 'open example.com',
    timestamp: T0 + 1,
  });
  await h.taskStore.appendMessage(TASK_ID, {
    id: 'msg-2',
    role: 'tool',
    content: '{"ok":true}',
    timestamp: T0 + 2,
    meta: { toolCallId: 'call-1', actionName: 'browser_navigate' },
  });
  const res = await call(h.app, `/api/task/${TASK_ID}`);
  assert.is(res.status, 200);
  assert.equal(res.body.data.task, {
    taskId: TASK_ID,
    title: 'Find flights',
    status: 'created',
    createdAt: T0,
    updatedAt: T0,
  });
  assert.equal(res.body.data.messages, [
    { id: 'msg-1', role: 'user', content: 'open example.com', timestamp: T0 + 1 },
    {
      id: 'msg-2',
      role: 'tool',
      content: '{"ok":true}',
      timestamp: T0 + 2,
      toolCallId: 'call-1',
      meta: { toolCallId: 'call-1', actionName: 'browser_navigate' },
    },
  ]);
  assert.ok(validate(TaskDetailSchema, res.body.data).ok);
});

s('a UUID task id works too, in any case', async ({ h }) => {
  await h.taskStore.createTaskIfAbsent({ taskId: TASK_UUID, title: 't' });
  assert.is((await call(h.app, `/api/task/${TASK_UUID}`)).status, 200);
});

s('a task id that is neither ULID nor UUID is 400 BAD_REQUEST with a taskId field error', async ({ h }) => {
  for (const bad of [
    'not-a-task',
    '01HRZ8YV8Q6P1Q2W3E4R5T6Y7',
    '01HRZ8YV8Q6P1Q2W3E4R5T6Y7I',
    '..%2F..%2Fetc',
    '3f2504e0-4f89-41d3-9a0c-0305e82c330',
  ]) {
    const res = await call(h.app, `/api/task/${bad}`);
    assert.is(res.status, 400, bad);
    assert.is(res.body.error.code, 'BAD_REQUEST');
    assert.is(res.body.error.details.fieldErrors[0].field, 'taskId');
  }
});

s('an unknown task is 404 NOT_FOUND naming it', async ({ h }) => {
  const res = await call(h.app, `/api/task/${TASK_ID}`);
  assert.is(res.status, 404);
  assert.equal(res.body, {
    ok: false,
    error: { code: 'NOT_FOUND', message: `no task ${TASK_ID}`, details: { context: { taskId: TASK_ID } } },
  });
});

s.run();
