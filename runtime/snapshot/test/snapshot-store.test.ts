// full_state_sync, seq, onChange, debug lines, current(): staleness, selection of the client.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSnapshotStore } from '../snapshot-store.ts';
import { fullSync, makeStore, tab, tabEvent, T0, twoWindows, win } from './util.ts';
import type { SnapshotHarness } from './util.ts';

const sync = suite<{ h: SnapshotHarness }>('snapshot: full_state_sync');
sync.before.each((ctx) => {
  ctx.h = makeStore();
});

sync('a full sync replaces the client snapshot and stamps lastUpdated with the server clock', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  h.clock.increment(100);
  const result = h.store.applyFullSync(
    'p',
    fullSync({ windows: [win(3, true)], tabs: [tab(30, 3, 0, { active: true })], activeWindowId: 3, activeTabId: 30 }),
  );
  assert.ok(result.ok);
  const state = h.store.state('p')!;
  assert.equal(
    state.windows.map((w) => w.windowId),
    [3],
  );
  assert.equal(
    state.tabs.map((t) => t.tabId),
    [30],
  );
  assert.equal(state.tabGroups, []);
  assert.is(state.activeTabId, 30);
  assert.is(state.lastUpdated, T0 + 100);
});

sync('content without v/type is accepted as well', ({ h }) => {
  const { windows, tabs, tabGroups, activeWindowId, activeTabId } = twoWindows();
  assert.ok(h.store.applyFullSync('p', { windows, tabs, tabGroups, activeWindowId, activeTabId }).ok);
  assert.is(h.store.state('p')!.tabs.length, 5);
});

sync('an invalid full sync is refused with field errors and changes nothing', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  const before = h.store.state('p');
  const result = h.store.applyFullSync('p', { ...twoWindows(), tabs: [{ tabId: 'x', windowId: 1 }] });
  assert.is(result.ok, false);
  if (result.ok) return;
  assert.is(result.error.code, 'SCHEMA_VALIDATION_FAILED');
  assert.ok(
    result.error.fieldErrors.some((e) => e.field === 'tabs.0.tabId'),
    JSON.stringify(result.error.fieldErrors),
  );
  assert.is(h.store.state('p'), before);
  assert.is(h.changes.length, 1);
  assert.not.ok(h.store.applyFullSync('p', null).ok);
  assert.not.ok(h.store.applyFullSync('', twoWindows()).ok);
  assert.not.ok(h.store.applyTabEvent('p', { v: 1, type: 'tab_event', eventType: 'tab_exploded', timestamp: T0 }).ok);
  assert.is(h.changes.length, 1);
});

sync('an inconsistent activeTabId is re-derived from the active flags of the active window', ({ h }) => {
  h.store.applyFullSync('p', { ...twoWindows(), activeTabId: 20 });
  assert.is(h.store.state('p')!.activeTabId, 10);
  h.store.applyFullSync('p', { ...twoWindows(), windows: [win(1), win(2)], activeWindowId: null, activeTabId: 21 });
  const state = h.store.state('p')!;
  assert.is(state.activeWindowId, 2, 'window of the given activeTabId');
  assert.is(state.activeTabId, 20, 'the tab window 2 marks active');
});

sync('published states are frozen and later changes do not alter them', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  const first = h.store.state('p')!;
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.tabs) && Object.isFrozen(first.tabs[0]));
  h.store.applyTabEvent('p', tabEvent('tab_updated', { tab: tab(10, 1, 0, { active: true, title: 'changed' }) }));
  assert.is(first.tabs[0]!.title, 'Tab 10');
  assert.is(h.store.state('p')!.tabs[0]!.title, 'changed');
});

sync.run();

const seq = suite<{ h: SnapshotHarness }>('snapshot: seq and onChange');
seq.before.each((ctx) => {
  ctx.h = makeStore();
});

seq('every change bumps one process-wide seq, across clients, and calls onChange with the state', ({ h }) => {
  h.store.applyFullSync('a', twoWindows());
  h.store.applyFullSync('b', twoWindows());
  h.store.applyTabEvent('a', tabEvent('tab_removed', { tabId: 11 }));
  h.store.applyTabEvent('b', tabEvent('window_focus_changed', { windowId: 2 }));
  assert.equal(
    h.changes.map((c) => [c.clientId, c.seq, c.cause]),
    [
      ['a', 1, 'full_state_sync'],
      ['b', 2, 'full_state_sync'],
      ['a', 3, 'tab_removed'],
      ['b', 4, 'window_focus_changed'],
    ],
  );
  assert.is(h.changes[2]!.state, h.store.state('a'));
  assert.is(h.changes[3]!.state.activeTabId, 20);
});

