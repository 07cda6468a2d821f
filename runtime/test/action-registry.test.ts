// The one action registry (runtime/scheduler/action-registry.ts): an entry from request to settle,
// its actor only while it lives, a result after that is late (not unknown), the start envelopes
// by task, and nothing left behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyActorRef } from 'xstate';
import type { ActionOutput } from '../../machines/index.ts';
import { createActionRegistry } from '../scheduler/action-registry.ts';

const test = suite('action registry');
const actor = {} as AnyActorRef;
const output = (actionId: string): ActionOutput => ({
  actionId,
  actionName: 'browser_click',
  status: 'succeeded',
  attempts: 1,
  execTimeoutStreak: 0,
  answered: true,
});

test('request -> live actor -> ended (late from then on) -> settled once, with its duration; then gone', () => {
  const registry = createActionRegistry();
  const settled: Array<ActionOutput & { durationMs: number }> = [];
  registry.add({
    actionId: 'a1',
    taskId: 'T',
    actionName: 'browser_click',
    clientId: 'p',
    onSettled: (o) => settled.push(o),
  });
  assert.is(registry.wasFinished('a1'), false);
  assert.equal([...registry.live()], [], 'not live before its actor announces');
  const entry = registry.get('a1')!;
  entry.actor = actor;
  entry.startedAt = 100;
  assert.equal(
    [...registry.live()].map((e) => e.actionId),
    ['a1'],
  );
  registry.ended('a1');
  assert.is(registry.get('a1')?.actor, undefined, 'no actor after its end');
  assert.is(registry.wasFinished('a1'), true, 'a result now is late');
  registry.settle('a1', output('a1'), 350);
  registry.settle('a1', output('a1'), 400);
  assert.equal(
    settled.map((o) => [o.actionId, o.durationMs]),
    [['a1', 250]],
    'told once, duration from its start',
  );
  assert.is(registry.size(), 0);
});

test('start envelopes by task; an actor no one waits for leaves nothing behind; the finished ids are bounded', () => {
  const registry = createActionRegistry({ rememberFinished: 2 });
  registry.add({
    actionId: 'a1',
    taskId: 'T',
    actionName: 'x',
    clientId: 'p',
    onSettled: () => {},
    startEnvelope: { type: 'event', id: 'e1', timestamp: 1, event: { type: 'taskStatus', status: 'running' } } as never,
  });
  registry.add({ actionId: 'a2', taskId: 'U', actionName: 'x', clientId: 'p', onSettled: () => {} });
  assert.equal(
    registry.startedOf('T').map((e) => (e as { id: string }).id),
    ['e1'],
  );
  assert.equal(registry.startedOf('U'), []);
  registry.add({ actionId: 'a3', taskId: 'T', actionName: 'x', clientId: 'p', actor });
  registry.ended('a3');
  assert.is(registry.get('a3'), undefined, 'no waiter: removed at its end');
  registry.settle('a1', output('a1'), 1);
  registry.settle('a2', output('a2'), 1);
  assert.is(registry.wasFinished('a3'), false, 'the oldest finished id is forgotten past the bound');
  assert.is(registry.wasFinished('a2'), true);
});

test('page preparations: told once when settled', () => {
  const registry = createActionRegistry();
  const told: string[] = [];
  registry.addPrep('prep-1', (o) => told.push(o.status));
  registry.settlePrep('prep-1', { status: 'ok', warnings: [], missing: [] });
  registry.settlePrep('prep-1', { status: 'failed', warnings: [], missing: [] });
  assert.equal(told, ['ok']);
});

test("a retry's dispatch id (`<actionId>~2`) stands for its action while it runs and, bounded, after it ended (a late result is its action's)", () => {
  const registry = createActionRegistry({ rememberFinished: 1 });
  registry.add({
    actionId: 'a1',
    taskId: 'T',
    actionName: 'browser_get_html',
    clientId: 'p',
    actor,
    onSettled: () => {},
  });
  assert.is(registry.resolve('a1~2'), 'a1~2', 'no alias before the retry goes out');
  registry.alias('a1~2', 'a1');
  assert.is(registry.resolve('a1~2'), 'a1');
  assert.is(registry.resolve('a1'), 'a1');
  registry.ended('a1');
  assert.is(registry.resolve('a1~2'), 'a1', 'still its action after the end');
  assert.ok(registry.wasFinished(registry.resolve('a1~2')), 'so a result under it is late');
  registry.add({
    actionId: 'b1',
    taskId: 'T',
    actionName: 'browser_get_html',
    clientId: 'p',
    actor,
    onSettled: () => {},
  });
  registry.alias('b1~2', 'b1');
  registry.settle('b1', output('b1'), 10);
  assert.is(registry.resolve('b1~2'), 'b1');
  assert.is(registry.resolve('a1~2'), 'a1~2', 'the finished aliases are bounded');
});

test.run();
