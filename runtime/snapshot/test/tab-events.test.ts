// Every tab_event type patches the snapshot as Chrome's event means, with indices renumbered
// and activeWindowId / activeTabId kept consistent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { group, layout, makeStore, tab, tabEvent, twoWindows, win } from './util.ts';
import type { SnapshotHarness } from './util.ts';

const tabs = suite<{ h: SnapshotHarness }>('snapshot: tab events');
tabs.before.each((ctx) => {
  ctx.h = makeStore();
  ctx.h.store.applyFullSync('p', twoWindows());
});

const apply = (h: SnapshotHarness, eventType: string, fields: Record<string, unknown>) => {
  const result = h.store.applyTabEvent('p', tabEvent(eventType, fields));
  assert.ok(result.ok, JSON.stringify(result));
  return result;
};
const active = (h: SnapshotHarness) => {
  const s = h.store.state('p')!;
  return [s.activeWindowId, s.activeTabId];
};

tabs('tab_created inserts at its index and shifts the tabs after it', ({ h }) => {
  apply(h, 'tab_created', { tab: tab(13, 1, 1) });
  assert.equal(layout(h.store), [
    [10, 1, 0, true],
    [13, 1, 1, false],
    [11, 1, 2, false],
    [12, 1, 3, false],
    [20, 2, 0, true],
    [21, 2, 1, false],
  ]);
  assert.equal(active(h), [1, 10]);
});

tabs('tab_created active in the active window becomes the active tab', ({ h }) => {
  apply(h, 'tab_created', { tab: tab(14, 1, 3, { active: true }) });
  assert.equal(active(h), [1, 14]);
  assert.equal(
    layout(h.store)
      .filter((r) => r[1] === 1 && r[3])
      .map((r) => r[0]),
    [14],
    'one active tab per window',
  );
});

tabs('tab_created active in another window does not change the active tab', ({ h }) => {
  apply(h, 'tab_created', { tab: tab(22, 2, 0, { active: true }) });
  assert.equal(active(h), [1, 10]);
  assert.equal(
    layout(h.store).filter((r) => r[1] === 2),
    [
      [22, 2, 0, true],
      [20, 2, 1, false],
      [21, 2, 2, false],
    ],
  );
});

tabs('tab_updated replaces given fields and keeps the ones it leaves out', ({ h }) => {
  const { url: _url, title: _title, ...sparse } = tab(11, 1, 1, { status: 'loading' });
  apply(h, 'tab_updated', { tab: { ...sparse, url: 'https://example.test/new' } });
  const updated = h.store.state('p')!.tabs.find((t) => t.tabId === 11)!;
  assert.equal(
    [updated.url, updated.title, updated.status, updated.groupId],
    ['https://example.test/new', 'Tab 11', 'loading', 5],
  );
});

tabs('tab_updated with active: true moves the active tab', ({ h }) => {
  apply(h, 'tab_updated', { tab: tab(12, 1, 2, { active: true }) });
  assert.equal(active(h), [1, 12]);
  assert.is(h.store.state('p')!.tabs.find((t) => t.tabId === 10)!.active, false);
});

tabs('tab_updated for an unknown tab adds it and warns', ({ h }) => {
  const result = apply(h, 'tab_updated', { tab: tab(77, 2, 5) });
  assert.ok(result.ok && result.warning?.includes('unknown tab 77'));
  assert.equal(
    layout(h.store).filter((r) => r[1] === 2),
    [
      [20, 2, 0, true],
      [21, 2, 1, false],
      [77, 2, 2, false],
    ],
    'index clamped to the end',
  );
});

tabs('tab_removed drops the tab and closes the gap; removing the active tab leaves none active', ({ h }) => {
  apply(h, 'tab_removed', { tabId: 11, windowId: 1 });
  assert.equal(
    layout(h.store).filter((r) => r[1] === 1),
    [
      [10, 1, 0, true],
      [12, 1, 1, false],
    ],
  );
  apply(h, 'tab_removed', { tabId: 10, windowId: 1 });
  assert.equal(active(h), [1, null]);
  assert.equal(
    layout(h.store).filter((r) => r[1] === 1),
    [[12, 1, 0, false]],
  );
});

