// The plugin gateway's contract check on browser_action_result, end to end with the real
// socket.io-client: well-formed results (the fast path) settle the action with their result,
// malformed and hostile ones get exactly the full valibot check's error in the ack and change
// nothing (the action stays in flight).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validatePluginMessageFully } from '../../transport/contracts/index.ts';
import { startFakePlugin } from '../test-util/fake-plugin.ts';
import { eventually, startRuntime, type TestRuntime } from './util.ts';
import { actionStateOf } from '../../machines/index.ts';

const TASK = '01JD0000000000000000000001';
const test = suite<{ rt: TestRuntime }>('plugin gateway: browser_action_result check', { rt: undefined as never });

test.before.each(async (ctx) => {
  ctx.rt = await startRuntime();
});
test.after.each(async (ctx) => {
  await ctx.rt.close();
});

test("malformed results are refused with the full check's error; then a well-formed one settles the action", async ({
  rt,
}) => {
  // The plugin acks the action but leaves the result to the test.
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: () => ({ result: null }) });
  const outcome = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 3 },
  });
  await eventually(() => plugin.received.length === 1, 5_000, 'browser_action received');
  const actionId = plugin.received[0]!.id;
  await eventually(
    () => {
      const actor = rt.server.scheduler.actorOf(actionId);
      return actor !== undefined && actionStateOf(actor.getSnapshot()) === 'executing';
    },
    5_000,
    'acked',
  );
  const base = {
    v: 1,
    type: 'browser_action_result',
    actionId,
    taskId: TASK,
    clientId: 'plugin-a',
    status: 'success',
    result: { clicked: true },
  };
  const malformed: unknown[] = [
    { ...base, taskId: '01HR...' },
    { ...base, actionId: '' },
    { ...base, v: 2 },
    { ...base, status: 'error' },
    { ...base, status: 'error', error: { code: '', message: 'm' } },
    { ...base, timestamp: -5 },
    { ...base, result: 'done' },
    { ...base, traceId: 42 },
  ];
  for (const message of malformed) {
    const reply = await plugin.send(message as Record<string, unknown>);
    const expected = validatePluginMessageFully(message);
    assert.not.ok(expected.ok);
    assert.equal(reply, { ok: false, error: (expected as { error: unknown }).error }, JSON.stringify(message));
  }
  assert.ok(
    actionStateOf(rt.server.scheduler.actorOf(actionId)!.getSnapshot()) === 'executing',
    'still in flight after every refusal',
  );

  // Well formed, with unknown keys and a `__proto__` key in its result (as JSON.parse makes it).
  const reply = await plugin.send({
    ...base,
    extra: 'dropped',
    result: JSON.parse('{"clicked":true,"__proto__":{"polluted":1}}'),
  });
  assert.equal(reply, { ok: true, data: { actionId, disposition: 'accepted' } });
  const out = await outcome;
  assert.is(out.status, 'succeeded');
  assert.equal(out.result, { clicked: true });
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  plugin.close();
});

test.run();
