// Every tab, window and tab-group change as a `tab_event` (seed 001 §3.5 (3)). Listeners are
// registered synchronously (a woken service worker must find them at once); `send` decides
// whether a socket is there to carry the event.
import { PROTOCOL_VERSION } from '../../transport/contracts/index.ts';
import type { TabEvent } from '../../transport/contracts/index.ts';
import type { BrowserApi, BrowserTab } from '../shared/browser-api.ts';
import { toWireGroup, toWireTab, toWireWindow } from './snapshot.ts';

type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;
export type TabEventBody = DistributiveOmit<TabEvent, 'v' | 'type' | 'timestamp'>;

export interface TabEventForwarderDeps {
  browser: BrowserApi;
  now(): number;
  send(event: TabEvent): void;
  /** Told about every removed tab (task tab bookkeeping). */
  onTabRemoved?(tabId: number): void;
  /** Told about every created tab (task tabs adopt tabs opened from them). */
  onTabCreated?(tab: BrowserTab): void;
}

/** Registers the listeners; returns a function that removes them. */
export function forwardTabEvents(deps: TabEventForwarderDeps): () => void {
  const { browser } = deps;
  const emit = (body: TabEventBody): void => {
    deps.send({ v: PROTOCOL_VERSION, type: 'tab_event', timestamp: deps.now(), ...body } as TabEvent);
  };
  const withTab = (eventType: 'tab_created' | 'tab_updated' | 'tab_attached', tab: BrowserTab): void => {
    const wire = toWireTab(tab);
    if (wire) emit({ eventType, tab: wire, tabId: wire.tabId });
  };
  const fetchTab = (tabId: number, then: (tab: BrowserTab) => void): void => {
    browser.tabs.get(tabId).then(then, () => {});
  };

  const listeners = {
    tabCreated: (tab: BrowserTab) => {
      deps.onTabCreated?.(tab);
      withTab('tab_created', tab);
    },
    tabUpdated: (_tabId: number, _change: unknown, tab: BrowserTab) => withTab('tab_updated', tab),
    tabRemoved: (tabId: number, info: { windowId: number; isWindowClosing: boolean }) => {
      deps.onTabRemoved?.(tabId);
      emit({ eventType: 'tab_removed', tabId, windowId: info.windowId, isWindowClosing: info.isWindowClosing });
    },
    tabActivated: (info: { tabId: number; windowId: number }) =>
      emit({ eventType: 'tab_activated', tabId: info.tabId, windowId: info.windowId }),
    tabMoved: (tabId: number, info: { windowId: number; fromIndex: number; toIndex: number }) =>
      emit({
        eventType: 'tab_moved',
        tabId,
        windowId: info.windowId,
        fromIndex: info.fromIndex,
        toIndex: info.toIndex,
      }),
    tabAttached: (tabId: number) => fetchTab(tabId, (tab) => withTab('tab_attached', tab)),
    tabDetached: (tabId: number, info: { oldWindowId: number }) =>
      emit({ eventType: 'tab_detached', tabId, windowId: info.oldWindowId }),
    windowCreated: (window: Parameters<typeof toWireWindow>[0]) => {
      const wire = toWireWindow(window);
      if (wire) emit({ eventType: 'window_created', window: wire });
    },
    windowRemoved: (windowId: number) => emit({ eventType: 'window_removed', windowId }),
    windowFocusChanged: (windowId: number) =>
      emit({ eventType: 'window_focus_changed', windowId: Math.max(-1, windowId) }),
    groupCreated: (group: Parameters<typeof toWireGroup>[0]) =>
      emit({ eventType: 'group_created', group: toWireGroup(group) }),
    groupUpdated: (group: Parameters<typeof toWireGroup>[0]) =>
      emit({ eventType: 'group_updated', group: toWireGroup(group) }),
    groupRemoved: (group: Parameters<typeof toWireGroup>[0]) =>
      emit({ eventType: 'group_removed', groupId: group.id, windowId: group.windowId }),
  };

  browser.tabs.onCreated.addListener(listeners.tabCreated);
  browser.tabs.onUpdated.addListener(listeners.tabUpdated);
  browser.tabs.onRemoved.addListener(listeners.tabRemoved);
  browser.tabs.onActivated.addListener(listeners.tabActivated);
  browser.tabs.onMoved.addListener(listeners.tabMoved);
  browser.tabs.onAttached.addListener(listeners.tabAttached);
  browser.tabs.onDetached.addListener(listeners.tabDetached);
  browser.windows.onCreated.addListener(listeners.windowCreated);
  browser.windows.onRemoved.addListener(listeners.windowRemoved);
  browser.windows.onFocusChanged.addListener(listeners.windowFocusChanged);
  browser.tabGroups?.onCreated.addListener(listeners.groupCreated);
  browser.tabGroups?.onUpdated.addListener(listeners.groupUpdated);
  browser.tabGroups?.onRemoved.addListener(listeners.groupRemoved);

  return () => {
    browser.tabs.onCreated.removeListener(listeners.tabCreated);
    browser.tabs.onUpdated.removeListener(listeners.tabUpdated);
    browser.tabs.onRemoved.removeListener(listeners.tabRemoved);
    browser.tabs.onActivated.removeListener(listeners.tabActivated);
    browser.tabs.onMoved.removeListener(listeners.tabMoved);
    browser.tabs.onAttached.removeListener(listeners.tabAttached);
    browser.tabs.onDetached.removeListener(listeners.tabDetached);
    browser.windows.onCreated.removeListener(listeners.windowCreated);
    browser.windows.onRemoved.removeListener(listeners.windowRemoved);
    browser.windows.onFocusChanged.removeListener(listeners.windowFocusChanged);
    browser.tabGroups?.onCreated.removeListener(listeners.groupCreated);
    browser.tabGroups?.onUpdated.removeListener(listeners.groupUpdated);
    browser.tabGroups?.onRemoved.removeListener(listeners.groupRemoved);
  };
}