tabs('tab_activated switches the active tab of its window', ({ h }) => {
  apply(h, 'tab_activated', { tabId: 12, windowId: 1 });
  assert.equal(active(h), [1, 12]);
  assert.equal(
    layout(h.store)
      .filter((r) => r[3])
      .map((r) => r[0]),
    [12, 20],
  );
  apply(h, 'tab_activated', { tabId: 21, windowId: 2 });
  assert.equal(active(h), [1, 12], 'a tab activated in a background window is not the active tab');
  assert.equal(
    layout(h.store)
      .filter((r) => r[3])
      .map((r) => r[0]),
    [12, 21],
  );
});

tabs('tab_activated for an unknown tab warns and leaves no tab active in that window', ({ h }) => {
  const result = apply(h, 'tab_activated', { tabId: 99, windowId: 1 });
  assert.ok(result.ok && result.warning === 'tab_activated for unknown tab 99');
  assert.equal(active(h), [1, null]);
});

tabs('tab_moved within a window renumbers the tabs between', ({ h }) => {
  apply(h, 'tab_moved', { tabId: 10, windowId: 1, fromIndex: 0, toIndex: 2 });
  assert.equal(
    layout(h.store).filter((r) => r[1] === 1),
    [
      [11, 1, 0, false],
      [12, 1, 1, false],
      [10, 1, 2, true],
    ],
  );
  assert.equal(active(h), [1, 10]);
  apply(h, 'tab_moved', { tabId: 12, windowId: 1, toIndex: 0 });
  assert.equal(
    layout(h.store)
      .filter((r) => r[1] === 1)
      .map((r) => r[0]),
    [12, 11, 10],
  );
});

tabs('tab_moved for an unknown tab without a tab object changes nothing but warns', ({ h }) => {
  const before = layout(h.store);
  const result = apply(h, 'tab_moved', { tabId: 55, windowId: 1, toIndex: 0 });
  assert.ok(result.ok && result.warning?.includes('unknown tab 55'));
  assert.equal(layout(h.store), before);
});

tabs('tab_detached then tab_attached moves a tab to another window', ({ h }) => {
  apply(h, 'tab_detached', { tabId: 11, windowId: 1 });
  assert.equal(
    layout(h.store).filter((r) => r[1] === 1),
    [
      [10, 1, 0, true],
      [12, 1, 1, false],
    ],
  );
  assert.not.ok(
    h.store.state('p')!.tabs.some((t) => t.tabId === 11),
    'a detached tab is in no window',
  );
  apply(h, 'tab_attached', { tab: tab(11, 2, 1, { groupId: -1 }) });
  assert.equal(
    layout(h.store).filter((r) => r[1] === 2),
    [
      [20, 2, 0, true],
      [11, 2, 1, false],
      [21, 2, 2, false],
    ],
  );
  assert.is(h.store.state('p')!.tabs.find((t) => t.tabId === 11)!.title, 'Tab 11');
});

tabs('tab_attached without a detach leaves the old window consistent', ({ h }) => {
  apply(h, 'tab_attached', { tab: tab(10, 2, 0, { active: true }) });
  assert.equal(
    layout(h.store).filter((r) => r[1] === 1),
    [
      [11, 1, 0, false],
      [12, 1, 1, false],
    ],
  );
  assert.equal(
    layout(h.store).filter((r) => r[1] === 2),
    [
      [10, 2, 0, true],
      [20, 2, 1, false],
      [21, 2, 2, false],
    ],
  );
  assert.equal(active(h), [1, null], 'window 1 has no active tab until Chrome activates one');
});

tabs.run();

const windows = suite<{ h: SnapshotHarness }>('snapshot: window events');
windows.before.each((ctx) => {
  ctx.h = makeStore();
  ctx.h.store.applyFullSync('p', twoWindows());
});

windows('window_created adds the window; a focused one becomes the active window', ({ h }) => {
  apply(h, 'window_created', { window: win(3) });
  assert.equal(
    h.store.state('p')!.windows.map((w) => [w.windowId, w.focused]),
    [
      [1, true],
      [2, false],
      [3, false],
    ],
  );
  assert.equal(active(h), [1, 10]);
  apply(h, 'window_created', { window: win(4, true) });
  apply(h, 'tab_created', { tab: tab(40, 4, 0, { active: true }) });
  assert.equal(
    h.store
      .state('p')!
      .windows.filter((w) => w.focused)
      .map((w) => w.windowId),
    [4],
  );
  assert.equal(active(h), [4, 40]);
});

