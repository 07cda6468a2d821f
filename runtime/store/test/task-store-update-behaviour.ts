// updateTask's behaviour, part of every TaskStore's suite (task-store-behaviour.ts): patches,
// refusals, unknown tasks, and the turn outcome kept only while the task is in `error`.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejection } from './util.ts';
import type { StoreHarness } from './task-store-behaviour.ts';
import type { Message } from '../task-types.ts';

const msg = (id: string): Message => ({ id, role: 'user', content: `text of ${id}`, timestamp: 1_730_000_000_000 });

export function defineUpdateBehaviour(s: Test<{ h: StoreHarness }>): void {
  s('updateTask sets and clears fields and stamps updatedAt', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'old', selectedClientId: 'p1' });
    h.clock.increment(500);
    const snapshot = { status: 'active', value: { running: 'llm' }, context: { n: 1 } };
    const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const updated = await h.store.updateTask('t1', {
      status: 'ongoing',
      title: 'new',
      machineSnapshot: snapshot,
      usage,
    });
    assert.equal(updated.machineSnapshot, snapshot);
    assert.equal(updated.usage, usage);
    assert.is(updated.updatedAt, h.clock.now());
    assert.is(updated.status, 'ongoing');
    assert.is(updated.selectedClientId, 'p1');
    const cleared = await h.store.updateTask('t1', { selectedClientId: null, machineSnapshot: null });
    assert.not.ok('selectedClientId' in cleared);
    assert.not.ok('machineSnapshot' in cleared);
    assert.equal(await h.store.getTask('t1'), cleared);
  });

  s('updateTask refuses bad patches with fieldErrors and changes nothing', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'keep' });
    const before = await h.store.getTask('t1');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad: unknown[] = [
      { status: 'paused' },
      { createdAt: 1 },
      { taskId: 'other' },
      { title: 7 },
      { title: 'x'.repeat(1001) },
      { usage: { promptTokens: -1, completionTokens: 0, totalTokens: 0 } },
      { usage: { promptTokens: 1 } },
      { machineSnapshot: cyclic },
      { machineSnapshot: 10n },
      { selectedClientId: '' },
      null,
      'status',
    ];
    for (const patch of bad) {
      h.clock.increment(1);
      const error = await rejection(h.store.updateTask('t1', patch as never));
      assert.is(error.code, 'BAD_REQUEST', JSON.stringify(String(patch)));
    }
    const withFields = await rejection(h.store.updateTask('t1', { status: 'paused', extra: 1 } as never));
    assert.equal(withFields.details?.fieldErrors?.map((f) => f.field).sort(), ['extra', 'status']);
    assert.equal(await h.store.getTask('t1'), before);
  });

  s('updateTask and message calls on an unknown task are NOT_FOUND', async ({ h }) => {
    const calls = [
      () => h.store.updateTask('ghost', { status: 'running' }),
      () => h.store.appendMessage('ghost', msg('m')),
      () => h.store.listMessages('ghost'),
    ];
    for (const call of calls) {
      const error = await rejection(call());
      assert.is(error.code, 'NOT_FOUND');
      assert.is(error.status, 404);
    }
    assert.equal(await h.store.listTasks(), []);
  });

  s('updateTask keeps a turn outcome only while the status is error; the list shows it', async ({ h }) => {
    await h.store.createTaskIfAbsent({ taskId: 't1', title: 'a' });
    const failed = await h.store.updateTask('t1', { status: 'error', outcome: 'interrupted' });
    assert.is(failed.outcome, 'interrupted');
    assert.is((await h.store.listTasks())[0]?.outcome, 'interrupted', 'in the summary');
    assert.is((await h.store.listTaskPage({ limit: 10 })).tasks[0]?.outcome, 'interrupted', 'in a page');
    assert.is(
      (await h.store.updateTask('t1', { usage: { promptTokens: 1, completionTokens: 0, totalTokens: 1 } })).outcome,
      'interrupted',
      'another patch keeps it',
    );
    assert.is((await h.reopen().getTask('t1'))?.outcome, 'interrupted', 'a restart keeps it');
    const resumed = await h.store.updateTask('t1', { status: 'running' });
    assert.is(resumed.outcome, undefined, 'a status other than error clears it');
    assert.is((await h.store.updateTask('t1', { outcome: 'error' })).outcome, undefined, 'not kept outside error');
    assert.is((await h.store.updateTask('t1', { status: 'error', outcome: 'error' })).outcome, 'error');
    assert.is((await h.store.updateTask('t1', { outcome: null })).outcome, undefined, 'null clears it');
    const refused = await rejection(h.store.updateTask('t1', { status: 'error', outcome: 'done' as never }));
    assert.is(refused.code, 'BAD_REQUEST');
    assert.is((await h.store.getTask('t1'))?.status, 'error', 'a refused patch changes nothing');
  });
}
