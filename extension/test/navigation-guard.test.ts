// The navigation guard on fakes: what it asks the server, how it answers Chromium's paused
// requests (continue / fail closed), popups attached at creation, out-of-process frames' sessions.
// The new-tab gate and the backstop without CDP: navigation-guard-fallback.test.ts. The real
// thing is proven in e2e/navigation-guard.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FakeEvent } from './fakes/fake-browser.ts';
import { flush, world } from './navigation-guard-world.ts';

const s = suite('navigation guard');

s('attaching a tab turns on Fetch for Document requests at the Request stage, before focus emulation', async () => {
  const w = await world();
  assert.equal(await w.guard.arm(7, 'task-1'), { guarded: true });
  const methods = w.browser.cdpCommands.filter((c) => c.tabId === 7).map((c) => c.method);
  assert.is(methods[0], 'Fetch.enable');
  assert.ok(methods.indexOf('Fetch.enable') < methods.indexOf('Emulation.setFocusEmulationEnabled'));
  assert.equal(w.commands(7, 'Fetch.enable')[0], { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] });
  assert.ok(w.guard.isGuarded(7));
});

s(
  'the session of an out-of-process frame is intercepted too: its requests are judged as "sub" and answered there',
  async () => {
    const w = await world();
    const events = w.browser.debugger!.onEvent as FakeEvent<any>;
    await w.guard.arm(7);
    const inSession = (method: string) =>
      w.browser.cdpCommands
        .filter((c) => c.tabId === 7 && c.method === method && c.sessionId === 'S1')
        .map((c) => c.params);
    events.fire({ tabId: 7 }, 'Target.attachedToTarget', {
      sessionId: 'S1',
      targetInfo: { targetId: 'F1', type: 'iframe', url: 'https://frame.example/' },
    });
    await flush();
    assert.equal(inSession('Fetch.enable'), [{ patterns: [{ resourceType: 'Document', requestStage: 'Request' }] }]);
    w.answer = async (q) =>
      q.url.includes('blocked')
        ? { ok: true, data: { allowed: false, error: { code: 'URL_BLOCKED', message: 'not on the allowlist' } } }
        : { ok: true, data: { allowed: true } };
    const pausedIn = (requestId: string, url: string) =>
      events.fire({ tabId: 7, sessionId: 'S1' }, 'Fetch.requestPaused', {
        requestId,
        frameId: 'F1',
        resourceType: 'Document',
        request: { url },
      });
    pausedIn('r1', 'https://frame.example/next');
    pausedIn('r2', 'http://blocked.example/');
    await flush();
    assert.equal(
      w.asked.map((q) => [q.url, q.frame]),
      [
        ['https://frame.example/next', 'sub'],
        ['http://blocked.example/', 'sub'],
      ],
    );
    assert.equal(inSession('Fetch.continueRequest'), [{ requestId: 'r1' }]);
    assert.equal(inSession('Fetch.failRequest'), [{ requestId: 'r2', errorReason: 'BlockedByClient' }]);
    assert.equal(w.commands(7, 'Page.navigate'), [], 'a frame refused leaves the page where it is');
  },
);

s('an allowed navigation is asked about once and continued', async () => {
  const w = await world();
  await w.guard.arm(7);
  w.pause(7, { requestId: 'r1', request: { url: 'https://allowed.example/next' } });
  await flush();
  assert.equal(w.asked, [
    { taskId: 'task-1', tabId: 7, url: 'https://allowed.example/next', frame: 'main', stage: 'request' },
  ]);
  assert.equal(w.commands(7, 'Fetch.continueRequest'), [{ requestId: 'r1' }]);
  assert.equal(w.commands(7, 'Fetch.failRequest'), []);
});

s('a blocked navigation fails with BlockedByClient and the tab goes to about:blank', async () => {
  const w = await world();
  await w.guard.arm(7);
  w.answer = async () => ({
    ok: true,
    data: { allowed: false, error: { code: 'URL_BLOCKED', message: 'not on the allowlist' } },
  });
  w.pause(7, { requestId: 'r2', request: { url: 'http://blocked.example/' } });
  await flush();
  assert.equal(w.commands(7, 'Fetch.failRequest'), [{ requestId: 'r2', errorReason: 'BlockedByClient' }]);
  assert.equal(w.commands(7, 'Page.navigate'), [{ url: 'about:blank' }]);
  assert.equal(w.commands(7, 'Fetch.continueRequest'), []);
});

s('fail closed: no answer, an error, or an answer that is not an explicit "allowed" all block', async () => {
  for (const answer of [
    async () => Promise.reject(new Error('no answer from the server within 8000 ms')),
    async () => ({ ok: true }),
    async () => ({ ok: true, allowed: true }),
    async () => ({ ok: true, data: { allowed: 'yes' } }),
    async () => ({ ok: false, error: { code: 'SCHEMA_VALIDATION_FAILED', message: 'x' } }),
    async () => 'yes',
    async () => undefined,
  ]) {
    const w = await world();
    await w.guard.arm(7);
    w.answer = answer;
    w.pause(7, { requestId: 'r', request: { url: 'https://allowed.example/' } });
    await flush();
    assert.equal(
      w.commands(7, 'Fetch.failRequest'),
      [{ requestId: 'r', errorReason: 'BlockedByClient' }],
      String(answer),
    );
    assert.equal(w.commands(7, 'Fetch.continueRequest'), []);
  }
});

