import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TabEventSchema, validate } from '../../transport/contracts/index.ts';
import { installFocusGuard } from '../background/focus-guard.ts';
import { keyStrokes } from '../background/key-events.ts';
import { base64ToBytes, pngSize } from '../background/png-size.ts';
import { readSnapshot, toWireTab } from '../background/snapshot.ts';
import { forwardTabEvents } from '../background/tab-event-forwarder.ts';
import { fakeBrowser } from './fakes/fake-browser.ts';

const snapshot = suite('snapshot and tab events');

snapshot('chrome tabs in wire shape; tabs without an id are left out', () => {
  assert.equal(
    toWireTab({
      id: 3,
      windowId: 1,
      index: 0,
      active: true,
      pinned: false,
      incognito: false,
      url: 'https://a/',
      groupId: -1,
      status: 'complete',
      mutedInfo: { muted: true },
    }),
    {
      tabId: 3,
      windowId: 1,
      active: true,
      pinned: false,
      hidden: false,
      index: 0,
      url: 'https://a/',
      groupId: -1,
      status: 'complete',
      muted: true,
      incognito: false,
    },
  );
  assert.is(toWireTab({ windowId: 1, index: 0, active: false, pinned: false, incognito: false }), null);
  assert.is(
    toWireTab({
      id: 4,
      windowId: 1,
      index: 0,
      active: false,
      pinned: false,
      incognito: false,
      pendingUrl: 'https://b/',
    })?.url,
    'https://b/',
  );
});

snapshot('readSnapshot: every window, tab and group; the focused window and its active tab', async () => {
  const browser = fakeBrowser();
  browser.addTab({ id: 1, windowId: 1, active: false });
  browser.addTab({ id: 2, windowId: 1, active: true });
  browser.addTab({ id: 3, windowId: 2, active: true });
  await browser.tabs.group({ tabIds: [1] });
  const state = await readSnapshot(browser);
  assert.equal(
    state.windows.map((w) => w.windowId),
    [1, 2],
  );
  assert.is(state.tabs.length, 3);
  assert.is(state.activeWindowId, 1);
  assert.is(state.activeTabId, 2);
  assert.equal(
    state.tabGroups.map((g) => g.groupId),
    [500],
  );
});

snapshot('every change is forwarded as a valid tab_event, and removed listeners stop', () => {
  const browser = fakeBrowser();
  const sent: unknown[] = [];
  const removed: number[] = [];
  const stop = forwardTabEvents({
    browser,
    now: () => 42,
    send: (e) => sent.push(e),
    onTabRemoved: (id) => removed.push(id),
  });
  const tab = browser.addTab({ id: 5, url: 'https://a/' });
  browser.events.tabCreated.fire(tab);
  browser.events.tabUpdated.fire(5, { status: 'loading' }, tab);
  browser.events.tabActivated.fire({ tabId: 5, windowId: 1 });
  browser.events.tabRemoved.fire(5, { windowId: 1, isWindowClosing: true });
  (browser.windows.onFocusChanged as any).fire(-1);
  (browser.tabGroups!.onUpdated as any).fire({ id: 9, windowId: 1, color: 'blue', collapsed: false, title: 'Task' });
  assert.equal(
    sent.map((e: any) => e.eventType),
    ['tab_created', 'tab_updated', 'tab_activated', 'tab_removed', 'window_focus_changed', 'group_updated'],
  );
  for (const event of sent) assert.ok(validate(TabEventSchema, event).ok, JSON.stringify(event));
  assert.equal(removed, [5]);
  stop();
  browser.events.tabActivated.fire({ tabId: 5, windowId: 1 });
  assert.is(sent.length, 6);
});

const focus = suite('focus guard');

focus('a task tab the page opened in the foreground gives the focus back to the user tab', async () => {
  const browser = fakeBrowser();
  browser.addTab({ id: 1, active: true });
  const guard = installFocusGuard(browser, () => 1_000);
  await new Promise((resolve) => setImmediate(resolve));
  browser.events.tabActivated.fire({ tabId: 9, windowId: 1 });
  guard.taskTabOpened(9);
  assert.equal(browser.calls.at(-1), ['tabs.update', 1, { active: true }]);
  browser.events.tabActivated.fire({ tabId: 1, windowId: 1 });
  browser.events.tabActivated.fire({ tabId: 9, windowId: 1 });
  assert.is(browser.calls.length, 1, 'the user activating the tab later is left alone');
});

focus('tabs that are not task tabs are never touched', async () => {
  const browser = fakeBrowser();
  browser.addTab({ id: 1, active: true });
  installFocusGuard(browser, () => 1_000);
  browser.events.tabActivated.fire({ tabId: 2, windowId: 1 });
  assert.equal(browser.calls, []);
});

const encoding = suite('key strokes and PNG size');

encoding('printable ASCII as key events, newline as Enter, the rest via insertText', () => {
  const strokes = keyStrokes('aB 1\n你好!');
  assert.equal(
    strokes.map((s) => (s.kind === 'key' ? s.down.key : `insert:${s.text}`)),
    ['a', 'B', ' ', '1', 'Enter', 'insert:你好', '!'],
  );
  const upper = strokes[1]!;
  assert.equal(upper.kind === 'key' ? [upper.down.code, upper.down.windowsVirtualKeyCode, upper.down.modifiers] : [], [
    'KeyB',
    66,
    8,
  ]);
});

encoding('pngSize reads IHDR; anything else is null', () => {
  const png = base64ToBytes(
    Buffer.from('89504e470d0a1a0a0000000d4948445200000500000002d00806000000', 'hex').toString('base64'),
  );
  assert.equal(pngSize(png), { width: 1280, height: 720 });
  assert.is(pngSize(new Uint8Array(30)), null);
});

snapshot.run();
focus.run();
encoding.run();
