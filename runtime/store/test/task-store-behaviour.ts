// The behaviour every TaskStore must show, run against both implementations
// (fs-task-store.test.ts and memory-task-store.test.ts) so they stay at parity.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Message, TaskStore } from '../task-types.ts';
import { rejection, T0 } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';
import { defineUpdateBehaviour } from './task-store-update-behaviour.ts';

export interface StoreHarness {
  clock: TestClock;
  store: TaskStore;
  /** A fresh store over the same data (a restart). */
  reopen(): TaskStore;
  /** Make writes for this task fail (and creating it, if it does not exist yet). */
  breakWrites(taskId: string): Promise<void>;
  healWrites(taskId: string): Promise<void>;
  cleanup(): Promise<void>;
}

const msg = (id: string, extra: Partial<Message> = {}): Message => ({
  id,
  role: 'user',
  content: `text of ${id}`,
  timestamp: 1_730_000_000_000,
  ...extra,
});

export function defineTaskStoreBehaviour(name: string, makeHarness: (clock: TestClock) => Promise<StoreHarness>): void {
  const s = suite<{ h: StoreHarness }>(`${name}: behaviour`);

  s.before.each(async (ctx) => {
    ctx.h = await makeHarness(createTestClock(T0));
  });
  s.after.each(async (ctx) => {
    await ctx.h.store.close();
    await ctx.h.cleanup();
  });

  s('createTaskIfAbsent creates a task with defaults from the clock', async ({ h }) => {
    const { task, created } = await h.store.createTaskIfAbsent({
      taskId: 't1',
      title: 'Find flights',
      selectedClientId: 'plugin-a',
    });
    assert.is(created, true);
    assert.equal(task, {
      taskId: 't1',
      title: 'Find flights',
      status: 'created',
      createdAt: h.clock.now(),
      updatedAt: h.clock.now(),
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      selectedClientId: 'plugin-a',
    });
    assert.equal(await h.store.getTask('t1'), task);
  });

  s('createTaskIfAbsent is idempotent: an existing task is returned unchanged', async ({ h }) => {
    const first = await h.store.createTaskIfAbsent({ taskId: 't1', title: 'first' });
    h.clock.increment(1000);
    const second = await h.store.createTaskIfAbsent({ taskId: 't1', title: 'second', selectedClientId: 'x' });
    assert.is(second.created, false);
    assert.equal(second.task, first.task);
    assert.is((await h.store.listTasks()).length, 1);
  });

  s('concurrent createTaskIfAbsent calls for one id create it once', async ({ h }) => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => h.store.createTaskIfAbsent({ taskId: 'same', title: `t${n}` })),
    );
    assert.is(results.filter((r) => r.created).length, 1);
    assert.is(results[0]!.created, true);
    assert.ok(results.every((r) => r.task.title === 't1'));
  });

  s('getTask: unknown id is undefined, malformed id is BAD_REQUEST', async ({ h }) => {
    assert.is(await h.store.getTask('nope'), undefined);
    for (const bad of ['', '../x', 'a/b', 'a b', '.hidden', 'x'.repeat(129), 42 as unknown as string]) {
      const error = await rejection(h.store.getTask(bad));
      assert.is(error.code, 'BAD_REQUEST', String(bad));
      assert.is(error.status, 400);
    }
  });

  s('listTasks returns summaries, most recently updated first', async ({ h }) => {
    for (const id of ['a', 'b', 'c']) {
      await h.store.createTaskIfAbsent({ taskId: id, title: id });
      h.clock.increment(10);
    }
    assert.equal(
      (await h.store.listTasks()).map((t) => t.taskId),
      ['c', 'b', 'a'],
    );
    await h.store.updateTask('a', { status: 'running', machineSnapshot: { value: 'x' } });
    const list = await h.store.listTasks();
    assert.equal(
      list.map((t) => t.taskId),
      ['a', 'c', 'b'],
    );
    assert.equal(list[0], {
      taskId: 'a',
      title: 'a',
      status: 'running',
      createdAt: 1_730_000_000_000,
      updatedAt: h.clock.now(),
    });
    h.clock.increment(10);
    await h.store.appendMessage('b', msg('m1'));
    assert.equal(
      (await h.store.listTasks()).map((t) => t.taskId),
      ['b', 'a', 'c'],
    );
  });

  s(
    'listTaskPage pages through listTasks with a cursor: each task once, in order, stable under updates',
    async ({ h }) => {
      // Equal timestamps in pairs, so the tie-breaks (createdAt, then taskId) are crossed by pages.
      for (let i = 0; i < 11; i++) {
        await h.store.createTaskIfAbsent({ taskId: `t${String(i).padStart(2, '0')}`, title: `task ${i}` });
        if (i % 2 === 1) h.clock.increment(10);
      }
      await h.store.updateTask('t03', { status: 'running' });
      const all = (await h.store.listTasks()).map((t) => t.taskId);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await h.store.listTaskPage({ limit: 3, ...(cursor ? { cursor } : {}) });
        assert.ok(page.tasks.length <= 3);
        seen.push(...page.tasks.map((t) => t.taskId));
        if (pages === 0) {
          // Updated between pages: moves to the front, not repeated further down.
          h.clock.increment(10);
          await h.store.updateTask(all[5]!, { title: 'renamed' });
        }
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      assert.is(pages, 4);
      assert.equal(
        seen,
        all.filter((id) => id !== all[5]),
      );
      const first = await h.store.listTaskPage({});
      assert.is(first.nextCursor, null);
      assert.equal(first.tasks, await h.store.listTasks());
      for (const bad of [
        { limit: 0 },
        { limit: 501 },
        { limit: 1.5 },
        { cursor: 'not-a-cursor' },
        { cursor: Buffer.from('[1,2]').toString('base64url') },
      ]) {
        const error = await rejection(h.store.listTaskPage(bad));
        assert.is(error.code, 'BAD_REQUEST', JSON.stringify(bad));
      }
    },
  );

  defineUpdateBehaviour(s);

  s('appendMessage keeps order, stores meta, and bumps updatedAt only', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    await h.store.updateTask('t1', {
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      machineSnapshot: { v: 1 },
    });
    const roles = ['user', 'assistant', 'tool', 'system'] as const;
    for (const [i, role] of roles.entries()) {
      h.clock.increment(100);
      const result = await h.store.appendMessage(
        't1',
        msg(`m${i}`, { role, meta: i === 2 ? { toolCallId: 'c1', ok: true } : undefined }),
      );
      assert.is(result.appended, true);
    }
    const messages = await h.store.listMessages('t1');
    assert.equal(
      messages.map((m) => [m.id, m.role]),
      [
        ['m0', 'user'],
        ['m1', 'assistant'],
        ['m2', 'tool'],
        ['m3', 'system'],
      ],
    );
    assert.equal(messages[2]!.meta, { toolCallId: 'c1', ok: true });
    assert.not.ok('meta' in messages[0]!);
    const task = await h.store.getTask('t1');
    assert.is(task!.updatedAt, h.clock.now());
    assert.equal(task!.machineSnapshot, { v: 1 });
    assert.equal(task!.usage, { promptTokens: 1, completionTokens: 2, totalTokens: 3 });
  });

  s('appendMessage is idempotent by id; a different body under the same id is CONFLICT', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    await h.store.appendMessage('t1', msg('m1', { meta: { a: 1, b: 2 } }));
    const again = await h.store.appendMessage('t1', msg('m1', { meta: { b: 2, a: 1 } }));
    assert.is(again.appended, false);
    const conflict = await rejection(h.store.appendMessage('t1', msg('m1', { content: 'other' })));
    assert.is(conflict.code, 'CONFLICT');
    assert.is(conflict.status, 409);
    assert.is((await h.store.listMessages('t1')).length, 1);
  });

  s(
    'a retried append differing only in meta.seq (its place in the event order) is the same message; the first seq stays',
    async ({ h }) => {
      await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
      await h.store.appendMessage('t1', msg('m1', { meta: { traceId: 'x', seq: 3 } }));
      const again = await h.store.appendMessage('t1', msg('m1', { meta: { traceId: 'x', seq: 9 } }));
      assert.is(again.appended, false);
      assert.is(again.message.meta?.seq, 3);
      const conflict = await rejection(h.store.appendMessage('t1', msg('m1', { meta: { traceId: 'y', seq: 3 } })));
      assert.is(conflict.code, 'CONFLICT');
      assert.equal(
        (await h.store.listMessages('t1')).map((m) => m.meta?.seq),
        [3],
      );
    },
  );

  s('appendMessage refuses malformed messages', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    const bad: unknown[] = [
      { ...msg('a'), role: 'bot' },
      { ...msg('b'), content: 5 },
      { ...msg('c'), timestamp: 'now' },
      { ...msg('d'), timestamp: Number.NaN },
      { ...msg(''), id: '' },
      { ...msg('e'), extra: true },
      { ...msg('f'), meta: [1] },
      { ...msg('g'), meta: 'x' },
      null,
      'hello',
    ];
    for (const input of bad) {
      const error = await rejection(h.store.appendMessage('t1', input as Message));
      assert.is(error.code, 'BAD_REQUEST');
    }
    assert.equal(await h.store.listMessages('t1'), []);
  });

  s('concurrent appends to one task are serialized in call order', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    await h.store.createTaskIfAbsent({ taskId: 't2', title: 'other' });
    const ids = Array.from({ length: 40 }, (_, i) => `m${i}`);
    await Promise.all([
      ...ids.map((id) => h.store.appendMessage('t1', msg(id))),
      ...ids.map((id) => h.store.appendMessage('t2', msg(id))),
    ]);
    assert.equal(
      (await h.store.listMessages('t1')).map((m) => m.id),
      ids,
    );
    assert.equal(
      (await h.store.listMessages('t2')).map((m) => m.id),
      ids,
    );
  });

  s('returned objects are copies', async ({ h }) => {
    const { task } = await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    task.title = 'mutated';
    task.usage.totalTokens = 99;
    const input = msg('m1', { meta: { n: 1 } });
    const { message } = await h.store.appendMessage('t1', input);
    input.meta!.n = 2;
    message.content = 'mutated';
    (await h.store.listMessages('t1'))[0]!.content = 'mutated again';
    (await h.store.listTasks())[0]!.title = 'mutated';
    const stored = await h.store.getTask('t1');
    assert.is(stored!.title, 'chat');
    assert.is(stored!.usage.totalTokens, 0);
    assert.equal(await h.store.listMessages('t1'), [msg('m1', { meta: { n: 1 } })]);
  });

  s('a restart sees every committed change', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 'a', title: 'A', selectedClientId: 'p' });
    h.clock.increment(5);
    await h.store.createTaskIfAbsent({ taskId: 'b', title: 'B' });
    await h.store.appendMessage('a', msg('m1'));
    await h.store.updateTask('b', { status: 'completed', machineSnapshot: { value: 'done' } });
    const expectedList = await h.store.listTasks();
    const expectedA = await h.store.getTask('a');
    const expectedB = await h.store.getTask('b');
    await h.store.close();
    h.store = h.reopen();
    assert.equal(await h.store.init(), { taskCount: 2, skipped: [] });
    assert.equal(await h.store.listTasks(), expectedList);
    assert.equal(await h.store.getTask('a'), expectedA);
    assert.equal(await h.store.getTask('b'), expectedB);
    assert.equal(await h.store.listMessages('a'), [msg('m1')]);
  });

  s('a failed write rejects with INTERNAL, changes nothing, and the store recovers', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    await h.store.appendMessage('t1', msg('m1'));
    const taskBefore = await h.store.getTask('t1');
    const listBefore = await h.store.listTasks();
    await h.breakWrites('t1');
    await h.breakWrites('t2');
    h.clock.increment(1000);
    const calls = [
      () => h.store.appendMessage('t1', msg('m2')),
      () => h.store.updateTask('t1', { status: 'error' }),
      () => h.store.createTaskIfAbsent({ taskId: 't2', title: 'new' }),
    ];
    for (const call of calls) {
      const error = await rejection(call());
      assert.is(error.code, 'INTERNAL');
      assert.is(error.status, 500);
      assert.is(error.details?.retryable, true);
    }
    assert.equal(await h.store.getTask('t1'), taskBefore);
    assert.equal(await h.store.listMessages('t1'), [msg('m1')]);
    assert.equal(await h.store.listTasks(), listBefore);
    assert.is(await h.store.getTask('t2'), undefined);

    await h.healWrites('t1');
    await h.healWrites('t2');
    assert.is((await h.store.appendMessage('t1', msg('m2'))).appended, true);
    assert.is((await h.store.updateTask('t1', { status: 'error' })).status, 'error');
    assert.is((await h.store.createTaskIfAbsent({ taskId: 't2', title: 'new' })).created, true);
    await h.store.close();
    h.store = h.reopen();
    assert.equal(
      (await h.store.listMessages('t1')).map((m) => m.id),
      ['m1', 'm2'],
    );
    assert.is((await h.store.getTask('t1'))!.status, 'error');
    assert.is((await h.store.listTasks()).length, 2);
  });

  s('close waits for pending writes, then refuses calls', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'chat' });
    const pending = Promise.all(['a', 'b', 'c'].map((id) => h.store.appendMessage('t1', msg(id))));
    await h.store.close();
    assert.is((await pending).length, 3);
    const calls = [
      () => h.store.listTasks(),
      () => h.store.getTask('t1'),
      () => h.store.appendMessage('t1', msg('d')),
      () => h.store.init(),
    ];
    for (const call of calls) {
      assert.is((await rejection(call())).code, 'INTERNAL');
    }
    h.store = h.reopen();
    assert.equal(
      (await h.store.listMessages('t1')).map((m) => m.id),
      ['a', 'b', 'c'],
    );
  });

  s.run();
}
