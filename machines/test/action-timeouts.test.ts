// T_exec per action (seed 001 §4.1): the table, the per-action `params.timeoutMs` override within
// its bound, browser_type's length rule, and the actionMachine timing out on exactly that value
// on a SimulatedClock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, SimulatedClock } from 'xstate';
import { actionMachine, type ActionOutput } from '../action.machine.ts';
import {
  execTimeoutFor,
  handlerTimeoutGraceMs,
  maxActionTimeoutMs,
  minActionTimeoutMs,
  typingExecTimeoutMs,
} from '../../spec/action-timeouts.ts';

const table = suite('T_exec: table, params.timeoutMs within its bound, typing by length');

table('the table holds when nothing overrides it', () => {
  assert.is(execTimeoutFor('browser_wait_for_loaded'), 20_000);
  assert.is(execTimeoutFor('browser_click', undefined, { tabId: 1, clickId: 2 }), 5_000);
  assert.is(execTimeoutFor('browser_type', undefined, { tabId: 1, clickId: 2, text: '' }), 10_000);
});

table('params.timeoutMs 60000 gives 60 s (plus the grace for a handler that waits that long itself)', () => {
  assert.is(
    execTimeoutFor('browser_wait_for_loaded', undefined, { tabId: 1, timeoutMs: 60_000 }),
    60_000 + handlerTimeoutGraceMs,
  );
  assert.is(execTimeoutFor('browser_get_html', undefined, { tabId: 1, timeoutMs: 60_000 }), 60_000);
});

table('params.timeoutMs is bounded to [1 s, 120 s]; junk is ignored', () => {
  assert.is(maxActionTimeoutMs, 120_000);
  assert.is(execTimeoutFor('browser_get_html', undefined, { timeoutMs: 10 * 60_000 }), 120_000);
  assert.is(execTimeoutFor('browser_get_html', undefined, { timeoutMs: 5 }), minActionTimeoutMs);
  for (const junk of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '60000', null]) {
    assert.is(execTimeoutFor('browser_get_html', undefined, { timeoutMs: junk }), 10_000, String(junk));
  }
});

table('an explicit server-side execTimeoutMs wins over params', () => {
  assert.is(execTimeoutFor('browser_wait_for_loaded', 250, { tabId: 1, timeoutMs: 60_000 }), 250);
});

table('browser_type scales with the text: 10 s + 10 ms a character, at most 120 s', () => {
  assert.is(typingExecTimeoutMs(0), 10_000);
  assert.is(typingExecTimeoutMs(220), 12_200);
  assert.is(typingExecTimeoutMs(2_000), 30_000);
  assert.is(typingExecTimeoutMs(1_000_000), 120_000);
  assert.is(execTimeoutFor('browser_type', undefined, { tabId: 1, clickId: 2, text: 'x'.repeat(2_000) }), 30_000);
});

table.run();

const live = suite('actionMachine times out on the override, not the table');

function run(actionName: string, params: Record<string, unknown>) {
  const clock = new SimulatedClock();
  const frames: number[] = [];
  const machine = actionMachine.provide({ actions: { sendFrame: (_, p) => void frames.push(p.execTimeoutMs) } });
  const actor = createActor(machine, { clock }).start();
  actor.send({
    type: 'START',
    action: { actionId: 'act-1', actionName, params, taskId: 't', clientId: 'p', retry: false },
  });
  actor.send({ type: 'ACK' });
  return {
    clock,
    actor,
    frames,
    output: () => (actor.getSnapshot().context.last ?? undefined) as ActionOutput | undefined,
  };
}

live(
  'browser_wait_for_loaded with timeoutMs 60000: still waiting at 20 s and at 60 s, PLUGIN_TIMEOUT_EXEC at 61 s',
  () => {
    const t = run('browser_wait_for_loaded', { tabId: 1, timeoutMs: 60_000 });
    assert.equal(t.frames, [61_000], 'the frame tells the plugin the T_exec it is held to');
    t.clock.increment(20_000);
    assert.is(t.output(), undefined);
    t.clock.increment(40_999);
    assert.is(t.output(), undefined);
    t.clock.increment(1);
    assert.equal([t.output()?.status, t.output()?.error?.code], ['failed', 'PLUGIN_TIMEOUT_EXEC']);
  },
);

live('a 2,000-character browser_type is given 30 s, not 10 s', () => {
  const t = run('browser_type', { tabId: 1, clickId: 3, text: 'a'.repeat(2_000) });
  t.clock.increment(10_000);
  assert.is(t.output(), undefined, 'still typing at the table value');
  t.actor.send({ type: 'RESULT', status: 'success', result: { typed: true } });
  assert.is(t.output()?.status, 'succeeded');
});

live.run();
