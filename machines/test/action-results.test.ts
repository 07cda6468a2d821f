// actionMachine: late and duplicate results (what the runtime's router asks `resultDisposition`
// about), and exec timeouts in a row (plugin-health.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resultDisposition } from '../action-result.ts';
import { defaultExecTimeoutMs } from '../../spec/action-timeouts.ts';
import { isPluginUnhealthy, nextExecTimeoutStreak } from '../plugin-health.ts';
import { notRetryable, retryable, start } from './action-harness.ts';
import { settle } from './util.ts';

const late = suite('actionMachine late and duplicate results');

late('a duplicate of the accepted result is ignored and classified "duplicate"', async () => {
  const t = start();
  t.actor.send({ type: 'ACK' });
  const answer = { status: 'success' as const, result: { artifactId: 'art-1', url: 'u', width: 1, height: 1 } };
  t.actor.send({ type: 'RESULT', ...answer });
  const before = t.output();
  assert.is(resultDisposition(t.actor.getSnapshot(), 'act-001', answer), 'duplicate');
  // key order does not matter
  assert.is(
    resultDisposition(t.actor.getSnapshot(), 'act-001', { result: { ...answer.result }, status: 'success' }),
    'duplicate',
  );
  t.actor.send({ type: 'RESULT', ...answer });
  assert.equal(t.output(), before);
});

late('a result after an exec timeout is late and changes nothing', async () => {
  const t = start({ actionName: 'browser_click' });
  t.actor.send({ type: 'ACK' });
  t.clock.increment(5_000);
  const before = t.output();
  const answer = { status: 'success' as const, result: { clicked: true } };
  assert.is(resultDisposition(t.actor.getSnapshot(), 'act-001', answer), 'late');
  t.actor.send({ type: 'RESULT', ...answer });
  assert.equal(t.output(), before);
  assert.equal(before.error?.code, 'PLUGIN_TIMEOUT_EXEC');
});

late('while waiting to retry: the same error again is a duplicate, another error is late', async () => {
  const t = start();
  t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
  assert.is(resultDisposition(t.actor.getSnapshot(), 'act-001', { status: 'error', error: retryable }), 'duplicate');
  t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
  t.actor.send({ type: 'RESULT', status: 'error', error: notRetryable });
  assert.equal(t.value(), 'retryWait');
  assert.equal(t.ignored, [
    { actionId: 'act-001', disposition: 'duplicate' },
    { actionId: 'act-001', disposition: 'late' },
  ]);
  assert.is(t.actor.getSnapshot().context.current?.ignoredResults, 2);
});

late('while waiting to retry, a success for the same actionId is taken', async () => {
  const t = start();
  t.actor.send({ type: 'ACK' });
  t.clock.increment(10_000);
  assert.is(resultDisposition(t.actor.getSnapshot(), 'act-001', { status: 'success' }), 'accept');
  t.actor.send({ type: 'RESULT', status: 'partial', result: { warnings: ['cut'] } });
  assert.equal(t.output().status, 'partial');
  assert.equal(t.output().attempts, 1);
  t.clock.increment(10_000);
  await settle();
  assert.is(t.sends().length, 1, 'no retry once answered');
});

late('a result before the ack is accepted', async () => {
  const t = start();
  assert.is(resultDisposition(t.actor.getSnapshot(), 'act-001', { status: 'success' }), 'accept');
  t.actor.send({ type: 'RESULT', status: 'success', result: 1 });
  assert.equal(t.output().status, 'succeeded');
});

late.run();

const health = suite('actionMachine exec timeouts in a row');

async function execTimeout(actionName: string) {
  const t = start({ actionName });
  t.actor.send({ type: 'ACK' });
  t.clock.increment(defaultExecTimeoutMs[actionName]!);
  return t;
}

health('two actions timing out in a row mark the plugin unhealthy', async () => {
  const first = (await execTimeout('browser_click')).output();
  const second = (await execTimeout('browser_type')).output();
  assert.equal([first.timedOut, first.execTimeoutStreak, first.answered], ['exec', 1, false]);
  let streak = nextExecTimeoutStreak(0, first);
  assert.is(isPluginUnhealthy(streak), false);
  streak = nextExecTimeoutStreak(streak, second);
  assert.is(streak, 2);
  assert.is(isPluginUnhealthy(streak), true);
});

health('an answer in between breaks the streak', async () => {
  const first = (await execTimeout('browser_click')).output();
  const t = start({ actionName: 'browser_click' });
  t.actor.send({ type: 'RESULT', status: 'error', error: notRetryable });
  const third = (await execTimeout('browser_click')).output();
  const streak = [first, t.output(), third].reduce(nextExecTimeoutStreak, 0);
  assert.is(streak, 1);
  assert.is(isPluginUnhealthy(streak), false);
});

health('an idempotent action timing out on both attempts reports a streak of 2 by itself', async () => {
  const t = await execTimeout('browser_screenshot');
  t.clock.increment(1_000);
  await settle();
  t.actor.send({ type: 'ACK' });
  t.clock.increment(10_000);
  assert.equal([t.output().status, t.output().execTimeoutStreak, t.output().timedOut], ['failed', 2, 'exec']);
  assert.is(isPluginUnhealthy(nextExecTimeoutStreak(0, t.output())), true);
});

health.run();
