// The live view model without a DOM: subscribe/unsubscribe, newest frame shown and acked once
// drawn, a frame replacing an undrawn one acks it, gaps counted, fps over 2 s.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLiveViewModel } from '../src/models/live-view-model.ts';
import { flush, TASK_A, TASK_B } from './util.ts';

const frame = (seq: number, taskId = TASK_A) => ({
  taskId,
  tabId: 7,
  seq,
  timestamp: seq,
  width: 4,
  height: 3,
  mime: 'image/jpeg' as const,
  data: 'QUJD',
});

function setup(answer: { ok: boolean } = { ok: true }) {
  let time = 0;
  const sent: string[] = [];
  const live = createLiveViewModel({
    send: async (type, taskId) => (
      sent.push(`${type} ${taskId.slice(-1)}`),
      answer.ok ? { ok: true } : { ok: false, error: { code: 'UNAVAILABLE', message: 'no live view' } }
    ),
    clock: { now: () => time },
  });
  return { live, sent, advance: (ms: number) => (time += ms) };
}

const model = suite('live view model');

model('watching sends subscribe_live, switching tasks unsubscribes the old one, null stops', async () => {
  const { live, sent } = setup();
  live.watch(TASK_A, 7);
  live.watch(TASK_A, 7);
  live.watch(TASK_B, 9);
  live.watch(null);
  await flush();
  assert.equal(sent, ['subscribe_live 1', 'unsubscribe_live 1', 'subscribe_live 2', 'unsubscribe_live 2']);
  assert.is(live.state.value, 'off');
});

model('frames: shown then acked; an undrawn frame is acked when replaced; gaps and fps counted', async () => {
  const { live, advance } = setup();
  live.watch(TASK_A, 7);
  await flush();
  const acks: number[] = [];
  live.apply(frame(1), () => acks.push(1));
  assert.is(live.state.value, 'streaming');
  assert.match(live.image.value!.src, /^data:image\/jpeg;base64,QUJD$/);
  live.shown();
  advance(200);
  live.apply(frame(2), () => acks.push(2));
  advance(200);
  live.apply(frame(5), () => acks.push(5));
  assert.equal(acks, [1, 2], 'frame 2 was replaced before it was drawn: acked anyway');
  assert.is(live.skipped.value, 2);
  assert.is(live.fps.value, 5);
  live.apply(frame(6, TASK_B), () => acks.push(6));
  assert.equal(acks, [1, 2, 6], 'a frame of another task is acked and ignored');
  assert.is(live.image.value!.seq, 5);
});

model('an unavailable live view says so', async () => {
  const { live } = setup({ ok: false });
  live.watch(TASK_A, 7);
  await flush();
  assert.is(live.state.value, 'unavailable');
  assert.is(live.error.value?.code, 'UNAVAILABLE');
});

model.run();
