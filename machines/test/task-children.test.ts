// taskMachine and its children: one action in flight in the task's one action actor, takeover
// during an action, STOP canceling what runs, page preparations run by the task actor itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InspectionEvent, createActor, SimulatedClock } from 'xstate';
import { taskMachine } from '../task.machine.ts';
import type { TaskMessage } from '../task-types.ts';
import { actionInFlightOf, canDispatchAction, taskStatusOf } from '../task-queries.ts';
import { actionMachine } from '../action.machine.ts';
import { createDeferredActors, settle } from './util.ts';

const msg = (id: string): TaskMessage => ({ id, content: `message ${id}` });
/** The task's action actor has no action in flight. */
const idleActionActor = (actor: { getSnapshot(): { children: Record<string, any> } }) =>
  actor.getSnapshot().children.action?.getSnapshot().context.current === null;

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
  /** The preparations the task actor ran (its provided `preparePage`), by id. */
  const prepsAsked: string[] = [];
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
      preparePage: (_, params) => void prepsAsked.push(params.prepId),
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
      (c: any) => c?.getSnapshot().context?.current?.actionId === id || c?.getSnapshot().context?.prepId === id,
    ) as { id: string; send(e: unknown): void; getSnapshot(): { value: unknown } } | undefined;
  /** The plugin acks and answers the action in flight (its frame was written when it started). */
  const answer = async (actionId: string) => {
    assert.equal(frames.at(-1), [actionId, 1], `the frame of ${actionId} was written`);
    child(actionId)!.send({ type: 'ACK' });
    child(actionId)!.send({ type: 'RESULT', status: 'success', result: { clicked: true } });
    await settle();
  };
  const status = () => taskStatusOf(actor.getSnapshot());
  /** The outcome of the page preparation `prepId`, as the runtime reports it. */
  const prepDone = (prepId: string) =>
    actor.send({ type: 'PAGE_PREP_DONE', prepId, output: { status: 'ok', warnings: [], missing: [] } });
  return { actor, clock, turn, frames, settled, canceled, preps, prepsAsked, prepDone, request, child, answer, status };
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
  assert.is(t.child('a1'), undefined, 'a settled action is gone from the action actor');
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
    assert.equal(Object.keys(t.actor.getSnapshot().children), ['action'], 'no child left but the action actor');
    assert.is(idleActionActor(t.actor), true, 'nothing in flight');
    t.request('a3');
    assert.equal(
      t.settled.at(-1),
      { actionId: 'a3', status: 'canceled', code: 'TASK_STOPPED' },
      'a request after the stop is refused at once',
    );
    assert.equal(Object.keys(t.actor.getSnapshot().children), ['action']);
    assert.is(idleActionActor(t.actor), true);
    t.clock.increment(60_000);
    assert.equal(t.frames, [['a1', 1]], 'no late dispatch: only the frame written before STOP');
  },
);

gating('a page preparation runs in the task actor (no child); its outcome is reported; STOP cancels it', async () => {
  const t = tree();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: 'prep-0', input: { taskId: 'task-1', tabId: 3 } });
  assert.equal(t.prepsAsked, ['prep-0'], 'the task actor runs it');
  assert.equal(Object.keys(t.actor.getSnapshot().children), ['turn'], 'no child actor for it');
  assert.equal(t.actor.getSnapshot().context.pagePreps, [{ prepId: 'prep-0' }]);
  t.prepDone('prep-0');
  assert.equal(t.preps, [{ prepId: 'prep-0', status: 'ok' }], 'its outcome, reported once');
  t.prepDone('prep-0');
  assert.is(t.preps.length, 1, 'a second outcome of the same prep is ignored');
  t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: 'prep-1', input: { taskId: 'task-1', tabId: 3 } });
  t.actor.send({ type: 'STOP' });
  assert.equal(t.preps.at(-1), { prepId: 'prep-1', status: 'failed' }, 'canceled by STOP');
  assert.equal(t.actor.getSnapshot().context.pagePreps, []);
  t.prepDone('prep-1');
  assert.is(t.preps.length, 2, 'the outcome that comes after the cancel is ignored');
  t.actor.send({ type: 'PAGE_PREP_REQUESTED', prepId: 'prep-2', input: { taskId: 'task-1', tabId: 3 } });
  assert.equal(t.preps.at(-1), { prepId: 'prep-2', status: 'failed' }, 'refused without a turn');
  assert.equal(t.prepsAsked, ['prep-0', 'prep-1'], 'prep-2 never ran');
});

gating(
  'children run in fixed slots: the event types the task handles do not grow with the actions it runs',
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
      t.prepDone(`p-${round}-a`);
      t.prepDone(`p-${round}-b`);
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

gating(
  'an action actor that fails (its sendFrame throws) fails the action in flight; the queued and later actions get a new one',
  async () => {
    let sends = 0;
    const settled: string[] = [];
    const machine = taskMachine.provide({
      actors: {
        runTurn: createDeferredActors().logic(),
        runAction: actionMachine.provide({
          actions: {
            sendFrame: () => {
              if (sends++ === 0) throw new Error('boom');
            },
          },
        }),
      },
      actions: {
        actionSettled: (_, p) => void settled.push(`${p.actionId}:${p.output.status}:${p.output.error?.code ?? ''}`),
      },
    });
    const actor = createActor(machine, { clock: new SimulatedClock(), input: { taskId: 'task-1' } }).start();
    actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    const action = (actionId: string) => ({
      actionId,
      actionName: 'browser_click',
      params: { tabId: 1 },
      taskId: 'task-1',
      clientId: 'p',
    });
    // a1 fails with the actor; a2, queued behind it, starts in a new action actor.
    actor.send({ type: 'ACTION_REQUESTED', action: action('a1') });
    actor.send({ type: 'ACTION_REQUESTED', action: action('a2') });
    await settle();
    assert.equal(settled, ['a1:failed:INTERNAL']);
    const child = () => actor.getSnapshot().children.action as any;
    assert.is(child()?.getSnapshot().status, 'active');
    assert.is(child()?.getSnapshot().context.current?.actionId, 'a2', 'a2 runs in a new action actor');
    child().send({ type: 'RESULT', status: 'success' });
    actor.send({ type: 'ACTION_REQUESTED', action: action('a3') });
    assert.is(child()?.getSnapshot().context.current?.actionId, 'a3', 'and so does the next one');
    child().send({ type: 'RESULT', status: 'success' });
    assert.equal(settled, ['a1:failed:INTERNAL', 'a2:succeeded:', 'a3:succeeded:']);
  },
);

gating.run();
