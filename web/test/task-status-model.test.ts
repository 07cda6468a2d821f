import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AckResult } from '../src/io/ack.ts';
import { createTaskStatusModel, type ControlMessageType } from '../src/models/task-status-model.ts';
import { payload } from './util.ts';

function setup(answer: AckResult = { ok: true }) {
  const sent: ControlMessageType[] = [];
  let release: (r: AckResult) => void = () => {};
  let manual = false;
  const model = createTaskStatusModel({
    send: (type) => {
      sent.push(type);
      return manual ? new Promise((resolve) => (release = resolve)) : Promise.resolve(answer);
    },
  });
  return { model, sent, hold: () => (manual = true), release: (r: AckResult) => release(r) };
}

const status = (
  s: 'created' | 'running' | 'ongoing' | 'takeover' | 'completed' | 'error',
  timestamp: number,
  previous?: 'running' | 'ongoing',
) => payload('taskStatus', { status: s, timestamp, ...(previous ? { previous } : {}) });

const takeover = suite('task status: takeover');

takeover('takeover shows the banner state; Resume sends resume_task and waits for the server', async () => {
  const { model, sent } = setup();
  model.applyEvent(status('running', 1));
  assert.equal([model.canStop.value, model.canTakeover.value, model.canResume.value], [true, true, false]);
  model.applyEvent(status('takeover', 2, 'running'));
  assert.is(model.inTakeover.value, true);
  assert.is(model.previous.value, 'running');
  assert.equal([model.canStop.value, model.canTakeover.value, model.canResume.value], [true, false, true]);
  await model.resume();
  assert.equal(sent, ['resume_task']);
  assert.is(model.status.value, 'takeover', 'the status changes only when the server says so');
  model.applyEvent(status('running', 3));
  assert.is(model.inTakeover.value, false);
});

takeover('a control is refused while another is pending, and when not allowed', async () => {
  const { model, sent, hold, release } = setup();
  model.applyEvent(status('takeover', 1));
  assert.is(await model.takeover(), null, 'already in takeover');
  hold();
  const resuming = model.resume();
  assert.is(model.pending.value, 'resume');
  assert.is(await model.stop(), null, 'nothing else while resume is pending');
  release({ ok: true });
  await resuming;
  assert.is(model.pending.value, null);
  assert.equal(sent, ['resume_task']);
});

takeover('a refused control shows the error and leaves the status alone', async () => {
  const { model } = setup({ ok: false, error: { code: 'CONFLICT', message: 'task is not in takeover' } });
  model.applyEvent(status('takeover', 1));
  const result = await model.resume();
  assert.is(result?.ok, false);
  assert.is(model.error.value?.code, 'CONFLICT');
  assert.is(model.status.value, 'takeover');
});

takeover(
  'Stop only while the task works (or is paused in takeover); Take over only while running or ongoing',
  async () => {
    const { model, sent } = setup();
    const table = [
      ['created', true, true],
      ['running', true, true],
      ['ongoing', false, true],
      ['takeover', true, false],
      ['completed', false, false],
      ['error', false, false],
    ] as const;
    for (const [s, stop, take] of table) {
      model.reset(s);
      assert.is(model.canStop.value, stop, `stop ${s}`);
      assert.is(model.canTakeover.value, take, `takeover ${s}`);
    }
    model.reset('ongoing');
    assert.is(await model.stop(), null, 'a finished turn offers no Stop and sends nothing');
    assert.equal(sent, []);
    model.reset('running');
    await model.stop();
    assert.equal(sent, ['stop_task']);
  },
);

const order = suite('task status: ordering');

order('an older status event or summary does not overwrite a newer one', () => {
  const { model } = setup();
  model.applyEvent(status('takeover', 50));
  assert.is(model.applyEvent(status('running', 40)), false);
  model.setFromSummary('ongoing', 45);
  assert.is(model.status.value, 'takeover');
  model.setFromSummary('completed', 60);
  assert.is(model.status.value, 'completed');
  assert.is(model.finished.value, true);
});

order('an answer for a task that is no longer open does not touch the new one', async () => {
  const { model, hold, release } = setup();
  model.applyEvent(status('takeover', 1));
  hold();
  const pending = model.resume();
  model.reset('ongoing');
  release({ ok: false, error: { code: 'INTERNAL', message: 'x' } });
  await pending;
  assert.is(model.error.value, null);
  assert.is(model.pending.value, null);
});

takeover.run();
order.run();