seq('seq strictly increases over a long mixed sequence', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  for (let i = 0; i < 50; i++) {
    h.store.applyTabEvent(i % 2 ? 'p' : 'q', tabEvent('tab_created', { tab: tab(100 + i, 1, 0) }));
    if (i % 7 === 0) h.store.applyFullSync('p', twoWindows());
  }
  const seqs = h.changes.map((c) => c.seq);
  assert.ok(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!));
  assert.is(seqs.at(-1), h.changes.length);
});

seq('debugLog gets one line per change naming seq, client, cause and warnings', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  h.store.applyTabEvent('p', tabEvent('tab_removed', { tabId: 999 }));
  assert.is(h.lines.length, 2);
  assert.is(
    h.lines[0],
    '[snapshot] seq=1 client=p full_state_sync windows=2 tabs=5 groups=1 activeWindowId=1 activeTabId=10',
  );
  assert.match(h.lines[1]!, /seq=2 client=p tab_removed .*warning="tab_removed for unknown tab 999"/);
});

seq('no onChange or debugLog given is fine', () => {
  const store = createSnapshotStore({ clock: { now: () => 5 } });
  assert.ok(store.applyFullSync('p', twoWindows()).ok);
});

seq.run();

const current = suite<{ h: SnapshotHarness }>('snapshot: current() freshness');
current.before.each((ctx) => {
  ctx.h = makeStore();
});

current('nothing synced: an empty, stale snapshot', ({ h }) => {
  assert.equal(h.store.current(undefined, { connected: false }), {
    windows: [],
    tabs: [],
    tabGroups: [],
    activeWindowId: null,
    activeTabId: null,
    lastUpdated: null,
    connected: false,
    ageMs: null,
    stale: true,
    clientId: null,
    seq: null,
  });
  assert.is(h.store.current('nobody', { connected: true }).clientId, 'nobody');
  assert.is(h.store.current('nobody', { connected: true }).stale, true);
});

current('fresh while connected and at most 30 s old; stale after 30 s', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  h.clock.increment(1200);
  let snap = h.store.current('p', { connected: true });
  assert.equal(
    [snap.connected, snap.ageMs, snap.stale, snap.lastUpdated, snap.seq, snap.clientId],
    [true, 1200, false, T0, 1, 'p'],
  );
  h.clock.increment(30_000 - 1200);
  assert.is(h.store.current('p', { connected: true }).stale, false, 'exactly 30 s is not yet stale');
  h.clock.increment(1);
  snap = h.store.current('p', { connected: true });
  assert.equal([snap.ageMs, snap.stale], [30_001, true]);
  assert.is(snap.tabs.length, 5, 'the last snapshot is still returned');
});

current('offline is stale even when fresh', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  const snap = h.store.current('p', { connected: false });
  assert.equal([snap.connected, snap.ageMs, snap.stale], [false, 0, true]);
});

current('a tab_event refreshes the age', ({ h }) => {
  h.store.applyFullSync('p', twoWindows());
  h.clock.increment(40_000);
  h.store.applyTabEvent('p', tabEvent('tab_activated', { tabId: 11, windowId: 1 }));
  assert.is(h.store.current('p', { connected: true }).stale, false);
});

current('without a clientId: the most recently updated client', ({ h }) => {
  h.store.applyFullSync('a', twoWindows());
  h.store.applyFullSync('b', fullSync({ windows: [win(9, true)], tabs: [tab(90, 9, 0, { active: true })] }));
  assert.is(h.store.current(undefined, { connected: true }).clientId, 'b');
  assert.is(h.store.latestClientId(), 'b');
  h.store.applyTabEvent('a', tabEvent('tab_removed', { tabId: 12 }));
  assert.is(h.store.current(null, { connected: true }).clientId, 'a');
  assert.is(h.store.current('', { connected: true }).activeTabId, 10);
  h.store.forget('a');
  assert.is(h.store.latestClientId(), 'b');
  assert.is(h.store.state('a'), undefined);
});

current.run();
