// The slice of the extension API this extension uses, typed narrowly so every module receives
// it as a parameter and unit tests pass a fake. At run time it is the webextension-polyfill
// `browser` object (shared/polyfill-browser.ts): promise-based, and for the Chrome-only
// namespaces the polyfill does not wrap (debugger, tabGroups, scripting, alarms) it passes
// `chrome.*` through, whose MV3 methods also return promises.

export interface ApiEvent<TListener extends (...args: any[]) => unknown> {
  addListener(listener: TListener): void;
  removeListener(listener: TListener): void;
}

export interface BrowserTab {
  id?: number;
  windowId: number;
  index: number;
  url?: string;
  pendingUrl?: string;
  title?: string;
  favIconUrl?: string;
  active: boolean;
  pinned: boolean;
  hidden?: boolean;
  groupId?: number;
  status?: string;
  audible?: boolean;
  mutedInfo?: { muted: boolean };
  discarded?: boolean;
  incognito: boolean;
  openerTabId?: number;
  lastAccessed?: number;
}

export interface BrowserWindowInfo {
  id?: number;
  focused: boolean;
  type?: string;
  state?: string;
  incognito: boolean;
  width?: number;
  height?: number;
  tabs?: BrowserTab[];
}

export interface BrowserTabGroup {
  id: number;
  windowId: number;
  title?: string;
  color: string;
  collapsed: boolean;
}

export interface TabChangeInfo {
  status?: string;
  url?: string;
  title?: string;
  [key: string]: unknown;
}

export interface MessageSender {
  id?: string;
  url?: string;
  origin?: string;
  tab?: BrowserTab;
  frameId?: number;
  documentId?: string;
}

export interface InjectionResult<T = unknown> {
  result?: T;
  frameId: number;
  documentId?: string;
}

export interface DebuggeeTarget {
  tabId?: number;
  /** A child session of the tab's attachment (Target.setAutoAttach with flatten; Chromium 125+). */
  sessionId?: string;
}

