// Events under the fence (held-events.ts): a task whose ownership is unknown tells nothing; what
// it said meanwhile goes out in order, with the seqs it took, once the node holds the task again,
// or never, if another node took it. A replay to a subscriber leaves held envelopes out.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FrontendEvent } from '../../../transport/contracts/index.ts';
import { createTestClock } from '../../clock/index.ts';
import { createTaskSeq } from '../../socket/task-seq.ts';
import type { FrontendEventSink } from '../../socket/frontend-events.ts';
import { createHeldEvents } from '../held-events.ts';
import type { FenceState, TaskFence } from '../task-fence.ts';

function world() {
  const sent: FrontendEvent[] = [];
  const seq = createTaskSeq();
  let n = 0;
  const build = (taskId: string | undefined, event: any, s?: number): FrontendEvent =>
    ({ type: 'event', id: `env-${++n}`, taskId, timestamp: n, ...(s ? { seq: s } : {}), event }) as FrontendEvent;
  const sink = {
    envelope: (event: any, taskId?: string) => build(taskId, event),
    prepare: (taskId: string, event: any, _trace?: string, s?: number) => build(taskId, event, s ?? seq.next(taskId)),
    send: (env: FrontendEvent) => (sent.push(env), env),
    toTask: (taskId: string, event: any, _trace?: string, s?: number) => (
      sent.push(build(taskId, event, s ?? seq.next(taskId))),
      sent.at(-1)!
    ),
    toAllFrontends: (event: any) => build(undefined, event),
    seq,
  } as unknown as FrontendEventSink;
  let state: FenceState = 'open';
  const listeners: Array<() => void> = [];
  const fence = {
    state: () => state,
    onChange: (l: () => void) => void listeners.push(l),
  } as unknown as TaskFence;
  const clock = createTestClock(0);
  const held = createHeldEvents({ fence, sink, clock });
  const set = (next: FenceState, tell = true) => {
    state = next;
    if (tell) listeners.forEach((l) => l());
  };
  const delta = (text: string) => ({ type: 'chatDelta', delta: { content: text } }) as any;
  const texts = () => sent.map((e) => `${(e.event as any).delta?.content}@${e.seq}`);
  return { held, set, delta, texts, clock };
}

const test = suite('held events');

test('held while the database is away, then sent in order with the seqs they took when the node keeps the task', () => {
  const w = world();
  w.held.toTask('t', w.delta('a'));
  w.set('held');
  const b = w.held.toTask('t', w.delta('b'));
  w.held.toTask('t', w.delta('c'));
  assert.equal(w.texts(), ['a@1']);
  assert.ok(w.held.isHeld(b));
  w.set('open');
  w.held.toTask('t', w.delta('d'));
  assert.equal(w.texts(), ['a@1', 'b@2', 'c@3', 'd@4']);
  assert.not.ok(w.held.isHeld(b));
});

test('dropped when another node took the task meanwhile; nothing of it leaves afterwards', () => {
  const w = world();
  w.set('held');
  w.held.toTask('t', w.delta('zombie'));
  w.set('lost');
  w.held.toTask('t', w.delta('later'));
  assert.equal(w.texts(), []);
  assert.is(w.held.heldCount(), 0);
});

test('a reconnect that tells no fence change still sends them (looked at again on the clock)', () => {
  const w = world();
  w.set('held');
  w.held.toTask('t', w.delta('x'));
  w.set('open', false);
  assert.equal(w.texts(), []);
  w.clock.increment(500);
  assert.equal(w.texts(), ['x@1']);
});

test.run();
