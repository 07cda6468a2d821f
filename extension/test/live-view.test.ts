// The extension's live view module with a fake CDP and fake timers: the screencast starts on the
// task tab only, at most 5 frames a second reach the server, a frame is dropped (not queued)
// while the server has not acked the previous one, and stopping restores the keepalive.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LiveFrame } from '../../transport/contracts/index.ts';
import { SCREENCAST_KEEPALIVE, type CdpSessions } from '../background/cdp-sessions.ts';
import { createLiveView } from '../background/live-view.ts';

const TASK = '01HR0000000000000000000001';

function setup(options: { connected?: boolean } = {}) {
  let time = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let nextTimer = 1;
  const sentCdp: [string, unknown][] = [];
  let listener: ((source: { tabId?: number }, method: string, params?: unknown) => void) | undefined;
  const cdp: CdpSessions = {
    attach: async () => {},
    send: async <T>(_tabId: number, method: string, params?: Record<string, unknown>) => {
      sentCdp.push([method, params]);
      return {} as T;
    },
    detach: async () => {},
    isAttached: () => true,
    frames: {
      list: async () => [],
      sessionOf: () => undefined,
      bySession: () => undefined,
      onGone: () => () => {},
      forget: () => {},
    },
  };
  const frames: { frame: LiveFrame; ack: (r: unknown) => void }[] = [];
  const live = createLiveView({
    cdp,
    cdpEvents: { addListener: (l) => (listener = l), removeListener: () => {} },
    isTaskTab: async (taskId, tabId) => taskId === TASK && tabId === 7,
    sendFrame: (frame, ack) => (options.connected === false ? false : (frames.push({ frame, ack }), true)),
    timers: {
      setTimeout: (fn, ms) => {
        const id = nextTimer++;
        timers.set(id, { at: time + ms, fn });
        return id;
      },
      clearTimeout: (id) => void timers.delete(id as number),
    },
    now: () => time,
  });
  const advance = (ms: number) => {
    const end = time + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      time = Math.max(time, due[1].at);
      due[1].fn();
    }
    time = end;
  };
  let session = 0;
  const paint = (tabId = 7) =>
    listener?.({ tabId }, 'Page.screencastFrame', {
      data: 'QUJD',
      sessionId: ++session,
      metadata: { deviceWidth: 1280, deviceHeight: 800 },
    });
  return { live, sentCdp, frames, advance, paint };
}

const live = suite('extension live view');

live('starts a JPEG screencast on the task tab only; stopping restores the keepalive', async () => {
  const { live, sentCdp } = setup();
  const refused = await live.command({
    v: 1,
    type: 'live_view',
    taskId: TASK,
    clientId: 'p',
    tabId: 8,
    on: true,
    timestamp: 1,
  });
  assert.is(refused.ok, false, 'not the task tab');
  assert.equal(
    await live.command({ v: 1, type: 'live_view', taskId: TASK, clientId: 'p', tabId: 7, on: true, timestamp: 1 }),
    { ok: true },
  );
  const start = sentCdp.find(
    ([m, p]) =>
      m === 'Page.startScreencast' &&
      (p as { format: string }).format === 'jpeg' &&
      (p as { quality: number }).quality === 60,
  );
  assert.ok(start, 'a live screencast was started');
  assert.ok(live.streaming(7));
  sentCdp.length = 0;
  await live.command({ v: 1, type: 'live_view', taskId: TASK, clientId: 'p', on: false, timestamp: 2 });
  assert.not.ok(live.streaming(7));
  assert.equal(
    sentCdp.map(([m]) => m),
    ['Page.stopScreencast', 'Page.startScreencast'],
  );
  assert.equal(sentCdp[1]![1], SCREENCAST_KEEPALIVE);
});

live('at most 5 frames a second; Chrome is asked for the next frame only when it may be sent', async () => {
  const { live, sentCdp, frames, advance, paint } = setup();
  await live.command({ v: 1, type: 'live_view', taskId: TASK, clientId: 'p', tabId: 7, on: true, timestamp: 1 });
  // Chrome paints at 60 fps for 2 s; the server acks at once.
  for (let i = 0; i < 120; i++) {
    paint();
    frames[frames.length - 1]?.ack({ ok: true });
    advance(1000 / 60);
  }
  assert.ok(frames.length >= 9 && frames.length <= 11, `${frames.length} frames in 2 s`);
  assert.equal(
    frames.map((f) => f.frame.seq),
    frames.map((_, i) => i + 1),
  );
  assert.equal([frames[0]!.frame.width, frames[0]!.frame.height, frames[0]!.frame.mime], [1280, 800, 'image/jpeg']);
  const acks = sentCdp.filter(([m]) => m === 'Page.screencastFrameAck').length;
  assert.ok(acks <= 12, `Chrome was acked ${acks} times, so it is not encoding at 60 fps`);
});

live(
  'a frame is dropped while the server has not acked the previous one; a lost ack stops blocking after 5 s',
  async () => {
    const { live, frames, advance, paint } = setup();
    await live.command({ v: 1, type: 'live_view', taskId: TASK, clientId: 'p', tabId: 7, on: true, timestamp: 1 });
    paint();
    for (let i = 0; i < 10; i++) {
      advance(250);
      paint();
    }
    assert.is(frames.length, 1, 'no ack: nothing more was sent, nothing queued');
    assert.is(live.stats().droppedBusy, 10);
    frames[0]!.ack({ ok: true });
    advance(250);
    paint();
    assert.is(frames.length, 2);
    advance(5_001);
    paint();
    assert.is(frames.length, 3, 'after 5 s without an ack the next frame goes');
  },
);

live.run();
