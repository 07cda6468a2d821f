// The live view relay on its own: who is told to stream, who gets frames, what is dropped.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LiveViewCommand } from '../../transport/contracts/index.ts';
import { createLiveViewRelay, type LiveTarget, type LiveViewer } from '../socket/live-view-relay.ts';
import { createTestClock } from '../clock/index.ts';

const TASK = '01HR0000000000000000000001';
const OTHER = '01HR0000000000000000000002';

function viewer(id: string) {
  const got: { seq: number; ack: () => void }[] = [];
  const v: LiveViewer & { got: typeof got } = {
    id,
    got,
    emit: (_event, frame, ack) => (got.push({ seq: (frame as { seq: number }).seq, ack: ack as () => void }), true),
  };
  return v;
}

function setup() {
  const clock = createTestClock(1_000);
  const targets = new Map<string, LiveTarget>();
  const commands: { clientId: string; command: LiveViewCommand }[] = [];
  const relay = createLiveViewRelay({
    target: (taskId) => targets.get(taskId) ?? null,
    sendToPlugin: (clientId, command) => (commands.push({ clientId, command }), true),
    clock,
    log: () => {},
    viewerAckTimeoutMs: 5_000,
  });
  const frame = (seq: number, taskId = TASK) => ({
    taskId,
    tabId: 7,
    seq,
    timestamp: clock.now(),
    width: 4,
    height: 3,
    mime: 'image/jpeg',
    data: 'AAAA',
  });
  return { relay, targets, commands, frame, clock };
}

const relay = suite('live view relay');

relay('the first viewer starts the stream, the last one leaving stops it; a moved tab restarts it', () => {
  const { relay, targets, commands } = setup();
  const a = viewer('a');
  const b = viewer('b');
  assert.equal(relay.watch(a, TASK), { ok: true, data: { streaming: false } }, 'no tab yet: nothing to stream');
  assert.is(commands.length, 0);
  targets.set(TASK, { clientId: 'p1', tabId: 7 });
  relay.watch(a, TASK);
  relay.watch(b, TASK);
  assert.equal(
    commands.map((c) => [c.clientId, c.command.on, c.command.tabId]),
    [['p1', true, 7]],
  );
  targets.set(TASK, { clientId: 'p1', tabId: 9 });
  relay.watch(b, TASK);
  assert.equal(
    commands.slice(1).map((c) => [c.command.on, c.command.tabId]),
    [
      [false, 7],
      [true, 9],
    ],
  );
  relay.unwatch(a, TASK);
  assert.is(commands.length, 3, 'one viewer still watches');
  relay.viewerGone(b);
  assert.equal(
    commands.slice(3).map((c) => [c.command.on, c.command.tabId]),
    [[false, 9]],
  );
  assert.is(relay.viewers(TASK), 0);
});

relay('frames reach only the viewers of their task, from the plugin serving it', () => {
  const { relay, targets, commands, frame } = setup();
  targets.set(TASK, { clientId: 'p1', tabId: 7 });
  targets.set(OTHER, { clientId: 'p1', tabId: 8 });
  const mine = viewer('mine');
  const theirs = viewer('theirs');
  relay.watch(mine, TASK);
  relay.watch(theirs, OTHER);
  const acks: unknown[] = [];
  relay.onFrame('p1', frame(1), (r) => acks.push(r));
  assert.equal(
    mine.got.map((g) => g.seq),
    [1],
  );
  assert.equal(theirs.got, []);
  relay.onFrame('p2', frame(2), (r) => acks.push(r));
  assert.equal(mine.got.length, 1, 'another plugin cannot inject frames');
  relay.onFrame('p1', { ...frame(3), data: '' }, (r) => acks.push(r));
  relay.onFrame('p1', { ...frame(4), mime: 'text/html' }, (r) => acks.push(r));
  assert.equal(
    acks.map((a) => (a as { ok: boolean; error?: { code: string } }).error?.code ?? 'ok'),
    ['ok', 'FORBIDDEN', 'SCHEMA_VALIDATION_FAILED', 'SCHEMA_VALIDATION_FAILED'],
  );
  // A frame for a task nobody watches tells the plugin to stop.
  const before = commands.length;
  relay.onFrame('p1', frame(5, '01HR0000000000000000000003'));
  assert.equal(
    commands.slice(before).map((c) => c.command.on),
    [false],
  );
});

relay('a viewer that has not acked misses frames (dropped, not queued) until it acks or times out', () => {
  const { relay, targets, frame, clock } = setup();
  targets.set(TASK, { clientId: 'p1', tabId: 7 });
  const fast = viewer('fast');
  const slow = viewer('slow');
  relay.watch(fast, TASK);
  relay.watch(slow, TASK);
  for (let seq = 1; seq <= 5; seq++) {
    relay.onFrame('p1', frame(seq));
    fast.got[fast.got.length - 1]!.ack();
    clock.increment(200);
  }
  assert.equal(
    fast.got.map((g) => g.seq),
    [1, 2, 3, 4, 5],
  );
  assert.equal(
    slow.got.map((g) => g.seq),
    [1],
    'the slow viewer got the first frame only',
  );
  slow.got[0]!.ack();
  relay.onFrame('p1', frame(6));
  assert.equal(
    slow.got.map((g) => g.seq),
    [1, 6],
  );
  clock.increment(5_000);
  relay.onFrame('p1', frame(7));
  assert.equal(
    slow.got.map((g) => g.seq),
    [1, 6, 7],
    'an ack lost for 5 s does not block the viewer forever',
  );
  const stats = relay.stats();
  assert.is(stats.framesIn, 7);
  assert.is(stats.dropped, 4);
  assert.is(stats.framesOut, 10);
});

relay.run();
