// pluginUiMachine: seed 000 §2.2 alignment, user-input takeover, resume/stop, task end;
// graph-generated paths replayed live with full state and transition coverage.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, initialTransition, SimulatedClock, transition, type AnyEventObject } from 'xstate';
import { pluginUiMachine, uiStateForTask, type PluginUiEvent } from '../plugin-ui.machine.ts';
import type { TaskStatus } from '../task-types.ts';
import { exploreGraph } from './graph-explorer.ts';
import { createCoverage, createDeferredActors } from './util.ts';

const coverage = createCoverage(pluginUiMachine);
const statuses: TaskStatus[] = ['created', 'running', 'ongoing', 'takeover', 'completed', 'error'];

function start() {
  const reports: string[] = [];
  const machine = pluginUiMachine.provide({
    actions: {
      reportTakeover: (_, p) => void reports.push(`takeover:${p.taskId}`),
      reportResume: (_, p) => void reports.push(`resume:${p.taskId}`),
      reportStop: (_, p) => void reports.push(`stop:${p.taskId}`),
    },
  });
  const actor = createActor(machine, { inspect: coverage.inspect }).start();
  const send = (...events: PluginUiEvent[]) => events.forEach((e) => actor.send(e));
  return { actor, reports, send, value: () => actor.getSnapshot().value };
}

const running = (taskId = 'task-1'): PluginUiEvent => ({ type: 'TASK_STATUS', status: 'running', taskId });
const started = (actionId = 'a1'): PluginUiEvent => ({ type: 'ACTION_STARTED', actionId });
const settled = (actionId = 'a1'): PluginUiEvent => ({ type: 'ACTION_SETTLED', actionId });

const align = suite('pluginUiMachine alignment (seed 000 §2.2)');

align('uiStateForTask maps task status and action activity', () => {
  const table = statuses.map((s) => [s, uiStateForTask(s, false), uiStateForTask(s, true)]);
  assert.equal(table, [
    ['created', 'hidden', 'ongoing'],
    ['running', 'hidden', 'ongoing'],
    ['ongoing', 'hidden', 'ongoing'],
    ['takeover', 'takeover', 'takeover'],
    ['completed', 'idle', 'idle'],
    ['error', 'idle', 'idle'],
  ]);
});

align('a running task without an action is hidden; an executing action shows the overlay', () => {
  const t = start();
  assert.is(t.value(), 'idle');
  t.send(running());
  assert.is(t.value(), 'hidden');
  assert.is(t.actor.getSnapshot().context.taskId, 'task-1');
  t.send(started());
  assert.is(t.value(), 'ongoing');
  t.send(settled('other'));
  assert.is(t.value(), 'ongoing', 'another action id does not hide the overlay');
  t.send(settled());
  assert.is(t.value(), 'hidden');
});

align('the task ending returns to idle from every state', () => {
  const ends: PluginUiEvent[] = [
    { type: 'TASK_ENDED' },
    { type: 'TASK_STATUS', status: 'completed' },
    { type: 'TASK_STATUS', status: 'error' },
  ];
  const setups: PluginUiEvent[][] = [
    [running()],
    [running(), started()],
    [running(), started(), { type: 'USER_INPUT' }],
  ];
  for (const end of ends) {
    for (const setup of setups) {
      const t = start();
      t.send(...setup, end);
      assert.is(t.value(), 'idle', `${setup.map((e) => e.type).join(',')} then ${end.type}`);
      assert.equal(t.actor.getSnapshot().context, { taskId: null, actionInFlight: null });
    }
  }
});

align('a takeover decided by the server reaches the overlay', () => {
  for (const setup of [[], [running()], [running(), started()]] as PluginUiEvent[][]) {
    const t = start();
    t.send(...setup, { type: 'TASK_STATUS', status: 'takeover', taskId: 'task-1' });
    assert.is(t.value(), 'takeover');
    assert.equal(t.reports, [], 'the server already knows; nothing is reported back');
  }
});

align.run();

const user = suite('pluginUiMachine takeover by the user');

user('user input while the AI drives -> takeover, reported once', () => {
  const t = start();
  t.send(running(), started(), { type: 'USER_INPUT', kind: 'mousedown' });
  assert.is(t.value(), 'takeover');
  assert.equal(t.reports, ['takeover:task-1']);
  t.send({ type: 'USER_INPUT', kind: 'keydown' });
  assert.equal(t.reports, ['takeover:task-1']);
});

