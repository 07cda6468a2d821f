// actionMachine behaviour: seed 001 §4.1 timeouts per action and the retry rules of 000 §5.1 /
// 001 §4.2 (late and duplicate results and exec timeout streaks are in action-results.test.ts,
// its pure steps in action.pure.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultExecTimeoutMs, fallbackExecTimeoutMs, idempotentActions } from '../../spec/action-timeouts.ts';
import { notRetryable, retryable, start } from './action-harness.ts';
import { settle } from './util.ts';

const timeouts = suite('actionMachine timeouts (seed 001 §4.1)');

for (const [actionName, execMs] of Object.entries(defaultExecTimeoutMs)) {
  timeouts(`${actionName}: T_ack 1.5 s, then T_exec ${execMs / 1000} s from the ack`, async () => {
    const t = start({ actionName, retry: false });
    assert.equal(t.value(), 'awaitingAck');
    t.clock.increment(1_499);
    assert.equal(t.value(), 'awaitingAck');
    t.actor.send({ type: 'ACK' });
    t.clock.increment(execMs - 1);
    assert.equal(t.value(), 'executing', 'still executing 1 ms before T_exec');
    t.clock.increment(1);
    assert.equal(t.value(), 'failed');
    assert.equal(t.output().error?.code, 'PLUGIN_TIMEOUT_EXEC');
    assert.equal(t.output().timedOut, 'exec');
  });
}

timeouts('no ack within 1.5 s -> PLUGIN_TIMEOUT_ACK', async () => {
  const t = start({ actionName: 'browser_click' });
  t.clock.increment(1_499);
  assert.equal(t.value(), 'awaitingAck');
  t.clock.increment(1);
  assert.equal(t.output(), {
    actionId: 'act-001',
    actionName: 'browser_click',
    status: 'failed',
    attempts: 1,
    execTimeoutStreak: 0,
    answered: false,
    error: { code: 'PLUGIN_TIMEOUT_ACK', message: 'no ack for browser_click within 1500 ms', retryable: true },
    timedOut: 'ack',
  });
});

timeouts('T_ack and T_exec are overridable per call', async () => {
  const t = start({ actionName: 'browser_click', ackTimeoutMs: 300, execTimeoutMs: 42_000 });
  t.clock.increment(299);
  t.actor.send({ type: 'ACK' });
  t.clock.increment(41_999);
  assert.equal(t.value(), 'executing');
  t.clock.increment(1);
  assert.equal(t.output().error?.message, 'no result for browser_click within 42000 ms');
});

timeouts('an action missing from the table gets the fallback T_exec', async () => {
  const t = start({ actionName: 'browser_scroll' });
  t.actor.send({ type: 'ACK' });
  t.clock.increment(fallbackExecTimeoutMs - 1);
  assert.equal(t.value(), 'executing');
  t.clock.increment(1);
  assert.equal(t.value(), 'failed');
});

timeouts('the frame is written on entry: awaitingAck at once, T_ack counted from that write', async () => {
  const t = start({ actionName: 'browser_click' });
  assert.equal(t.value(), 'awaitingAck', 'dispatching is passed through in the same step');
  assert.equal(
    t.sends().map((f) => [f.actionId, f.attempt]),
    [['act-001', 1]],
  );
  t.clock.increment(1_499);
  assert.equal(t.value(), 'awaitingAck');
  t.clock.increment(1);
  assert.equal([t.output().error?.code, t.output().timedOut], ['PLUGIN_TIMEOUT_ACK', 'ack']);
  assert.is(t.sends().length, 1);
});

timeouts(
  'a missed ack is never resent, even for an idempotent action (seed 001 §4.1: the plugin is unavailable)',
  async () => {
    const t = start({ actionName: 'browser_dom_index' });
    t.clock.increment(1_500);
    assert.equal(
      [t.output().status, t.output().attempts, t.output().error?.code, t.output().timedOut],
      ['failed', 1, 'PLUGIN_TIMEOUT_ACK', 'ack'],
    );
    t.clock.increment(60_000);
    await settle();
    assert.equal(t.sends().length, 1, 'one frame, no resend to the plugin that missed the ack');
  },
);

