import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { taskMachine } from '../../machines/task.machine.ts';
import { createInspectionModel } from '../src/models/inspection-model.ts';
import { activePaths, chartOf, eventLabel, formatStateValue, type ChartNode } from '../src/models/machine-chart.ts';
import { loadMachineCatalog } from '../src/models/machine-catalog.ts';
import { payload } from './util.ts';

const record = (
  r: Record<string, unknown> & { type: '@xstate.actor' | '@xstate.snapshot' | '@xstate.event'; actorId: string },
  timestamp = 1,
) => payload('inspection', { record: r, timestamp });

const find = (node: ChartNode, path: string): ChartNode | undefined =>
  node.path === path ? node : node.children.map((c) => find(c, path)).find(Boolean);

const chart = suite('machine chart from definitions');

chart('walks the task machine: parallel regions, nested states, initial states, transitions, invokes', () => {
  const root = chartOf(taskMachine);
  assert.is(root.type, 'parallel');
  assert.equal(
    root.children.map((c) => c.key),
    ['status', 'action', 'pluginUi'],
  );
  const status = find(root, 'status')!;
  assert.equal(
    status.children.map((c) => c.key),
    ['created', 'running', 'ongoing', 'completed', 'error'],
  );
  assert.is(status.initial, 'created');
  const running = find(root, 'status.running')!;
  assert.is(running.type, 'compound');
  assert.is(running.initial, 'active');
  assert.equal(running.invokes, ['turn']);
  const done = running.transitions.filter((t) => t.label === 'done: turn');
  assert.ok(done.some((t) => t.targets.includes('status.ongoing') && t.guard === undefined));
  assert.ok(done.some((t) => t.guard === 'and(hasQueuedMessage, inTakeover)'));
  const active = find(root, 'status.running.active')!;
  assert.ok(active.transitions.some((t) => t.event === 'TAKEOVER' && t.targets[0] === 'status.running.takeover'));
  // Ended, not final (issue 14): a follow-up message reopens the same task actor.
  const completed = find(root, 'status.completed')!;
  assert.is(completed.type, 'atomic');
  assert.ok(completed.transitions.some((t) => t.event === 'USER_MESSAGE' && t.targets[0] === 'status.running'));
  // The action slot and the plugin-UI mirror are regions: their states are drawn in the task's chart.
  assert.equal(
    find(root, 'action')!.children.map((c) => c.key),
    ['idle', 'awaitingAck', 'executing', 'retryWait'],
  );
  assert.equal(
    find(root, 'pluginUi')!.children.map((c) => c.key),
    ['idle', 'hidden', 'ongoing', 'takeover'],
  );
});

chart('every catalog machine charts, and delayed transitions read "after NAME"', () => {
  const catalog = loadMachineCatalog();
  assert.equal(
    catalog.map((c) => c.machineId),
    ['task', 'action', 'pagePrep', 'pluginUi'],
  );
  const pagePrep = JSON.stringify(catalog.find((c) => c.machineId === 'pagePrep')!.chart);
  assert.ok(pagePrep.includes('after SCREENSHOT_BACKOFF'), 'delays are labelled by name');
  // The action machine's waits are deadlines (DEADLINE events), not delayed transitions.
  const action = JSON.stringify(catalog.find((c) => c.machineId === 'action')!.chart);
  assert.ok(action.includes('DEADLINE') && !action.includes('after '), 'the action machine waits on deadlines');
  assert.is(eventLabel('xstate.after.500.pagePrep.x'), 'after 500 ms');
  assert.is(eventLabel(''), 'always');
});

chart('active paths of a real snapshot value match chart paths', () => {
  const pending = fromPromise<unknown, { taskId: string; message: { id: string; content: string } }>(
    () => new Promise(() => {}),
  );
  const actor = createActor(taskMachine.provide({ actors: { runTurn: pending } }), { input: { taskId: 't' } });
  actor.start();
  actor.send({ type: 'USER_MESSAGE', message: { id: 'm', content: 'x' } });
  actor.send({ type: 'TAKEOVER' });
  const value = actor.getSnapshot().value;
  actor.stop();
  const active = activePaths(value);
  assert.equal(
    [...active],
    ['status', 'status.running', 'status.running.takeover', 'action', 'action.idle', 'pluginUi', 'pluginUi.takeover'],
  );
  const root = chartOf(taskMachine);
  for (const path of active) assert.ok(find(root, path), `chart has ${path}`);
  assert.is(formatStateValue(value), 'status.running.takeover + action.idle + pluginUi.takeover');
  assert.is(formatStateValue({ a: 'x', b: { c: 'y' } }), 'a.x + b.c.y');
});

const model = suite('inspection model');

model('tracks actors, their machine and current value; lists recent events newest first', () => {
  const m = createInspectionModel();
  m.apply(
    record(
      { type: '@xstate.actor', actorId: 'task:1', machineId: 'task', snapshot: { value: 'created', status: 'active' } },
      1,
    ),
  );
  m.apply(record({ type: '@xstate.event', actorId: 'task:1', event: { type: 'USER_MESSAGE' } }, 2));
  m.apply(
    record(
      {
        type: '@xstate.snapshot',
        actorId: 'task:1',
        snapshot: { value: { running: 'active' } },
        event: { type: 'USER_MESSAGE' },
      },
      3,
    ),
  );
  const task = m.latestByMachine.value.get('task');
  assert.equal(task?.value, { running: 'active' });
  assert.is(task?.lastEventType, 'USER_MESSAGE');
  assert.equal(
    m.events.value.map((e) => `${e.kind}:${e.eventType ?? ''}`),
    ['event:USER_MESSAGE', 'actor:'],
  );
});

model('snapshots without machineId are attributed through the actor record; duplicates count once', () => {
  const m = createInspectionModel();
  const first = record(
    { type: '@xstate.actor', actorId: 'a1', machineId: 'action', snapshot: { value: 'dispatching' } },
    1,
  );
  m.apply(first);
  assert.is(m.apply(first), false);
  m.apply(record({ type: '@xstate.snapshot', actorId: 'a1', snapshot: { value: 'awaitingAck' } }, 2));
  assert.equal(m.latestByMachine.value.get('action')?.value, 'awaitingAck');
  assert.is(m.records().length, 2);
});

model('the latest actor of a machine is the one updated last', () => {
  const m = createInspectionModel();
  m.apply(
    record({ type: '@xstate.snapshot', actorId: 'a1', machineId: 'action', snapshot: { value: 'succeeded' } }, 5),
  );
  m.apply(
    record({ type: '@xstate.snapshot', actorId: 'a2', machineId: 'action', snapshot: { value: 'executing' } }, 6),
  );
  assert.is(m.latestByMachine.value.get('action')?.actorId, 'a2');
  m.apply(record({ type: '@xstate.snapshot', actorId: 'a1', machineId: 'action', snapshot: { value: 'failed' } }, 7));
  assert.is(m.latestByMachine.value.get('action')?.actorId, 'a1');
});

model('keeps at most maxEvents entries and notifies record listeners', () => {
  const m = createInspectionModel({ maxEvents: 3 });
  const seen: string[] = [];
  m.onRecord((r) => seen.push(r.actorId));
  for (let i = 0; i < 5; i++) m.apply(record({ type: '@xstate.event', actorId: `x${i}`, event: { type: `E${i}` } }, i));
  assert.equal(
    m.events.value.map((e) => e.eventType),
    ['E4', 'E3', 'E2'],
  );
  assert.is(seen.length, 5);
  m.reset();
  assert.equal([m.events.value.length, m.actors.value.length, m.records().length], [0, 0, 0]);
});

chart.run();
model.run();
