// The server's mirror of the plugin-UI actor (the task machine's `pluginUi` region) follows the
// task (so the Machines tab shows it during a takeover), and inspection payloads are redacted and bounded.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { pluginUiOf, taskMachine } from '../../machines/index.ts';
import { redactedPayload } from '../agent/inspection-redact.ts';
import { toInspectionRecord } from '../agent/inspection-hub.ts';

const TASK = '01HR0000000000000000000001';
const mirror = suite('plugin UI mirror and inspection payloads');

/** A task actor as the runtime makes it (inspected), its turn held open, its frames not written. */
function inspectedTask(seen: InspectionEvent[]) {
  const machine = taskMachine.provide({
    actors: { runTurn: fromPromise(() => new Promise(() => {})) },
    actions: { sendFrame: () => {} },
  });
  const task = createActor(machine, { id: `task:${TASK}`, input: { taskId: TASK }, inspect: (e) => seen.push(e) });
  task.start();
  return { task, ui: () => pluginUiOf(task.getSnapshot()) };
}

mirror('follows status, actions, takeover and resume, as a region of the task actor, inspected live', () => {
  const seen: InspectionEvent[] = [];
  const t = inspectedTask(seen);
  assert.is(t.ui(), 'hidden', 'a created task: no action, no overlay');
  t.task.send({ type: 'USER_MESSAGE', message: { id: 'm1', content: 'go' } });
  assert.is(t.ui(), 'hidden');
  t.task.send({
    type: 'ACTION_REQUESTED',
    action: { actionId: 'act-1', actionName: 'browser_click', params: {}, taskId: TASK, clientId: 'p' },
  });
  assert.is(t.ui(), 'ongoing');
  t.task.send({ type: 'TAKEOVER' });
  assert.is(t.ui(), 'takeover', 'a takeover shows in the mirror');
  t.task.send({ type: 'RESUME' });
  assert.is(t.ui(), 'ongoing', 'resumed with the action still in flight');
  t.task.send({ type: 'ACK', actionId: 'act-1' });
  t.task.send({ type: 'RESULT', actionId: 'act-1', status: 'success', result: {} });
  assert.is(t.ui(), 'hidden', 'the action settled');
  t.task.send({ type: 'STOP' });
  assert.is(t.ui(), 'idle');
  const records = seen.map((e) => toInspectionRecord(e, 1)).filter((r) => r !== null);
  const uiStates = records
    .filter((r) => r!.name === `task:${TASK}` && r!.type === '@xstate.snapshot')
    .map((r) => (r!.value as { pluginUi: string }).pluginUi);
  for (const state of ['hidden', 'ongoing', 'takeover', 'idle'])
    assert.ok(uiStates.includes(state), `the task's snapshots show the mirror ${state}`);
  assert.not.ok(
    records.some((r) => r!.machineId === 'pluginUi'),
    'no actor of its own',
  );
  t.task.stop();
});

mirror('typed text and credentials are redacted; big or deep values are bounded', () => {
  const out = redactedPayload({
    type: 'USER_MESSAGE',
    message: { id: 'm1', content: 'my secret plan' },
    params: { text: 'Ada Lovelace', password: 'hunter2', clickId: 4 },
    long: 'x'.repeat(1000),
    deep: { a: { b: { c: { d: { e: 1 } } } } },
    fn: () => 1,
  });
  assert.equal(out.message, { id: 'm1', content: '[redacted]' });
  assert.equal(out.params, { text: '[redacted]', password: '[redacted]', clickId: 4 });
  assert.ok((out.long as string).length <= 160);
  assert.equal(out.deep, { a: { b: { c: '[…]' } } });
  assert.not.ok('fn' in out);
  assert.not.ok('type' in out);
});

mirror.run();