timeouts('the retry after an exec timeout gets its own T_ack from its own write', async () => {
  const t = start({ actionName: 'browser_dom_index' });
  t.actor.send({ type: 'ACK' });
  t.clock.increment(10_000);
  assert.equal(t.value(), 'retryWait');
  t.clock.increment(1_000);
  assert.equal(
    t.sends().map((f) => f.attempt),
    [1, 2],
    'the second frame is written when the backoff ends',
  );
  assert.equal(t.value(), 'awaitingAck');
  t.clock.increment(1_499);
  assert.equal(t.value(), 'awaitingAck', 'a fresh T_ack, not what was left of the first');
  t.clock.increment(1);
  assert.equal([t.output().status, t.output().attempts, t.output().error?.code], ['failed', 2, 'PLUGIN_TIMEOUT_ACK']);
});

timeouts('a transport that acks from inside the write leads to executing, and T_exec runs', async () => {
  const t = start({ actionName: 'browser_click' }, () => ({ type: 'ACK' }));
  assert.equal(t.value(), 'executing');
  t.clock.increment(1_500);
  assert.equal(t.value(), 'executing', 'no T_ack left armed once acked');
  t.clock.increment(5_000 - 1_500 - 1);
  assert.equal(t.value(), 'executing');
  t.clock.increment(1);
  assert.equal([t.output().error?.code, t.output().timedOut], ['PLUGIN_TIMEOUT_EXEC', 'exec']);
});

timeouts('a plugin that answers from inside the write settles the action', async () => {
  const t = start({ actionName: 'browser_click' }, () => ({
    type: 'RESULT',
    status: 'success',
    result: { clicked: true },
  }));
  assert.equal(t.output(), {
    actionId: 'act-001',
    actionName: 'browser_click',
    status: 'succeeded',
    result: { clicked: true },
    attempts: 1,
    execTimeoutStreak: 0,
    answered: true,
  });
});

timeouts.run();

const retry = suite('actionMachine retry rules');

retry(
  'retryable error result on an idempotent action: exactly one retry, after 1 s, under a new dispatch id',
  async () => {
    const t = start();
    t.actor.send({ type: 'ACK' });
    t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
    assert.equal(t.value(), 'retryWait');
    t.clock.increment(999);
    assert.equal(t.sends().length, 1, 'no resend before the 1 s backoff');
    t.clock.increment(1);
    await settle();
    // The plugin answers a repeated id from its dedupe cache (seed 001 §4.2): the retry is new to it.
    assert.equal(
      t.sends().map((s) => [s.actionId, s.dispatchId, s.attempt]),
      [
        ['act-001', 'act-001', 1],
        ['act-001', 'act-001~2', 2],
      ],
    );
    t.actor.send({ type: 'ACK' });
    t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
    assert.equal(t.value(), 'failed', 'the second retryable error is final');
    t.clock.increment(60_000);
    await settle();
    assert.equal(t.sends().length, 2, 'never a third send');
    assert.equal(t.output().attempts, 2);
    assert.equal(t.output().error, retryable);
  },
);

retry('the retry after an exec timeout may succeed, under the same actionId (no result came)', async () => {
  const t = start({ actionName: 'browser_dom_index' });
  t.actor.send({ type: 'ACK' });
  t.clock.increment(10_000); // exec timeout: no result
  t.clock.increment(1_000);
  await settle();
  assert.equal(
    t.sends().map((s) => s.dispatchId),
    ['act-001', 'act-001'],
  );
  t.actor.send({ type: 'ACK' });
  t.actor.send({ type: 'RESULT', status: 'success', result: { elements: [] } });
  assert.equal(t.output(), {
    actionId: 'act-001',
    actionName: 'browser_dom_index',
    status: 'succeeded',
    result: { elements: [] },
    attempts: 2,
    execTimeoutStreak: 0,
    answered: true,
  });
});

for (const name of [...idempotentActions]) {
  retry(`${name} is retried after an exec timeout`, async () => {
    const t = start({ actionName: name });
    t.actor.send({ type: 'ACK' });
    t.clock.increment(defaultExecTimeoutMs[name]!);
    assert.equal(t.value(), 'retryWait');
  });
}