windows('window_focus_changed moves the active window and its active tab', ({ h }) => {
  apply(h, 'window_focus_changed', { windowId: 2 });
  assert.equal(active(h), [2, 20]);
  assert.equal(
    h.store.state('p')!.windows.map((w) => w.focused),
    [false, true],
  );
});

windows('focus leaving Chrome (-1) keeps the last active window and tab', ({ h }) => {
  apply(h, 'window_focus_changed', { windowId: 2 });
  apply(h, 'window_focus_changed', { windowId: -1 });
  assert.equal(active(h), [2, 20]);
  assert.equal(
    h.store.state('p')!.windows.map((w) => w.focused),
    [false, false],
  );
});

windows('focus on a window the snapshot does not know keeps the last active window and warns', ({ h }) => {
  const result = apply(h, 'window_focus_changed', { windowId: 42 });
  assert.ok(result.ok && result.warning?.includes('unknown window 42'));
  assert.equal(active(h), [1, 10]);
});

windows('window_removed drops its tabs and groups; the active window falls to the focused one or none', ({ h }) => {
  apply(h, 'window_removed', { windowId: 1 });
  const state = h.store.state('p')!;
  assert.equal(
    state.windows.map((w) => w.windowId),
    [2],
  );
  assert.equal(
    state.tabs.map((t) => t.tabId),
    [20, 21],
  );
  assert.equal(state.tabGroups, []);
  assert.equal(active(h), [null, null]);
  apply(h, 'window_focus_changed', { windowId: 2 });
  assert.equal(active(h), [2, 20]);
});

windows('removing a background window keeps the active one', ({ h }) => {
  apply(h, 'window_removed', { windowId: 2 });
  assert.equal(active(h), [1, 10]);
  assert.equal(
    h.store.state('p')!.tabs.map((t) => t.tabId),
    [10, 11, 12],
  );
});

windows.run();

const groups = suite<{ h: SnapshotHarness }>('snapshot: group events');
groups.before.each((ctx) => {
  ctx.h = makeStore();
  ctx.h.store.applyFullSync('p', twoWindows());
});

groups('group_created adds a group', ({ h }) => {
  apply(h, 'group_created', { group: group(6, 2, { color: 'red' }) });
  assert.equal(
    h.store.state('p')!.tabGroups.map((g) => [g.groupId, g.windowId, g.color]),
    [
      [5, 1, 'blue'],
      [6, 2, 'red'],
    ],
  );
});

groups('group_updated changes given fields and keeps the rest', ({ h }) => {
  apply(h, 'group_updated', { group: { groupId: 5, windowId: 1, collapsed: true } });
  assert.equal(h.store.state('p')!.tabGroups, [
    { groupId: 5, windowId: 1, title: 'Group 5', color: 'blue', collapsed: true },
  ]);
});

groups('group_removed drops the group and ungroups its tabs', ({ h }) => {
  apply(h, 'group_removed', { groupId: 5, windowId: 1 });
  const state = h.store.state('p')!;
  assert.equal(state.tabGroups, []);
  assert.equal(
    state.tabs.filter((t) => t.windowId === 1).map((t) => t.groupId),
    [undefined, -1, -1],
  );
  const result = apply(h, 'group_removed', { groupId: 5 });
  assert.ok(result.ok && result.warning === 'group_removed for unknown group 5');
});

groups.run();

const fresh = suite('snapshot: events before any full sync');

fresh('a client that never synced starts from an empty snapshot', () => {
  const h = makeStore();
  apply(h, 'window_created', { window: win(1, true) });
  apply(h, 'tab_created', { tab: tab(1, 1, 0, { active: true }) });
  apply(h, 'tab_created', { tab: tab(2, 1, 1) });
  assert.equal(layout(h.store), [
    [1, 1, 0, true],
    [2, 1, 1, false],
  ]);
  assert.equal(active(h), [1, 1]);
});

fresh('with no window list at all, tab_activated still sets the active window and tab', () => {
  const h = makeStore();
  apply(h, 'tab_created', { tab: tab(1, 7, 0) });
  apply(h, 'tab_activated', { tabId: 1, windowId: 7 });
  assert.equal(active(h), [7, 1]);
});

fresh.run();
