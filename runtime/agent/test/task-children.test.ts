// The order task-children tells the turn's actions in (no sockets, no actors): an action's start
// waits until every earlier settle has been reported, and a settle waits for its own start.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ActionInput, ActionOutput } from '../../../machines/index.ts';
import { createActionRegistry } from '../../scheduler/action-registry.ts';
import { createTaskChildren } from '../task-children.ts';

const input = (actionId: string) => ({ actionId, actionName: 'browser_screenshot' }) as unknown as ActionInput;
const output = (actionId: string): ActionOutput => ({
  actionId,
  actionName: 'browser_screenshot',
  status: 'succeeded',
  attempts: 1,
  execTimeoutStreak: 0,
  answered: true,
});
const ticks = async (n = 3) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

function setup() {
  const told: string[] = [];
  const registry = createActionRegistry();
  // Each action's actor started at 0; settles are at 5 (its duration).
  const children = createTaskChildren({ send: () => {}, registry, now: () => 5 });
  /** What the turn does with an action: its start is told, its settle reported once `report` is called. */
  const run = (actionId: string) => {
    const promise = children.runAction(input(actionId), () => told.push(`${actionId} start`));
    registry.get(actionId)!.startedAt = 0;
    const settled = promise.then((out) => {
      told.push(`${actionId} ${out.status}`);
      return out;
    });
    return { settled, report: () => children.reported(actionId) };
  };
  return { told, children, run, registry };
}

const test = suite('task children: the order of starts and settles');

test('a start with nothing unreported is told at once', () => {
  const { told, children, run } = setup();
  run('a');
  children.provided.actionStarted(undefined, { actionId: 'a' });
  assert.equal(told, ['a start']);
});

test('the next start waits until the previous settle is reported, however long that takes', async () => {
  const { told, children, run } = setup();
  const a = run('a');
  run('b');
  children.provided.actionStarted(undefined, { actionId: 'a' });
  children.provided.actionSettled(undefined, { actionId: 'a', output: output('a') });
  children.provided.actionStarted(undefined, { actionId: 'b' });
  await a.settled;
  await ticks(10);
  assert.equal(told, ['a start', 'a succeeded'], 'b is not told while a is unreported');
  a.report();
  assert.equal(told, ['a start', 'a succeeded', 'b start']);
});

test('an action that settles while its start still waits is settled only after its start', async () => {
  const { told, children, run } = setup();
  const a = run('a');
  const b = run('b');
  children.provided.actionStarted(undefined, { actionId: 'a' });
  children.provided.actionSettled(undefined, { actionId: 'a', output: output('a') });
  children.provided.actionStarted(undefined, { actionId: 'b' });
  children.provided.actionSettled(undefined, { actionId: 'b', output: output('b') });
  await ticks(10);
  assert.equal(told, ['a start', 'a succeeded']);
  a.report();
  await b.settled;
  assert.equal(told, ['a start', 'a succeeded', 'b start', 'b succeeded']);
  assert.is((await b.settled).durationMs, 5);
});

test('a queued action canceled unsent settles without a start and does not hold later starts once reported', async () => {
  const { told, children, run } = setup();
  const a = run('a');
  run('c');
  children.provided.actionSettled(undefined, { actionId: 'a', output: { ...output('a'), status: 'canceled' } });
  await a.settled;
  a.report();
  children.provided.actionStarted(undefined, { actionId: 'c' });
  assert.equal(told, ['a canceled', 'c start']);
});

test('nothing is left in the registry once every action settled; a direct caller (runAndReport) holds no later start', async () => {
  const { told, children, run, registry } = setup();
  const a = children.runAndReport(input('a'), () => told.push('a start'));
  const b = run('b');
  children.provided.actionStarted(undefined, { actionId: 'a' });
  children.provided.actionSettled(undefined, { actionId: 'a', output: output('a') });
  await a;
  children.provided.actionStarted(undefined, { actionId: 'b' });
  children.provided.actionSettled(undefined, { actionId: 'b', output: output('b') });
  await b.settled;
  b.report();
  assert.equal(told, ['a start', 'b start', 'b succeeded']);
  assert.is(registry.size(), 0);
});

test.run();
