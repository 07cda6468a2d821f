// Patches a snapshot draft with one `tab_event` (seed 001 §3.5 (3)), one handler per
// eventType, mirroring what Chrome's tabs / windows / tabGroups events mean. Each handler may
// return a warning (an event about something the snapshot does not know) for the debug log;
// the caller re-derives activeWindowId / activeTabId afterwards.
import type { Tab, TabEvent, TabEventType } from '../../transport/contracts/index.ts';
import {
  activateInWindow,
  focusWindow,
  GROUP_ID_NONE,
  placeTab,
  removeTab,
  WINDOW_ID_NONE,
  windowExists,
} from './snapshot-draft.ts';
import type { SnapshotDraft } from './snapshot-draft.ts';

type EventOf<TType extends TabEventType> = Extract<TabEvent, { eventType: TType }>;
type Handler<TType extends TabEventType> = (draft: SnapshotDraft, event: EventOf<TType>) => string | undefined;

/** Fields the event leaves out keep their earlier value (a sparse update does not erase the title). */
function merged(draft: SnapshotDraft, tab: Tab): Tab {
  const previous = draft.tabs.get(tab.tabId);
  return previous === undefined ? tab : { ...previous, ...tab };
}

/** Places a tab and, when it says it is active, makes it its window's only active tab. */
function putTab(draft: SnapshotDraft, tab: Tab, index = tab.index): void {
  placeTab(draft, tab, index);
  if (tab.active) activateInWindow(draft, tab.windowId, tab.tabId);
}

const handlers: { [TType in TabEventType]: Handler<TType> } = {
  tab_created(draft, event) {
    putTab(draft, event.tab);
    return undefined;
  },
  tab_updated(draft, event) {
    const known = draft.tabs.has(event.tab.tabId);
    putTab(draft, merged(draft, event.tab));
    return known ? undefined : `tab_updated for unknown tab ${event.tab.tabId}: added`;
  },
  tab_removed(draft, event) {
    return removeTab(draft, event.tabId) === undefined ? `tab_removed for unknown tab ${event.tabId}` : undefined;
  },
  tab_activated(draft, event) {
    const tab = draft.tabs.get(event.tabId);
    if (tab !== undefined && tab.windowId !== event.windowId)
      placeTab(draft, { ...tab, windowId: event.windowId }, tab.index);
    activateInWindow(draft, event.windowId, event.tabId);
    if (draft.activeWindowId === null) draft.activeWindowId = event.windowId;
    return tab === undefined ? `tab_activated for unknown tab ${event.tabId}` : undefined;
  },
  tab_moved(draft, event) {
    const previous = draft.tabs.get(event.tabId);
    const base = event.tab === undefined ? previous : merged(draft, event.tab);
    if (base === undefined) return `tab_moved for unknown tab ${event.tabId} without a tab`;
    putTab(
      draft,
      { ...base, tabId: event.tabId, windowId: event.windowId },
      event.toIndex ?? event.tab?.index ?? base.index,
    );
    return previous === undefined ? `tab_moved for unknown tab ${event.tabId}: added` : undefined;
  },
  tab_attached(draft, event) {
    putTab(draft, merged(draft, event.tab));
    return undefined;
  },
  // Between detach and attach Chrome's tab belongs to no window; tab_attached brings it back whole.
  tab_detached(draft, event) {
    return removeTab(draft, event.tabId) === undefined ? `tab_detached for unknown tab ${event.tabId}` : undefined;
  },
  window_created(draft, event) {
    draft.windows.set(event.window.windowId, event.window);
    if (event.window.focused) focusWindow(draft, event.window.windowId);
    return undefined;
  },
  window_removed(draft, event) {
    const known = windowExists(draft, event.windowId);
    draft.windows.delete(event.windowId);
    for (const tab of [...draft.tabs.values()]) if (tab.windowId === event.windowId) draft.tabs.delete(tab.tabId);
    for (const group of [...draft.groups.values()])
      if (group.windowId === event.windowId) draft.groups.delete(group.groupId);
    if (draft.activeWindowId === event.windowId) draft.activeWindowId = null;
    return known ? undefined : `window_removed for unknown window ${event.windowId}`;
  },
  // Focus moving to another application (WINDOW_ID_NONE) keeps the last active window.
  window_focus_changed(draft, event) {
    if (event.windowId !== WINDOW_ID_NONE && !windowExists(draft, event.windowId)) {
      focusWindow(draft, WINDOW_ID_NONE);
      return `window_focus_changed to unknown window ${event.windowId}: kept the last active window`;
    }
    focusWindow(draft, event.windowId);
    if (event.windowId !== WINDOW_ID_NONE) draft.activeWindowId = event.windowId;
    return undefined;
  },
  group_created(draft, event) {
    draft.groups.set(event.group.groupId, event.group);
    return undefined;
  },
  group_updated(draft, event) {
    const previous = draft.groups.get(event.group.groupId);
    draft.groups.set(event.group.groupId, previous === undefined ? event.group : { ...previous, ...event.group });
    return previous === undefined ? `group_updated for unknown group ${event.group.groupId}: added` : undefined;
  },
  group_removed(draft, event) {
    const known = draft.groups.delete(event.groupId);
    for (const tab of [...draft.tabs.values()]) {
      if (tab.groupId === event.groupId) draft.tabs.set(tab.tabId, { ...tab, groupId: GROUP_ID_NONE });
    }
    return known ? undefined : `group_removed for unknown group ${event.groupId}`;
  },
};

export function applyTabEventToDraft(draft: SnapshotDraft, event: TabEvent): string | undefined {
  const handler = handlers[event.eventType] as Handler<TabEventType>;
  return handler(draft, event as never);
}
