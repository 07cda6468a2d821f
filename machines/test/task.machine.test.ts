// taskMachine behaviour: turns and the message queue, takeover (turn paused, not canceled),
// stop/error, status reporting, pure steps (its actions and page preparations are in
// task-children.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, initialTransition, transition } from 'xstate';
import { taskMachine } from '../task.machine.ts';
import { taskOutputOf } from '../task-outputs.ts';
import type { TaskMessage, TurnInput } from '../task-types.ts';
import { actionInFlightOf, canDispatchAction, taskStatusOf } from '../task-queries.ts';
import type { ActionOutput } from '../action.machine.ts';
import { createDeferredActors, settle } from './util.ts';

const msg = (id: string): TaskMessage => ({ id, content: `message ${id}` });

function start() {
  const deferred = createDeferredActors();
  const statuses: string[] = [];
  const persisted: string[] = [];
  const machine = taskMachine.provide({
    actors: { runTurn: deferred.logic() },
    actions: {
      notifyStatus: (_, params) => void statuses.push(params.status),
      persistStatus: (_, params) => void persisted.push(`${params.taskId}:${params.status}`),
    },
  });
  const actor = createActor(machine, { input: { taskId: 'task-1' } }).start();
  const turns = () => deferred.calls.filter((c) => c.id === 'turn').map((c) => (c.input as TurnInput).message.id);
  const finishTurn = async (output: unknown = {}) => {
    deferred.resolve('turn', output);
    await settle();
  };
  const status = () => taskStatusOf(actor.getSnapshot());
  return { actor, deferred, statuses, persisted, turns, finishTurn, status };
}

const turns = suite('taskMachine turns and queue');

turns('created -> running -> ongoing -> running: one turn per message', async () => {
  const t = start();
  assert.is(t.status(), 'created');
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  assert.is(t.status(), 'running');
  assert.equal(t.deferred.calls[0]?.input, { taskId: 'task-1', message: msg('m1') });
  await t.finishTurn();
  assert.is(t.status(), 'ongoing');
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
  assert.is(t.status(), 'running');
  assert.equal(t.turns(), ['m1', 'm2']);
  assert.is(t.actor.getSnapshot().context.turns, 2);
});

turns('messages arriving while running are queued, not dropped, and run in order', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m3') });
  assert.equal(t.actor.getSnapshot().context.queue, [msg('m2'), msg('m3')]);
  assert.equal(t.turns(), ['m1']);
  await t.finishTurn();
  assert.is(t.status(), 'running');
  assert.equal(t.turns(), ['m1', 'm2']);
  await t.finishTurn();
  assert.equal(t.turns(), ['m1', 'm2', 'm3']);
  assert.equal(t.actor.getSnapshot().context.queue, []);
  await t.finishTurn();
  assert.is(t.status(), 'ongoing');
  assert.equal(t.statuses, ['created', 'running', 'ongoing'], 'one status report per change');
  assert.equal(t.persisted, ['task-1:created', 'task-1:running', 'task-1:ongoing']);
});

turns('STOP completes the task from any live state, aborts the turn and keeps unprocessed messages', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
  t.actor.send({ type: 'STOP' });
  await settle();
  assert.is(t.status(), 'completed');
  assert.equal(t.deferred.aborted, ['turn']);
  assert.equal(taskOutputOf(t.actor.getSnapshot())!, {
    taskId: 'task-1',
    status: 'completed',
    unprocessed: [msg('m2')],
  });
  const c = start();
  c.actor.send({ type: 'STOP' });
  assert.is(c.status(), 'completed');
});

turns('a failing turn puts the task in error with the seed code it carried', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.deferred.reject('turn', { code: 'PAGE_PREP_FAILED', message: 'screenshot/readability failed', retryable: true });
  await settle();
  assert.is(t.status(), 'error');
  assert.equal(taskOutputOf(t.actor.getSnapshot())!.error, {
    code: 'PAGE_PREP_FAILED',
    message: 'screenshot/readability failed',
    retryable: true,
  });
});

turns('a message queued behind a failing turn still runs: error is reported, then its turn starts', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
  t.deferred.reject('turn', { code: 'PLUGIN_OFFLINE', message: 'the extension went offline', retryable: true });
  await settle();
  assert.is(t.status(), 'running');
  assert.equal(t.turns(), ['m1', 'm2']);
  assert.equal(t.statuses, ['created', 'running', 'error', 'running']);
  assert.is(t.actor.getSnapshot().context.error, null);
  await t.finishTurn();
  assert.is(t.status(), 'ongoing');
});

turns('a turn that throws a plain Error becomes INTERNAL; FAIL carries its own code', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.deferred.reject('turn', new Error('boom'));
  await settle();
  assert.equal(t.actor.getSnapshot().context.error, { code: 'INTERNAL', message: 'boom' });
  const f = start();
  f.actor.send({ type: 'FAIL', error: { code: 'PLUGIN_OFFLINE', message: 'connect the extension', retryable: true } });
  assert.is(f.status(), 'error');
  assert.is(taskOutputOf(f.actor.getSnapshot())!.error?.code, 'PLUGIN_OFFLINE');
  assert.equal(f.statuses, ['created', 'error']);
});

