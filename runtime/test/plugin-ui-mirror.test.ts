// The server's mirror of the plugin-UI actor follows the task (so the Machines tab shows it during
// a takeover), and inspection payloads are redacted and bounded.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, createMachine, type InspectionEvent } from 'xstate';
import { redactedPayload } from '../agent/inspection-redact.ts';
import { toInspectionRecord } from '../agent/inspection-hub.ts';
import { createPluginUiMirror } from '../agent/plugin-ui-mirror.ts';

const TASK = '01HR0000000000000000000001';
const mirror = suite('plugin UI mirror and inspection payloads');

mirror('follows status, actions, takeover and resume, and is inspected under a readable id', () => {
  const seen: InspectionEvent[] = [];
  const m = createPluginUiMirror(TASK, (e) => seen.push(e));
  m.status('running');
  assert.is(m.value(), 'hidden');
  m.actionStarted('act-1');
  assert.is(m.value(), 'ongoing');
  m.status('takeover');
  assert.is(m.value(), 'takeover', 'a takeover shows in the mirror');
  m.actionSettled('act-1');
  m.resume();
  assert.is(m.value(), 'hidden');
  m.status('completed');
  assert.is(m.value(), 'idle');
  const records = seen.map((e) => toInspectionRecord(e, 1)).filter((r) => r !== null);
  assert.ok(records.some((r) => r!.machineId === 'pluginUi' && r!.name === `pluginUi:${TASK}`));
  assert.ok(
    records.some(
      (r) => r!.type === '@xstate.event' && r!.event?.type === 'ACTION_STARTED' && r!.event.actionId === 'act-1',
    ),
    'event payloads are in the record',
  );
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

mirror(
  "given the task actor, it runs in the task's actor system: one inspection observer, the task as its parent",
  () => {
    const seen: InspectionEvent[] = [];
    const task = createActor(createMachine({ id: 'task' }), { id: `task:${TASK}`, inspect: (e) => seen.push(e) });
    const m = createPluginUiMirror(TASK, { parent: task });
    task.start();
    m.status('running');
    m.actionStarted('act-1');
    assert.is(m.value(), 'ongoing');
    const records = seen.map((e) => toInspectionRecord(e, 1)).filter((r) => r !== null && r.machineId === 'pluginUi');
    assert.ok(records.length > 0, "the task's observer sees the mirror");
    assert.ok(
      records.every((r) => r!.parentId === task.sessionId),
      'under the task actor',
    );
    m.dispose();
    task.stop();
  },
);

mirror.run();
