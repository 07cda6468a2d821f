// Shared helpers for the snapshot store tests: a fake clock, message builders, a harness.
import type { BrowserWindow, Tab, TabGroup } from '../../../transport/contracts/index.ts';
import { createSnapshotStore } from '../snapshot-store.ts';
import type { SnapshotChange, SnapshotStore } from '../snapshot-types.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

export const T0 = 1_730_000_000_000;

export function tab(tabId: number, windowId: number, index: number, extra: Partial<Tab> = {}): Tab {
  return {
    tabId,
    windowId,
    index,
    active: false,
    pinned: false,
    hidden: false,
    url: `https://example.test/${tabId}`,
    title: `Tab ${tabId}`,
    ...extra,
  };
}

export function win(windowId: number, focused = false): BrowserWindow {
  return { windowId, focused, type: 'normal', state: 'normal' };
}

export function group(groupId: number, windowId: number, extra: Partial<TabGroup> = {}): TabGroup {
  return { groupId, windowId, title: `Group ${groupId}`, color: 'blue', collapsed: false, ...extra };
}

export function fullSync(content: {
  windows?: BrowserWindow[];
  tabs?: Tab[];
  tabGroups?: TabGroup[];
  activeWindowId?: number | null;
  activeTabId?: number | null;
}) {
  return {
    v: 1,
    type: 'full_state_sync',
    windows: content.windows ?? [],
    tabs: content.tabs ?? [],
    tabGroups: content.tabGroups ?? [],
    activeWindowId: content.activeWindowId ?? null,
    activeTabId: content.activeTabId ?? null,
    timestamp: T0,
  };
}

export function tabEvent(eventType: string, fields: Record<string, unknown>) {
  return { v: 1, type: 'tab_event', eventType, timestamp: T0, ...fields };
}

export interface SnapshotHarness {
  clock: TestClock;
  store: SnapshotStore;
  changes: SnapshotChange[];
  lines: string[];
}

export function makeStore(): SnapshotHarness {
  const clock = createTestClock(T0);
  const changes: SnapshotChange[] = [];
  const lines: string[] = [];
  const store = createSnapshotStore({ clock, onChange: (c) => changes.push(c), debugLog: (l) => lines.push(l) });
  return { clock, store, changes, lines };
}

/** Two windows: window 1 (focused) with tabs 10 (active), 11, 12; window 2 with tabs 20 (active), 21; group 5 in window 1. */
export function twoWindows() {
  return fullSync({
    windows: [win(1, true), win(2)],
    tabs: [
      tab(10, 1, 0, { active: true }),
      tab(11, 1, 1, { groupId: 5 }),
      tab(12, 1, 2, { groupId: 5 }),
      tab(20, 2, 0, { active: true }),
      tab(21, 2, 1),
    ],
    tabGroups: [group(5, 1)],
    activeWindowId: 1,
    activeTabId: 10,
  });
}

/** `[tabId, windowId, index, active]` rows in output order, for compact assertions. */
export function layout(store: SnapshotStore, clientId = 'p'): Array<[number, number, number, boolean]> {
  return (store.state(clientId)?.tabs ?? []).map((t) => [t.tabId, t.windowId, t.index, t.active]);
}