user('user input is no takeover when the AI is not driving', () => {
  const t = start();
  t.send({ type: 'USER_INPUT' });
  assert.is(t.value(), 'idle');
  t.send(running(), { type: 'USER_INPUT' });
  assert.is(t.value(), 'hidden');
  assert.equal(t.reports, []);
});

user('the in-flight action settles during takeover; RESUME then hides the overlay', () => {
  const t = start();
  t.send(running(), started(), { type: 'USER_INPUT' }, settled());
  assert.is(t.value(), 'takeover');
  t.send({ type: 'RESUME' });
  assert.is(t.value(), 'hidden');
  assert.equal(t.reports, ['takeover:task-1', 'resume:task-1']);
});

user('RESUME while an action is still executing returns to ongoing', () => {
  const t = start();
  t.send(running(), started(), { type: 'USER_INPUT' }, { type: 'RESUME' });
  assert.is(t.value(), 'ongoing');
  t.send(started('a2'), { type: 'USER_INPUT' }, settled('a2'), started('a3'), { type: 'RESUME' });
  assert.is(t.value(), 'ongoing', 'an action recorded during takeover counts');
  assert.is(t.actor.getSnapshot().context.actionInFlight, 'a3');
});

user('STOP from takeover ends the session', () => {
  const t = start();
  t.send(running(), started(), { type: 'USER_INPUT' }, { type: 'STOP' });
  assert.is(t.value(), 'idle');
  assert.equal(t.reports, ['takeover:task-1', 'stop:task-1']);
});

user('a stale TASK_STATUS "running" does not undo a local takeover', () => {
  const t = start();
  t.send(running(), started(), { type: 'USER_INPUT' }, running());
  assert.is(t.value(), 'takeover');
});

user('content script and server mirror stay aligned on the same events', () => {
  const content = start();
  const mirror = createActor(pluginUiMachine).start();
  const events: PluginUiEvent[] = [
    running(),
    started(),
    { type: 'USER_INPUT' },
    settled(),
    { type: 'RESUME' },
    started('a2'),
    settled('a2'),
    { type: 'TASK_STATUS', status: 'completed' },
  ];
  for (const e of events) {
    content.actor.send(e);
    mirror.send(e);
    assert.equal(mirror.getSnapshot().value, content.actor.getSnapshot().value, `after ${e.type}`);
  }
});

user.run();

const pure = suite('pluginUiMachine pure steps');

pure('USER_INPUT in ongoing yields takeover and the reportTakeover action', () => {
  const [s0] = initialTransition(pluginUiMachine);
  assert.equal([s0.value, s0.context.taskId], ['idle', null]);
  const [s1] = transition(pluginUiMachine, s0, running('task-3'));
  const [s2] = transition(pluginUiMachine, s1, started());
  const [s3, a3] = transition(pluginUiMachine, s2, { type: 'USER_INPUT' });
  assert.is(s3.value, 'takeover');
  assert.equal(
    a3.map((a) => [a.type, a.params]),
    [['reportTakeover', { taskId: 'task-3' }]],
  );
});

pure.run();

const paths = suite('pluginUiMachine paths (@xstate/graph, replayed live)');

paths('every generated path and one more event match the live actor; all states and transitions covered', async () => {
  const alphabet = (): AnyEventObject[] => [
    ...statuses.map((status) => ({ type: 'TASK_STATUS', status, taskId: 'task-1' })),
    started(),
    settled(),
    settled('other'),
    { type: 'USER_INPUT' },
    { type: 'RESUME' },
    { type: 'STOP' },
    { type: 'TASK_ENDED' },
  ];
  const live = () => ({ machine: pluginUiMachine, clock: new SimulatedClock(), deferred: createDeferredActors() });
  const result = await exploreGraph({
    machine: pluginUiMachine,
    input: undefined,
    events: alphabet,
    serializeState: (s) => JSON.stringify([s.value, s.context]),
    live,
    coverage,
  });
  assert.equal([...result.reachedStateIds].sort(), [
    'pluginUi',
    'pluginUi.hidden',
    'pluginUi.idle',
    'pluginUi.ongoing',
    'pluginUi.takeover',
  ]);
  assert.equal(coverage.missingStates(), []);
  assert.equal(coverage.missingTransitions(), []);
});

paths.run();
