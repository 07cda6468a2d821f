// The browser's windows, tabs and tab groups in wire shape (transport/contracts snapshot.ts):
// converters from the extension API objects, and the full state read for full_state_sync.
import type { BrowserWindow, FullStateSync, Tab, TabGroup, TabLoadStatus } from '../../transport/contracts/index.ts';
import type { BrowserApi, BrowserTab, BrowserTabGroup, BrowserWindowInfo } from '../shared/browser-api.ts';

const loadStatuses: ReadonlySet<string> = new Set(['unloaded', 'loading', 'complete']);
const windowTypes: ReadonlySet<string> = new Set(['normal', 'popup', 'panel', 'app', 'devtools']);
const windowStates: ReadonlySet<string> = new Set([
  'normal',
  'minimized',
  'maximized',
  'fullscreen',
  'locked-fullscreen',
]);

function isId(n: number | undefined): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

/** A chrome tab in wire shape; null for tabs without an id (e.g. devtools). */
export function toWireTab(tab: BrowserTab): Tab | null {
  if (!isId(tab.id)) return null;
  const out: Tab = {
    tabId: tab.id,
    windowId: tab.windowId,
    active: tab.active,
    pinned: tab.pinned,
    hidden: tab.hidden ?? false,
    index: Math.max(0, tab.index),
  };
  const url = tab.url || tab.pendingUrl;
  if (url) out.url = url;
  if (tab.title !== undefined) out.title = tab.title;
  if (tab.favIconUrl) out.favIconUrl = tab.favIconUrl;
  if (typeof tab.groupId === 'number' && tab.groupId >= -1) out.groupId = tab.groupId;
  if (tab.status !== undefined && loadStatuses.has(tab.status)) out.status = tab.status as TabLoadStatus;
  if (tab.audible !== undefined) out.audible = tab.audible;
  if (tab.mutedInfo) out.muted = tab.mutedInfo.muted;
  if (tab.discarded !== undefined) out.discarded = tab.discarded;
  out.incognito = tab.incognito;
  if (isId(tab.openerTabId)) out.openerTabId = tab.openerTabId;
  if (typeof tab.lastAccessed === 'number') out.lastAccessed = tab.lastAccessed;
  return out;
}

export function toWireWindow(window: BrowserWindowInfo): BrowserWindow | null {
  if (!isId(window.id)) return null;
  const out: BrowserWindow = { windowId: window.id, focused: window.focused, incognito: window.incognito };
  if (window.type !== undefined && windowTypes.has(window.type))
    out.type = window.type as NonNullable<BrowserWindow['type']>;
  if (window.state !== undefined && windowStates.has(window.state))
    out.state = window.state as NonNullable<BrowserWindow['state']>;
  if (isId(window.width)) out.width = window.width;
  if (isId(window.height)) out.height = window.height;
  return out;
}

export function toWireGroup(group: BrowserTabGroup): TabGroup {
  const out: TabGroup = { groupId: group.id, windowId: group.windowId, color: group.color, collapsed: group.collapsed };
  if (group.title !== undefined) out.title = group.title;
  return out;
}

export type SnapshotContent = Pick<FullStateSync, 'windows' | 'tabs' | 'tabGroups' | 'activeWindowId' | 'activeTabId'>;

/** Reads every window (with its tabs) and tab group. */
export async function readSnapshot(browser: BrowserApi): Promise<SnapshotContent> {
  const [windowInfos, groups] = await Promise.all([
    browser.windows.getAll({ populate: true }),
    browser.tabGroups
      ? browser.tabGroups.query({}).catch(() => [] as BrowserTabGroup[])
      : Promise.resolve([] as BrowserTabGroup[]),
  ]);
  const windows: BrowserWindow[] = [];
  const tabs: Tab[] = [];
  for (const info of windowInfos) {
    const window = toWireWindow(info);
    if (window === null) continue;
    windows.push(window);
    tabs.push(...(info.tabs ?? []).map(toWireTab).filter((tab): tab is Tab => tab !== null));
  }
  // The focused window, or (no window focused, e.g. headless) the first one.
  const activeWindowId = (windows.find((w) => w.focused) ?? windows[0])?.windowId ?? null;
  const activeTabId = tabs.find((tab) => tab.windowId === activeWindowId && tab.active)?.tabId ?? null;
  return { windows, tabs, tabGroups: groups.map(toWireGroup), activeWindowId, activeTabId };
}
