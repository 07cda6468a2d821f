// taskMachine and its work: one action in flight in the task's `action` region, takeover during
// an action, STOP canceling what runs, page preparations run by the task actor itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InspectionEvent, createActor, SimulatedClock } from 'xstate';
import { taskMachine } from '../task.machine.ts';
import type { TaskMessage } from '../task-types.ts';
import { actionInFlightOf, actionStateOf, canDispatchAction, pluginUiOf, taskStatusOf } from '../task-queries.ts';
import { createDeferredActors, settle } from './util.ts';

const msg = (id: string): TaskMessage => ({ id, content: `message ${id}` });
/** The task's action region has no action in flight. */
const idleActionSlot = (actor: { getSnapshot(): { context: { current: unknown }; value: unknown } }) =>
  actor.getSnapshot().context.current === null && actionStateOf(actor.getSnapshot()) === 'idle';

const gating = suite('taskMachine: actions (its action region) and page preparations');

/** A task whose actions write to a recorded transport; the turn is deferred. */
function tree(inspect?: (event: InspectionEvent) => void) {
  const clock = new SimulatedClock();
  const turn = createDeferredActors();
  /** Frames the children wrote, as [actionId, attempt]. */
  const frames: Array<[string, number]> = [];
  const settled: Array<{ actionId: string; status: string; code?: string }> = [];
  const canceled: Array<{ actionId: string; closeTab: boolean }> = [];
  const preps: Array<{ prepId: string; status: string }> = [];
  /** The preparations the task actor ran (its provided `preparePage`), by id. */
  const prepsAsked: string[] = [];
  const machine = taskMachine.provide({
    actors: { runTurn: turn.logic() },
    actions: {
      sendFrame: (_, frame) => void frames.push([frame.actionId, frame.attempt]),
      cancelOnPlugin: (_, params) => void canceled.push({ actionId: params.actionId, closeTab: params.closeTab }),
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
  /** The action in flight, if it is `id` (the task actor runs it in its action region). */
  const running = (id: string) => actor.getSnapshot().context.current?.actionId === id;
  /** The plugin acks and answers the action in flight (its frame was written when it started). */
  const answer = async (actionId: string) => {
    assert.equal(frames.at(-1), [actionId, 1], `the frame of ${actionId} was written`);
    actor.send({ type: 'ACK', actionId });
    actor.send({ type: 'RESULT', actionId, status: 'success', result: { clicked: true } });
    await settle();
  };
  const status = () => taskStatusOf(actor.getSnapshot());
  /** The outcome of the page preparation `prepId`, as the runtime reports it. */
  const prepDone = (prepId: string) =>
    actor.send({ type: 'PAGE_PREP_DONE', prepId, output: { status: 'ok', warnings: [], missing: [] } });
  return {
    actor,
    clock,
    turn,
    frames,
    settled,
    canceled,
    preps,
    prepsAsked,
    prepDone,
    request,
    running,
    answer,
    status,
  };
}

gating('one action in flight in the task actor itself; the next one starts when it settles', async () => {
  const t = tree();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.request('a1');
  t.request('a2');
  assert.ok(t.running('a1'), 'a1 runs in the task actor');
  assert.is(actionStateOf(t.actor.getSnapshot()), 'awaitingAck');
  assert.equal(Object.keys(t.actor.getSnapshot().children), ['turn'], 'no actor of its own');
  assert.not.ok(t.running('a2'), 'a2 waits');
  assert.equal(t.frames, [['a1', 1]], 'only a1 is written to the plugin');
  assert.equal(
    t.actor.getSnapshot().context.pendingActions.map((a) => a.actionId),
    ['a2'],
  );
  assert.is(actionInFlightOf(t.actor.getSnapshot()), 'a1');
  await t.answer('a1');
  assert.equal(t.settled, [{ actionId: 'a1', status: 'succeeded' }]);
  assert.not.ok(t.running('a1'), 'a settled action is gone from the slot');
  assert.ok(t.running('a2'), 'a2 started');
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
  assert.not.ok(t.running('a2'), 'nothing new during takeover');
  t.actor.send({ type: 'RESUME' });
  assert.ok(t.running('a2'), 'RESUME starts the queued action');
});

gating(
  'STOP cancels what is in flight: the plugin is told (its tab closes) and it settles canceled; queued ones settle unsent; no late dispatch',
  async () => {
    const t = tree();
    t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
    t.request('a1');
    t.request('a2');
    t.actor.send({ type: 'STOP' });
    await settle();
    assert.is(t.status(), 'completed');
    assert.equal(t.canceled, [{ actionId: 'a1', closeTab: true }], 'the plugin is told about the action it had');
    assert.equal(t.settled, [
      { actionId: 'a2', status: 'canceled', code: 'TASK_STOPPED' },
      { actionId: 'a1', status: 'canceled', code: 'TASK_STOPPED' },
    ]);
    assert.equal(Object.keys(t.actor.getSnapshot().children), [], 'no child left');
    assert.is(idleActionSlot(t.actor), true, 'nothing in flight');
    assert.is(pluginUiOf(t.actor.getSnapshot()), 'idle');
    t.request('a3');
    assert.equal(
      t.settled.at(-1),
      { actionId: 'a3', status: 'canceled', code: 'TASK_STOPPED' },
      'a request after the stop is refused at once',
    );
    assert.is(idleActionSlot(t.actor), true);
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
        assert.ok(t.running(id));
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

gating('a frame that cannot be written fails the action in flight; the queued one starts next', async () => {
  const settled: string[] = [];
  const machine = taskMachine.provide({
    actors: { runTurn: createDeferredActors().logic() },
    actions: {
      sendFrame: ({ self }, frame) => {
        if (frame.actionId === 'a1') self.send({ type: 'DISPATCH_FAILED', actionId: 'a1', error: 'no socket' });
      },
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
  actor.send({ type: 'ACTION_REQUESTED', action: action('a1') });
  actor.send({ type: 'ACTION_REQUESTED', action: action('a2') });
  await settle();
  assert.equal(settled, ['a1:failed:PLUGIN_OFFLINE']);
  assert.is(actor.getSnapshot().context.current?.actionId, 'a2', 'a2 runs next');
  actor.send({ type: 'RESULT', actionId: 'a2', status: 'success' });
  assert.equal(settled, ['a1:failed:PLUGIN_OFFLINE', 'a2:succeeded:']);
  assert.equal(pluginUiOf(actor.getSnapshot()), 'hidden');
});

gating('deadlines run on the injected clock: a missed ack fails the action (T_ack), with no resend', async () => {
  const t = tree();
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  t.request('a1');
  t.clock.increment(60_000);
  assert.equal(t.settled, [{ actionId: 'a1', status: 'failed', code: 'PLUGIN_TIMEOUT_ACK' }]);
  assert.equal(t.frames, [['a1', 1]], 'no resend after a missed ack');
  assert.is(idleActionSlot(t.actor), true);
});

gating(
  'a task that fails (or an MCP cancel: STOP closeTab false) cancels the action in flight without closing its tab',
  () => {
    for (const end of [
      { type: 'FAIL', error: { code: 'PLUGIN_OFFLINE', message: 'gone' } },
      { type: 'STOP', closeTab: false },
    ] as const) {
      const t = tree();
      t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
      t.request('a1');
      t.actor.send(end);
      assert.equal(t.canceled, [{ actionId: 'a1', closeTab: false }], end.type);
      assert.equal(t.settled, [{ actionId: 'a1', status: 'canceled', code: 'TASK_STOPPED' }]);
      t.actor.send({ type: 'RESULT', actionId: 'a1', status: 'success' });
      assert.is(t.settled.length, 1, 'a late result is ignored');
    }
  },
);

gating('one browser action costs the task actor 11 inspection events: ACTION_REQUESTED, ACK, RESULT', async () => {
  const counted: string[] = [];
  let root: unknown;
  const t = tree((e) => {
    if (e.actorRef === root) counted.push(e.type);
  });
  root = t.actor;
  t.actor.send({ type: 'USER_MESSAGE', message: msg('m1') });
  counted.length = 0;
  t.request('a1');
  assert.is(pluginUiOf(t.actor.getSnapshot()), 'ongoing', 'the overlay mirror follows in the same step');
  await t.answer('a1');
  assert.is(pluginUiOf(t.actor.getSnapshot()), 'hidden');
  // Each event: @xstate.event, one @xstate.microstep, @xstate.snapshot; plus the two effects
  // (sendFrame, actionSettled) as @xstate.action.
  assert.equal(counted.length, 11, counted.join(', '));
});

gating.run();
