// A mutable working copy of one client's snapshot, and the structural operations every
// event is made of: place a tab at an index (re-numbering its window), remove a tab, mark the
// active tab of a window, and re-derive activeWindowId / activeTabId. Tab, window and group
// objects are never mutated, only replaced, so a published state can share them safely.
import type { BrowserWindow, SnapshotState, Tab, TabGroup } from '../../transport/contracts/index.ts';

export interface SnapshotContent {
  windows: readonly BrowserWindow[];
  tabs: readonly Tab[];
  tabGroups: readonly TabGroup[];
  activeWindowId: number | null;
  activeTabId: number | null;
}

export interface SnapshotDraft {
  windows: Map<number, BrowserWindow>;
  tabs: Map<number, Tab>;
  groups: Map<number, TabGroup>;
  activeWindowId: number | null;
  activeTabId: number | null;
}

/** chrome.windows.WINDOW_ID_NONE / chrome.tabGroups.TAB_GROUP_ID_NONE */
export const WINDOW_ID_NONE = -1;
export const GROUP_ID_NONE = -1;

export function draftOf(content: SnapshotContent): SnapshotDraft {
  return {
    windows: new Map(content.windows.map((w) => [w.windowId, w])),
    tabs: new Map(content.tabs.map((t) => [t.tabId, t])),
    groups: new Map(content.tabGroups.map((g) => [g.groupId, g])),
    activeWindowId: content.activeWindowId,
    activeTabId: content.activeTabId,
  };
}

function frozen<T extends object>(items: T[]): readonly T[] {
  for (const item of items) Object.freeze(item);
  return Object.freeze(items);
}

/** The published state: windows by id, tabs by window then index, groups by id; frozen. */
export function stateOf(draft: SnapshotDraft, lastUpdated: number): SnapshotState {
  const state = {
    windows: frozen([...draft.windows.values()].sort((a, b) => a.windowId - b.windowId)),
    tabs: frozen(
      [...draft.tabs.values()].sort((a, b) => a.windowId - b.windowId || a.index - b.index || a.tabId - b.tabId),
    ),
    tabGroups: frozen([...draft.groups.values()].sort((a, b) => a.groupId - b.groupId)),
    activeWindowId: draft.activeWindowId,
    activeTabId: draft.activeTabId,
    lastUpdated,
  };
  return Object.freeze(state) as SnapshotState;
}

export function tabsOfWindow(draft: SnapshotDraft, windowId: number): Tab[] {
  return [...draft.tabs.values()]
    .filter((t) => t.windowId === windowId)
    .sort((a, b) => a.index - b.index || a.tabId - b.tabId);
}

function renumber(draft: SnapshotDraft, ordered: Tab[]): void {
  ordered.forEach((tab, index) => draft.tabs.set(tab.tabId, tab.index === index ? tab : { ...tab, index }));
}

/** Removes a tab and closes the gap in its window's indices. Returns the removed tab. */
export function removeTab(draft: SnapshotDraft, tabId: number): Tab | undefined {
  const tab = draft.tabs.get(tabId);
  if (tab === undefined) return undefined;
  draft.tabs.delete(tabId);
  renumber(draft, tabsOfWindow(draft, tab.windowId));
  return tab;
}

/**
 * Puts `tab` into its window at `index` (clamped), shifting the others, as Chrome does on
 * create / move / attach. A tab that was in another window leaves that one first.
 */
export function placeTab(draft: SnapshotDraft, tab: Tab, index: number): void {
  const previous = draft.tabs.get(tab.tabId);
  if (previous !== undefined && previous.windowId !== tab.windowId) removeTab(draft, tab.tabId);
  const siblings = tabsOfWindow(draft, tab.windowId).filter((t) => t.tabId !== tab.tabId);
  const at = Math.max(0, Math.min(index, siblings.length));
  siblings.splice(at, 0, tab);
  renumber(draft, siblings);
}

/** Marks `tabId` as the window's active tab (one active tab per window). */
export function activateInWindow(draft: SnapshotDraft, windowId: number, tabId: number | undefined): void {
  for (const tab of tabsOfWindow(draft, windowId)) {
    const active = tab.tabId === tabId;
    if (tab.active !== active) draft.tabs.set(tab.tabId, { ...tab, active });
  }
}

export function windowExists(draft: SnapshotDraft, windowId: number): boolean {
  if (draft.windows.has(windowId)) return true;
  for (const tab of draft.tabs.values()) if (tab.windowId === windowId) return true;
  return false;
}

/** Sets `focused` on exactly one window (or none for WINDOW_ID_NONE). */
export function focusWindow(draft: SnapshotDraft, windowId: number): void {
  for (const window of draft.windows.values()) {
    const focused = window.windowId === windowId;
    if (window.focused !== focused) draft.windows.set(window.windowId, { ...window, focused });
  }
}

/**
 * The invariant after every change: activeWindowId is the focused window, else the last
 * active one while it still exists (Chrome losing focus to another app keeps it), else the
 * window of a still-known activeTabId; activeTabId is the active tab of that window or null.
 */
export function reconcileActive(draft: SnapshotDraft): void {
  const focused = [...draft.windows.values()].find((w) => w.focused);
  if (focused !== undefined) draft.activeWindowId = focused.windowId;
  else if (draft.activeWindowId !== null && !windowExists(draft, draft.activeWindowId)) draft.activeWindowId = null;
  if (draft.activeWindowId === null && draft.activeTabId !== null) {
    draft.activeWindowId = draft.tabs.get(draft.activeTabId)?.windowId ?? null;
  }
  const windowId = draft.activeWindowId;
  draft.activeTabId = windowId === null ? null : (tabsOfWindow(draft, windowId).find((t) => t.active)?.tabId ?? null);
}
