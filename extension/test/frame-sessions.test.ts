import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DebuggeeTarget } from '../shared/browser-api.ts';
import { createFrameSessions } from '../background/frame-sessions.ts';
import { fakeEvent } from './fakes/fake-browser.ts';

const s = suite('out-of-process frame sessions');

function setup() {
  const onEvent = fakeEvent<(source: DebuggeeTarget, method: string, params?: unknown) => void>();
  const onDetach = fakeEvent<(source: DebuggeeTarget, reason: string) => void>();
  const sent: Array<{ tabId: number; method: string; params: unknown; sessionId?: string }> = [];
  const api = {
    attach: async () => {},
    detach: async () => {},
    sendCommand: async () => ({}),
    onEvent,
    onDetach,
  };
  const frames = createFrameSessions(api, async (tabId, method, params, sessionId) => {
    sent.push(sessionId ? { tabId, method, params, sessionId } : { tabId, method, params });
    return {} as never;
  });
  const attached = (source: DebuggeeTarget, sessionId: string, targetId: string, type = 'iframe') =>
    onEvent.fire(source, 'Target.attachedToTarget', {
      sessionId,
      targetInfo: { targetId, type, url: `http://localhost/${targetId}` },
    });
  return { frames, sent, onEvent, onDetach, attached };
}

s('list turns auto-attach off and on (flattened, not paused) and returns the iframes reported', async () => {
  const { frames, sent, attached } = setup();
  attached({ tabId: 7 }, 'S1', 'F1');
  attached({ tabId: 7 }, 'W1', 'worker-1', 'worker');
  const listed = await frames.list(7);
  assert.equal(listed, [{ frameId: 'F1', sessionId: 'S1', url: 'http://localhost/F1' }]);
  assert.equal(sent.slice(-2), [
    {
      tabId: 7,
      method: 'Target.setAutoAttach',
      params: { autoAttach: false, waitForDebuggerOnStart: false, flatten: true },
    },
    {
      tabId: 7,
      method: 'Target.setAutoAttach',
      params: { autoAttach: true, waitForDebuggerOnStart: false, flatten: true },
    },
  ]);
  assert.is(frames.sessionOf(7, 'F1')?.sessionId, 'S1');
  assert.is(frames.sessionOf(8, 'F1'), undefined, 'per tab');
});

s('a frame inside a frame: auto-attach is turned on in the child, and the child is its parent', async () => {
  const { frames, sent, attached } = setup();
  attached({ tabId: 7 }, 'S1', 'F1');
  assert.equal(sent[0], {
    tabId: 7,
    method: 'Target.setAutoAttach',
    params: { autoAttach: true, waitForDebuggerOnStart: false, flatten: true },
    sessionId: 'S1',
  });
  attached({ tabId: 7, sessionId: 'S1' }, 'S2', 'F2');
  assert.is(frames.sessionOf(7, 'F2')?.parentSessionId, 'S1');
});

s('a detached session or a detached tab is forgotten', async () => {
  const { frames, onEvent, onDetach, attached } = setup();
  attached({ tabId: 7 }, 'S1', 'F1');
  attached({ tabId: 7 }, 'S2', 'F2');
  onEvent.fire({ tabId: 7 }, 'Target.detachedFromTarget', { sessionId: 'S1' });
  assert.is(frames.sessionOf(7, 'F1'), undefined);
  assert.ok(frames.sessionOf(7, 'F2'));
  onDetach.fire({ tabId: 7 }, 'target_closed');
  assert.is(frames.sessionOf(7, 'F2'), undefined);
  attached({ tabId: 9 }, 'S3', 'F3');
  frames.forget(9);
  assert.equal(await frames.list(9), []);
});

s('auto-attach is sent once per tab; later lists come from the attach and detach events', async () => {
  const { frames, sent, onEvent, attached } = setup();
  const autoAttaches = () =>
    sent.filter(
      (c) => c.method === 'Target.setAutoAttach' && !c.sessionId && (c.params as { autoAttach?: boolean }).autoAttach,
    ).length;
  assert.equal(await frames.list(7), []);
  attached({ tabId: 7 }, 'S1', 'F1');
  assert.equal(
    (await frames.list(7)).map((f) => f.frameId),
    ['F1'],
  );
  onEvent.fire({ tabId: 7 }, 'Target.detachedFromTarget', { sessionId: 'S1' });
  attached({ tabId: 7 }, 'S2', 'F2');
  assert.equal(
    (await frames.list(7)).map((f) => f.frameId),
    ['F2'],
  );
  assert.is(autoAttaches(), 1, 'one Target.setAutoAttach for three lists');
  await frames.list(8);
  assert.is(autoAttaches(), 2, 'another tab gets its own');
  assert.is(frames.bySession(7, 'S2')?.frameId, 'F2');
});

s('a detached tab, a forgotten one or a refused auto-attach turns it on again next time', async () => {
  const onEvent = fakeEvent<(source: DebuggeeTarget, method: string, params?: unknown) => void>();
  const onDetach = fakeEvent<(source: DebuggeeTarget, reason: string) => void>();
  let refuse = true;
  let calls = 0;
  const api = { attach: async () => {}, detach: async () => {}, sendCommand: async () => ({}), onEvent, onDetach };
  const frames = createFrameSessions(api, async () => {
    calls++;
    if (refuse) throw new Error('Debugger is not attached to the tab');
    return {} as never;
  });
  await frames.list(7).then(
    () => assert.unreachable('a refused auto-attach rejects'),
    () => {},
  );
  refuse = false;
  await frames.list(7);
  await frames.list(7);
  assert.is(calls, 3, 'asked again (off, on) after the refusal, then kept');
  onDetach.fire({ tabId: 7 }, 'target_closed');
  await frames.list(7);
  assert.is(calls, 5, 'asked again after the tab was detached');
  frames.forget(7);
  await frames.list(7);
  assert.is(calls, 7, 'asked again after it was forgotten');
});

s('listeners hear a child session go (detached, or its tab), once; a removed listener hears nothing', () => {
  const { frames, onEvent, onDetach, attached } = setup();
  attached({ tabId: 7 }, 'S1', 'F1');
  attached({ tabId: 7 }, 'S2', 'F2');
  const heard: string[] = [];
  frames.onGone('S1', () => heard.push('S1'));
  const stop = frames.onGone('S1', () => heard.push('S1 removed'));
  frames.onGone('S2', () => heard.push('S2'));
  stop();
  onEvent.fire({ tabId: 7 }, 'Target.detachedFromTarget', { sessionId: 'S1' });
  onEvent.fire({ tabId: 7 }, 'Target.detachedFromTarget', { sessionId: 'S1' });
  assert.equal(heard, ['S1']);
  onDetach.fire({ tabId: 7 }, 'target_closed');
  assert.equal(heard, ['S1', 'S2'], 'the tab detached: its sessions are gone');
});

s.run();
