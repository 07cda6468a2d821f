// taskMachine behaviour: turns and the message queue, takeover (turn paused, not
// canceled), one action in flight, takeover during an action, stop/error, status
// reporting, pure steps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InspectionEvent, createActor, initialTransition, SimulatedClock, transition } from 'xstate';
import { taskMachine } from '../task.machine.ts';
import { taskOutputOf } from '../task-outputs.ts';
import type { TaskMessage, TurnInput } from '../task-types.ts';
import { actionInFlightOf, canDispatchAction, taskStatusOf } from '../task-queries.ts';
import { actionMachine, type ActionOutput } from '../action.machine.ts';
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
  assert.equal(t.actor.getSnapshot().value, { running: 'takeover' });
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
  assert.equal(t.actor.getSnapshot().value, { ongoing: 'takeover' });
  t.actor.send({ type: 'RESUME' });
  assert.equal(t.actor.getSnapshot().value, { ongoing: 'idle' });
  assert.equal(t.statuses, ['created', 'running', 'ongoing', 'takeover', 'ongoing']);
});

takeover(
  'a turn ending during takeover stays in takeover; a message then starts a turn still in takeover',
  async () => {
    const t = start();
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    t.actor.send({ type: 'TAKEOVER' });
    await t.finishTurn();
    assert.equal(t.actor.getSnapshot().value, { ongoing: 'takeover' });
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m2') });
    assert.equal(t.actor.getSnapshot().value, { running: 'takeover' });
    assert.equal(t.turns(), ['m1', 'm2']);
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m3') });
    await t.finishTurn();
    assert.equal(t.actor.getSnapshot().value, { running: 'takeover' }, 'the queued turn also starts in takeover');
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

const gating = suite('taskMachine: actions and page preparations as children');

/** A task whose actions are real actionMachine children writing to a recorded transport; the turn is deferred. */
function tree(inspect?: (event: InspectionEvent) => void) {
  const clock = new SimulatedClock();
  const turn = createDeferredActors();
  /** Frames the children wrote, as [actionId, attempt]. */
  const frames: Array<[string, number]> = [];
  const settled: Array<{ actionId: string; status: string; code?: string }> = [];
  const canceled: string[] = [];
  const preps: Array<{ prepId: string; status: string }> = [];
  const machine = taskMachine.provide({
    actors: {
      runTurn: turn.logic(),
      runAction: actionMachine.provide({
        actions: {
          sendFrame: (_, frame) => void frames.push([frame.actionId, frame.attempt]),
          cancelOnPlugin: (_, params) => void canceled.push(params.actionId),
        },
      }),
    },
    actions: {
      actionSettled: (_, params) =>
        void settled.push({
          actionId: params.actionId,
          status: params.output.status,
          ...(params.output.error ? { code: params.output.error.code } : {}),
        }),
      pagePrepSettled: (_, params) => void preps.push({ prepId: params.prepId, status: params.output.status }),
    },
  });
  const actor = createActor(machine, { clock, input: { taskId: 'task-1' }, ...(inspect ? { inspect } : {}) }).start();
  const request = (actionId: string) =>
    actor.send({
      type: 'ACTION_REQUESTED',
      action: { actionId, actionName: 'browser_click', params: { tabId: 1 }, taskId: 'task-1', clientId: 'p' },
    });
  /** The child running action or page preparation `id` (children run in reused slots, see task.machine.ts). */
  const child = (id: string) =>
    Object.values(actor.getSnapshot().children).find(
      (c: any) => c?.getSnapshot().context?.actionId === id || c?.getSnapshot().context?.prepId === id,
    ) as { id: string; send(e: unknown): void; getSnapshot(): { value: unknown } } | undefined;
  /** The plugin acks and answers the action in flight (its frame was written when it started). */
  const answer = async (actionId: string) => {
    assert.equal(frames.at(-1), [actionId, 1], `the frame of ${actionId} was written`);
    child(actionId)!.send({ type: 'ACK' });
    child(actionId)!.send({ type: 'RESULT', status: 'success', result: { clicked: true } });
    await settle();
  };
  const status = () => taskStatusOf(actor.getSnapshot());
  return { actor, clock, turn, frames, settled, canceled, preps, request, child, answer, status };
}

gating('one action in flight as a child of the task; the next one starts when it settles', async () => {
  const t = tree();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.request('a1');
  t.request('a2');
  assert.ok(t.child('a1'), 'a1 runs as a child of the task actor');
  assert.is(t.child('a2'), undefined, 'a2 waits');
  assert.equal(t.frames, [['a1', 1]], 'only a1 is written to the plugin');
  assert.equal(
    t.actor.getSnapshot().context.pendingActions.map((a) => a.actionId),
    ['a2'],
  );
  assert.is(actionInFlightOf(t.actor.getSnapshot()), 'a1');
  await t.answer('a1');
  assert.equal(t.settled, [{ actionId: 'a1', status: 'succeeded' }]);
  assert.is(t.child('a1'), undefined, 'a settled child is gone');
  assert.ok(t.child('a2'), 'a2 started');
  await t.answer('a2');
  assert.equal(
    t.settled.map((s) => s.actionId),
    ['a1', 'a2'],
  );
  assert.is(canDispatchAction(t.actor.getSnapshot()), true);
});

gating('takeover during an action: it finishes, the next waits for RESUME', async () => {
  const t = tree();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.request('a1');
  t.actor.send({ type: 'TAKEOVER' });
  t.request('a2');
  await t.answer('a1');
  assert.equal(
    t.settled.map((s) => s.actionId),
    ['a1'],
    'the in-flight action finished during takeover',
  );
  assert.is(t.child('a2'), undefined, 'nothing new during takeover');
  t.actor.send({ type: 'RESUME' });
  assert.ok(t.child('a2'), 'RESUME starts the queued action');
});

gating(
  'STOP cancels what is in flight: the child tells the plugin and settles canceled; queued ones settle unsent; no late dispatch',
  async () => {
    const t = tree();
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    t.request('a1');
    t.request('a2');
    t.actor.send({ type: 'STOP' });
    await settle();
    assert.is(t.status(), 'completed');
    assert.equal(t.canceled, ['a1'], 'the plugin is told about the action it had');
    assert.equal(t.settled, [
      { actionId: 'a2', status: 'canceled', code: 'TASK_STOPPED' },
      { actionId: 'a1', status: 'canceled', code: 'TASK_STOPPED' },
    ]);
    assert.equal(Object.keys(t.actor.getSnapshot().children), [], 'no child left');
    t.request('a3');
    assert.equal(
      t.settled.at(-1),
      { actionId: 'a3', status: 'canceled', code: 'TASK_STOPPED' },
      'a request after the stop is refused at once',
    );
    assert.equal(Object.keys(t.actor.getSnapshot().children), []);
    t.clock.increment(60_000);
    assert.equal(t.frames, [['a1', 1]], 'no late dispatch: only the frame written before STOP');
  },
);

gating('a page preparation runs as a child of the task; its outcome is reported; STOP cancels it', async () => {
  const t = tree();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: 'prep-1', input: { taskId: 'task-1', tabId: 3 } });
  assert.ok(t.child('prep-1'), 'prep-1 is a child of the task actor');
  t.actor.send({ type: 'STOP' });
  assert.equal(t.preps, [{ prepId: 'prep-1', status: 'failed' }]);
  assert.is(t.child('prep-1'), undefined);
  t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: 'prep-2', input: { taskId: 'task-1', tabId: 3 } });
  assert.equal(t.preps.at(-1), { prepId: 'prep-2', status: 'failed' }, 'refused without a turn');
});