export interface StorageArea {
  get(keys?: string | string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

export interface BrowserApi {
  runtime: {
    id: string;
    getManifest(): { version: string; name: string; externally_connectable?: { matches?: string[] } };
    getURL(path: string): string;
    sendMessage(message: unknown): Promise<unknown>;
    /** Return a promise (or true + sendResponse) to answer; the polyfill supports promises. */
    onMessage: ApiEvent<(message: unknown, sender: MessageSender) => Promise<unknown> | undefined | void>;
    onStartup: ApiEvent<() => void>;
    onInstalled: ApiEvent<(details: { reason: string }) => void>;
    openOptionsPage?(): Promise<void>;
  };
  storage: {
    local: StorageArea;
    /** Survives service-worker restarts, not browser restarts (Chrome 102+). */
    session?: StorageArea;
    onChanged: ApiEvent<
      (changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, areaName: string) => void
    >;
  };
  tabs: {
    get(tabId: number): Promise<BrowserTab>;
    query(query: Record<string, unknown>): Promise<BrowserTab[]>;
    create(props: {
      url?: string;
      active?: boolean;
      windowId?: number;
      openerTabId?: number;
      index?: number;
    }): Promise<BrowserTab>;
    update(tabId: number, props: { url?: string; muted?: boolean; active?: boolean }): Promise<BrowserTab>;
    remove(tabIds: number | number[]): Promise<void>;
    group(options: {
      tabIds: number | number[];
      groupId?: number;
      createProperties?: { windowId?: number };
    }): Promise<number>;
    sendMessage(tabId: number, message: unknown, options?: { frameId?: number }): Promise<unknown>;
    captureVisibleTab?(windowId: number, options: { format: 'png' | 'jpeg' }): Promise<string>;
    onCreated: ApiEvent<(tab: BrowserTab) => void>;
    onUpdated: ApiEvent<(tabId: number, changeInfo: TabChangeInfo, tab: BrowserTab) => void>;
    onRemoved: ApiEvent<(tabId: number, removeInfo: { windowId: number; isWindowClosing: boolean }) => void>;
    onActivated: ApiEvent<(activeInfo: { tabId: number; windowId: number }) => void>;
    onMoved: ApiEvent<(tabId: number, moveInfo: { windowId: number; fromIndex: number; toIndex: number }) => void>;
    onAttached: ApiEvent<(tabId: number, attachInfo: { newWindowId: number; newPosition: number }) => void>;
    onDetached: ApiEvent<(tabId: number, detachInfo: { oldWindowId: number; oldPosition: number }) => void>;
  };
  windows: {
    getAll(options?: { populate?: boolean }): Promise<BrowserWindowInfo[]>;
    get(windowId: number): Promise<BrowserWindowInfo>;
    create(options: { url?: string; focused?: boolean; state?: string }): Promise<BrowserWindowInfo>;
    /** Focus a window ("Show the tab", the person's own request: show-tab.ts). */
    update?(windowId: number, props: { focused?: boolean }): Promise<BrowserWindowInfo>;
    onCreated: ApiEvent<(window: BrowserWindowInfo) => void>;
    onRemoved: ApiEvent<(windowId: number) => void>;
    onFocusChanged: ApiEvent<(windowId: number) => void>;
    WINDOW_ID_NONE?: number;
  };
  tabGroups?: {
    get(groupId: number): Promise<BrowserTabGroup>;
    query(query: Record<string, unknown>): Promise<BrowserTabGroup[]>;
    update(groupId: number, props: { title?: string; color?: string; collapsed?: boolean }): Promise<BrowserTabGroup>;
    onCreated: ApiEvent<(group: BrowserTabGroup) => void>;
    onUpdated: ApiEvent<(group: BrowserTabGroup) => void>;
    onRemoved: ApiEvent<(group: BrowserTabGroup) => void>;
  };
  debugger?: {
    attach(target: DebuggeeTarget, requiredVersion: string): Promise<void>;
    detach(target: DebuggeeTarget): Promise<void>;
    sendCommand(target: DebuggeeTarget, method: string, params?: Record<string, unknown>): Promise<unknown>;
    onDetach: ApiEvent<(source: DebuggeeTarget, reason: string) => void>;
    onEvent: ApiEvent<(source: DebuggeeTarget, method: string, params?: unknown) => void>;
  };
  scripting: {
    executeScript<TArgs extends unknown[], TResult>(injection: {
      target: { tabId: number; frameIds?: number[]; allFrames?: boolean };
      func?: (...args: TArgs) => TResult;
      args?: TArgs;
      files?: string[];
      world?: 'ISOLATED' | 'MAIN';
      /** Run at once instead of waiting for document_idle. */
      injectImmediately?: boolean;
    }): Promise<Array<InjectionResult<Awaited<TResult>>>>;
  };
  /** With the "downloads" permission: task downloads are filed into a task folder (download-guard.ts). */
  downloads?: {
    onDeterminingFilename: ApiEvent<
      (
        item: DownloadItemInfo,
        suggest: (suggestion?: { filename: string; conflictAction?: 'uniquify' | 'overwrite' | 'prompt' }) => void,
      ) => boolean | void
    >;
  };
  /** Session rules only (background/new-tab-gate.ts). */
  declarativeNetRequest?: {
    updateSessionRules(options: { removeRuleIds?: number[]; addRules?: unknown[] }): Promise<void>;
  };
  alarms: {
    create(
      name: string,
      info: { periodInMinutes?: number; delayInMinutes?: number; when?: number },
    ): Promise<void> | void;
    get?(name: string): Promise<unknown>;
    onAlarm: ApiEvent<(alarm: { name: string }) => void>;
  };
}

export interface DownloadItemInfo {
  id: number;
  url: string;
  finalUrl?: string;
  /** The name Chrome chose (no folder). */
  filename: string;
}

/** Timers, injected so tests drive timeouts without sleeping. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