s('redirect hops are asked as stage "redirect"; an iframe is "sub" and blocking it leaves the page', async () => {
  const w = await world();
  await w.guard.arm(7);
  w.answer = async () => ({ ok: true, data: { allowed: false, error: { code: 'URL_BLOCKED', message: 'no' } } });
  w.pause(7, { requestId: 'r3', redirectedRequestId: 'r0', request: { url: 'http://10.0.0.1/' } });
  w.pause(7, { requestId: 'r4', frameId: 'CHILD', request: { url: 'http://10.0.0.2/' } });
  await flush();
  assert.equal(
    w.asked.map((q) => [q.stage, q.frame]),
    [
      ['redirect', 'main'],
      ['request', 'sub'],
    ],
  );
  assert.is(w.commands(7, 'Fetch.failRequest').length, 2);
  assert.is(w.commands(7, 'Page.navigate').length, 1, 'only the main frame is replaced');
});

s('a tab that is not a task tab is continued without asking', async () => {
  const w = await world();
  w.pause(9, { requestId: 'r5', request: { url: 'http://anything/' } });
  await flush();
  assert.equal(w.asked, []);
  assert.equal(w.commands(9, 'Fetch.continueRequest'), [{ requestId: 'r5' }]);
});

s("a tab opened from a task tab (in the task's group) is attached and intercepted at creation", async () => {
  const w = await world();
  const popup = w.browser.addTab({ id: 11, groupId: 50, url: '' });
  w.browser.events.tabCreated.fire(popup);
  await flush();
  assert.ok(w.guard.isGuarded(11));
  w.pause(11, { requestId: 'r6', request: { url: 'http://blocked.example/' } });
  await flush();
  assert.equal(w.asked.at(-1), {
    taskId: 'task-1',
    tabId: 11,
    url: 'http://blocked.example/',
    frame: 'main',
    stage: 'request',
  });
  const user = w.browser.addTab({ id: 12, openerTabId: 9 });
  w.browser.events.tabCreated.fire(user);
  await flush();
  assert.not.ok(w.guard.isGuarded(12), "the user's own tabs are left alone");
});

s(
  'a refused main-frame navigation is recorded for the action that caused it, once its decision (and the swap to about:blank) is done',
  async () => {
    const w = await world();
    await w.guard.arm(7);
    const blocks = w.guard.blocks;
    const mark = blocks.count(7);
    let answer!: (value: unknown) => void;
    w.answer = () => new Promise((resolve) => (answer = resolve));
    w.pause(7, { requestId: 'r5', request: { url: 'http://blocked.example/secret' } });
    await flush();
    let settled = false;
    const waiting = blocks.settled(7).then(() => (settled = true));
    await flush();
    assert.is(settled, false, 'the verdict is still out');
    assert.is(blocks.since(7, mark), null);
    answer({
      ok: true,
      data: {
        allowed: false,
        error: {
          code: 'URL_BLOCKED',
          message: 'blocked.example is not on the allowlist',
          details: { reason: 'not_allowlisted' },
        },
      },
    });
    await waiting;
    assert.equal(
      w.commands(7, 'Page.navigate'),
      [{ url: 'about:blank' }],
      'the tab is blank by the time settled resolves',
    );
    assert.equal(blocks.since(7, mark), {
      url: 'http://blocked.example/secret',
      error: {
        code: 'URL_BLOCKED',
        message: 'blocked.example is not on the allowlist',
        details: { reason: 'not_allowlisted' },
      },
    });
    assert.is(blocks.unreported(7)?.url, 'http://blocked.example/secret');
    blocks.reported(7);
    assert.is(blocks.unreported(7), null, 'told once');
    assert.ok(blocks.since(7, mark), 'still visible to a mark taken before it');
    assert.is(blocks.since(7, blocks.count(7)), null);
  },
);

s('an allowed navigation and a refused iframe are no refusal of the page', async () => {
  const w = await world();
  await w.guard.arm(7);
  w.pause(7, { requestId: 'r6', request: { url: 'https://allowed.example/next' } });
  await flush();
  w.answer = async () => ({ ok: true, data: { allowed: false, error: { code: 'URL_BLOCKED', message: 'no' } } });
  w.pause(7, { requestId: 'r7', frameId: 'CHILD', request: { url: 'http://10.0.0.2/' } });
  await w.guard.blocks.settled(7);
  assert.is(w.guard.blocks.count(7), 0);
  assert.is(w.guard.blocks.unreported(7), null);
});

s("an iframe's verdict still out does not hold up actions waiting for the page's own decisions", async () => {
  const w = await world();
  await w.guard.arm(7);
  await flush();
  let answer!: (value: unknown) => void;
  w.answer = () => new Promise((resolve) => (answer = resolve));
  w.pause(7, { requestId: 'r8', frameId: 'CHILD', request: { url: 'http://slow-dns.example/' } });
  await flush();
  let settled = false;
  await Promise.race([w.guard.blocks.settled(7).then(() => (settled = true)), flush()]);
  assert.is(settled, true);
  answer({ ok: true, data: { allowed: true } });
  await flush();
  assert.equal(w.commands(7, 'Fetch.continueRequest'), [{ requestId: 'r8' }]);
});

s.run();