gating(
  'children run in reused slots: the event types the task handles do not grow with the actions it runs',
  async () => {
    // XState memoises each state node's transition lookup per event type for the life of the
    // machine definition: a child id per action would add `xstate.done.actor.<id>` types (and
    // cache entries) without bound.
    const seen = new Set<string>();
    let root: unknown;
    const t = tree((e) => {
      if (e.type === '@xstate.event' && e.actorRef === root) seen.add(e.event.type);
    });
    root = t.actor;
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    const typesAfter: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 20; i++) {
        const id = `a-${round}-${i}`;
        t.request(id);
        assert.is(t.child(id)?.id, 'action');
        await t.answer(id);
      }
      t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: `p-${round}-a`, input: { taskId: 'task-1', tabId: 3 } });
      t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: `p-${round}-b`, input: { taskId: 'task-1', tabId: 3 } });
      assert.equal(
        [t.child(`p-${round}-a`)?.id, t.child(`p-${round}-b`)?.id],
        ['pagePrep0', 'pagePrep1'],
        'the lowest free slots',
      );
      await settle();
      await settle();
      assert.equal(
        t.preps.slice(-2).map((p) => p.prepId),
        [`p-${round}-a`, `p-${round}-b`],
        'each outcome under its own prep id',
      );
      typesAfter.push(seen.size);
    }
    assert.is(t.settled.length, 60);
    assert.ok(t.settled.every((s) => s.status === 'succeeded'));
    assert.is(typesAfter[0], typesAfter[2], `event types: ${[...seen].join(', ')}`);
    assert.ok(
      [...seen].every((type) => !/a-\d|p-\d/.test(type)),
      [...seen].join(', '),
    );
  },
);

gating.run();

const pure = suite('taskMachine pure steps');

pure('initialTransition reports created; USER_MESSAGE invokes runTurn with the message', () => {
  const [s0, a0] = initialTransition(taskMachine, { taskId: 'task-9' });
  assert.equal(s0.value, 'created');
  assert.equal(
    a0.filter((a) => a.type === 'notifyStatus').map((a) => a.params),
    [{ taskId: 'task-9', status: 'created' }],
  );
  const [s1, a1] = transition(taskMachine, s0, { type: 'USER_MESSAGE', message: msg('m1') });
  assert.equal(s1.value, { running: 'active' });
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
  assert.equal(s2.value, { running: 'takeover' });
  assert.is(s2.children.turn, s1.children.turn);
  assert.not.ok(a2.some((a) => (a.type as string) === 'xstate.stopChild'));
});

pure.run();