turns(
  'a follow-up message on a completed or failed task reopens the same actor: running, no second created',
  async () => {
    const t = start();
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    t.actor.send({ type: 'STOP' });
    await settle();
    assert.is(t.status(), 'completed');
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
    assert.is(t.status(), 'running');
    assert.equal(t.turns(), ['m1', 'm2']);
    t.deferred.reject('turn', { code: 'PAGE_PREP_FAILED', message: 'both failed', retryable: true });
    await settle();
    assert.is(t.status(), 'error');
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m3') });
    assert.is(t.status(), 'running');
    assert.is(t.actor.getSnapshot().context.error, null, 'the old error is cleared');
    assert.equal(t.statuses, ['created', 'running', 'completed', 'running', 'error', 'running']);
  },
);

turns.run();

const takeover = suite('taskMachine takeover');

takeover('takeover pauses the turn (not canceled) and RESUME returns to running', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.actor.send({ type: 'TAKEOVER', reason: 'keyboard' });
  await settle();
  assert.is(t.status(), 'takeover');
  assert.equal(t.actor.getSnapshot().value.status, { running: 'takeover' });
  assert.equal(t.deferred.aborted, [], 'the turn keeps running');
  assert.ok(t.deferred.isPending('turn'));
  assert.is(canDispatchAction(t.actor.getSnapshot()), false);
  t.actor.send({ type: 'RESUME' });
  assert.is(t.status(), 'running');
  assert.is(canDispatchAction(t.actor.getSnapshot()), true);
  assert.equal(t.statuses, ['created', 'running', 'takeover', 'running']);
});

takeover('takeover from ongoing, and back', async () => {
  const t = start();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  await t.finishTurn();
  t.actor.send({ type: 'TAKEOVER' });
  assert.equal(t.actor.getSnapshot().value.status, { ongoing: 'takeover' });
  t.actor.send({ type: 'RESUME' });
  assert.equal(t.actor.getSnapshot().value.status, { ongoing: 'idle' });
  assert.equal(t.statuses, ['created', 'running', 'ongoing', 'takeover', 'ongoing']);
});

takeover(
  'a turn ending during takeover stays in takeover; a message then starts a turn still in takeover',
  async () => {
    const t = start();
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    t.actor.send({ type: 'TAKEOVER' });
    await t.finishTurn();
    assert.equal(t.actor.getSnapshot().value.status, { ongoing: 'takeover' });
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
    assert.equal(t.actor.getSnapshot().value.status, { running: 'takeover' });
    assert.equal(t.turns(), ['m1', 'm2']);
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m3') });
    await t.finishTurn();
    assert.equal(
      t.actor.getSnapshot().value.status,
      { running: 'takeover' },
      'the queued turn also starts in takeover',
    );
    assert.equal(t.turns(), ['m1', 'm2', 'm3']);
    assert.equal(t.statuses, ['created', 'running', 'takeover'], 'no duplicate takeover reports');
  },
);

takeover('TAKEOVER is ignored before the task runs', () => {
  const t = start();
  t.actor.send({ type: 'TAKEOVER' });
  assert.is(t.status(), 'created');
});

takeover.run();

const pure = suite('taskMachine pure steps');

pure('initialTransition reports created; USER_MESSAGE invokes runTurn with the message', () => {
  const [s0, a0] = initialTransition(taskMachine, { taskId: 'task-9' });
  assert.equal(s0.value, { status: 'created', action: 'idle', pluginUi: 'hidden' });
  assert.equal(
    a0.filter((a) => a.type === 'notifyStatus').map((a) => a.params),
    [{ taskId: 'task-9', status: 'created' }],
  );
  const [s1, a1] = transition(taskMachine, s0, { type: 'USER_MESSAGE', message: msg('m1') });
  assert.equal(s1.value, { status: { running: 'active' }, action: 'idle', pluginUi: 'hidden' });
  const spawn = a1.find((a) => a.type === 'xstate.spawnChild');
  assert.equal((spawn?.params as { input?: unknown }).input, { taskId: 'task-9', message: msg('m1') });
  assert.equal(
    a1.filter((a) => a.type === 'persistStatus').map((a) => a.params),
    [{ taskId: 'task-9', status: 'running' }],
  );
});

pure('takeover is a substate, the turn child survives it', () => {
  const [s0] = initialTransition(taskMachine, { taskId: 'task-9' });
  const [s1] = transition(taskMachine, s0, { type: 'USER_MESSAGE', message: msg('m1') });
  const [s2, a2] = transition(taskMachine, s1, { type: 'TAKEOVER' });
  assert.equal(s2.value, { status: { running: 'takeover' }, action: 'idle', pluginUi: 'takeover' });
  assert.is(s2.children.turn, s1.children.turn);
  assert.not.ok(a2.some((a) => (a.type as string) === 'xstate.stopChild'));
});

pure.run();