for (const name of ['task_start', 'browser_click', 'browser_type', 'task_stop', 'browser_switch_tab']) {
  retry(`${name} (not idempotent) is never retried, even for a retryable error`, async () => {
    const t = start({ actionName: name });
    t.actor.send({ type: 'ACK' });
    t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
    assert.equal(t.value(), 'failed');
    t.clock.increment(5_000);
    await settle();
    assert.equal(t.sends().length, 1);
  });
}

retry('a non-retryable error on an idempotent action fails at once', async () => {
  const t = start();
  t.actor.send({ type: 'RESULT', status: 'error', error: notRetryable });
  assert.equal(t.output().error, notRetryable);
  assert.equal(t.output().attempts, 1);
});

retry('an error without the retryable mark is not retried', async () => {
  const t = start();
  t.actor.send({ type: 'RESULT', status: 'error', error: { code: 'CDP_UNAVAILABLE', message: 'no debugger' } });
  assert.equal(t.value(), 'failed');
});

retry('retry: false turns the retry off for an idempotent action', async () => {
  const t = start({ retry: false });
  t.clock.increment(1_500);
  assert.equal(t.value(), 'failed');
});

retry('plugin gone -> PLUGIN_OFFLINE at once, in any waiting state, no retry', async () => {
  for (const setupTo of ['executing', 'retryWait'] as const) {
    const t = start();
    t.actor.send({ type: 'ACK' });
    if (setupTo === 'retryWait') t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
    t.actor.send({ type: 'PLUGIN_GONE', reason: 'socket closed' });
    assert.equal(t.output().status, 'failed');
    assert.equal(t.output().error, { code: 'PLUGIN_OFFLINE', message: 'socket closed', retryable: true });
  }
});

retry('a frame that cannot be written (no socket) fails at once with PLUGIN_OFFLINE, not retried', async () => {
  const t = start({}, () => ({ type: 'DISPATCH_FAILED', error: new Error('no socket for plugin-abc') }));
  assert.equal(t.value(), 'failed', 'at once, no wait for T_ack');
  assert.equal(t.output().error, { code: 'PLUGIN_OFFLINE', message: 'no socket for plugin-abc', retryable: true });
  assert.is(t.output().timedOut, undefined);
  t.clock.increment(60_000);
  await settle();
  assert.equal(t.sends().length, 1, 'offline is not retried, even for an idempotent action');
});

retry(
  'a refused frame keeps the code of the refusal and is not retried, even when it is marked retryable',
  async () => {
    const refusal = {
      code: 'PLUGIN_TIMEOUT_ACK',
      message: 'the plugin did not ack this turn: reselect or reconnect it',
      retryable: true,
    };
    const t = start({ actionName: 'browser_dom_index' }, () => ({ type: 'DISPATCH_FAILED', error: refusal }));
    assert.equal(t.output().error, refusal);
    assert.equal([t.output().status, t.output().attempts, t.output().timedOut], ['failed', 1, undefined]);
    t.clock.increment(60_000);
    assert.equal(t.sends().length, 1);
  },
);

retry('an error value without the retryable mark gets the one of its code (000 §5.1)', async () => {
  const t = start({}, () => ({ type: 'DISPATCH_FAILED', error: { code: 'CDP_UNAVAILABLE', message: 'no debugger' } }));
  assert.equal(t.output().error, { code: 'CDP_UNAVAILABLE', message: 'no debugger', retryable: true });
  assert.equal(t.sends().length, 1);
});

retry("the retry's frame that cannot be written fails the action with that error", async () => {
  const t = start({ actionName: 'browser_screenshot' }, (_, attempt) =>
    attempt === 2
      ? { type: 'DISPATCH_FAILED', error: { code: 'PLUGIN_OFFLINE', message: 'socket closed', retryable: true } }
      : undefined,
  );
  t.actor.send({ type: 'ACK' });
  t.actor.send({ type: 'RESULT', status: 'error', error: retryable });
  t.clock.increment(1_000);
  assert.equal(
    t.sends().map((f) => f.attempt),
    [1, 2],
  );
  assert.equal([t.output().status, t.output().attempts, t.output().error?.code], ['failed', 2, 'PLUGIN_OFFLINE']);
  t.clock.increment(60_000);
  assert.equal(t.sends().length, 2);
});

retry.run();
