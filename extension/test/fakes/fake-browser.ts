// In-memory fakes of the extension API slice (shared/browser-api.ts) for unit tests: tabs,
// windows, groups, storage, events you can fire, scripting and debugger you can script, and
// manual timers.
import type {
  ApiEvent,
  BrowserApi,
  BrowserTab,
  BrowserTabGroup,
  BrowserWindowInfo,
  DebuggeeTarget,
  InjectionResult,
  StorageArea,
  Timers,
} from '../../shared/browser-api.ts';

export interface FakeEvent<T extends (...args: any[]) => unknown> extends ApiEvent<T> {
  listeners: T[];
  fire(...args: Parameters<T>): unknown[];
}

export function fakeEvent<T extends (...args: any[]) => unknown>(): FakeEvent<T> {
  const listeners: T[] = [];
  return {
    listeners,
    addListener: (listener) => void listeners.push(listener),
    removeListener: (listener) => {
      const index = listeners.indexOf(listener);
      if (index >= 0) listeners.splice(index, 1);
    },
    fire: (...args) => [...listeners].map((listener) => listener(...args)),
  };
}

export interface FakeStorage extends StorageArea {
  data: Record<string, unknown>;
}

export function fakeStorage(initial: Record<string, unknown> = {}): FakeStorage {
  const data: Record<string, unknown> = structuredClone(initial);
  return {
    data,
    async get(keys) {
      if (keys === null || keys === undefined) return structuredClone(data);
      const list = typeof keys === 'string' ? [keys] : keys;
      return Object.fromEntries(list.filter((k) => k in data).map((k) => [k, structuredClone(data[k])]));
    },
    async set(items) {
      Object.assign(data, structuredClone(items));
    },
    async remove(keys) {
      for (const key of typeof keys === 'string' ? [keys] : keys) delete data[key];
    },
  };
}

export interface ManualTimers extends Timers {
  pending(): number;
  /** Runs every timer due within `ms` from now, in order. */
  advance(ms: number): void;
}

export function manualTimers(): ManualTimers {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout: (fn, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    pending: () => timers.size,
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
  };
}

type ScriptHandler = (injection: {
  tabId: number;
  func?: (...args: any[]) => unknown;
  args?: unknown[];
  files?: string[];
}) => unknown;
type CommandHandler = (tabId: number, method: string, params: Record<string, unknown>) => unknown;

export interface FakeBrowser extends BrowserApi {
  storage: BrowserApi['storage'] & { local: FakeStorage; session: FakeStorage };
  tabsById: Map<number, BrowserTab>;
  groups: Map<number, BrowserTabGroup>;
  /** Calls that change state, in order: ['tabs.create', props], ['tabs.update', id, props], ... */
  calls: Array<[string, ...unknown[]]>;
  sentToTabs: Array<{ tabId: number; message: unknown }>;
  /** `sessionId`: sent to a child session (an out-of-process frame's). */
  cdpCommands: Array<{ tabId: number; method: string; params: Record<string, unknown>; sessionId?: string }>;
  onScript: ScriptHandler;
  onCommand: CommandHandler;
  attachError: Error | null;
  tabMessageHandler: (tabId: number, message: unknown) => Promise<unknown>;
  addTab(props: Partial<BrowserTab> & { id: number }): BrowserTab;
  events: {
    tabCreated: FakeEvent<(tab: BrowserTab) => void>;
    tabUpdated: FakeEvent<(tabId: number, change: any, tab: BrowserTab) => void>;
    tabRemoved: FakeEvent<(tabId: number, info: { windowId: number; isWindowClosing: boolean }) => void>;
    tabActivated: FakeEvent<(info: { tabId: number; windowId: number }) => void>;
    debuggerDetach: FakeEvent<(source: DebuggeeTarget, reason: string) => void>;
    alarm: FakeEvent<(alarm: { name: string }) => void>;
    runtimeMessage: FakeEvent<(message: unknown, sender: any) => any>;
    storageChanged: FakeEvent<
      (changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, area: string) => void
    >;
  };
}

export function fakeBrowser(options: { extensionId?: string; webUiMatches?: string[] } = {}): FakeBrowser {
  const tabsById = new Map<number, BrowserTab>();
  const groups = new Map<number, BrowserTabGroup>();
  const calls: FakeBrowser['calls'] = [];
  let nextTab = 100;
  let nextGroup = 500;
  const events = {
    tabCreated: fakeEvent<(tab: BrowserTab) => void>(),
    tabUpdated: fakeEvent<(tabId: number, change: any, tab: BrowserTab) => void>(),
    tabRemoved: fakeEvent<(tabId: number, info: { windowId: number; isWindowClosing: boolean }) => void>(),
    tabActivated: fakeEvent<(info: { tabId: number; windowId: number }) => void>(),
    debuggerDetach: fakeEvent<(source: DebuggeeTarget, reason: string) => void>(),
    alarm: fakeEvent<(alarm: { name: string }) => void>(),
    runtimeMessage: fakeEvent<(message: unknown, sender: any) => any>(),
    storageChanged:
      fakeEvent<(changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, area: string) => void>(),
  };
  const extensionId = options.extensionId ?? 'ext-id';
  const missing = (id: number) => new Error(`No tab with id: ${id}.`);

  const browser: FakeBrowser = {
    tabsById,
    groups,
    calls,
    sentToTabs: [],
    cdpCommands: [],
    onScript: () => undefined,
    onCommand: () => ({}),
    attachError: null,
    tabMessageHandler: async () => ({ ok: true }),
    events,
    addTab(props) {
      const tab: BrowserTab = {
        windowId: 1,
        index: tabsById.size,
        active: false,
        pinned: false,
        incognito: false,
        groupId: -1,
        status: 'complete',
        ...props,
      };
      tabsById.set(tab.id!, tab);
      return tab;
    },
    runtime: {
      id: extensionId,
      getManifest: () => ({
        version: '0.1.0',
        name: 'Mimo',
        externally_connectable: { matches: options.webUiMatches ?? ['http://localhost:3000/*'] },
      }),
      getURL: (path) => `chrome-extension://${extensionId}/${path}`,
      sendMessage: async () => undefined,
      onMessage: events.runtimeMessage,
      onStartup: fakeEvent(),
      onInstalled: fakeEvent(),
    },
    storage: { local: fakeStorage(), session: fakeStorage(), onChanged: events.storageChanged },
    tabs: {
      async get(tabId) {
        const tab = tabsById.get(tabId);
        if (!tab) throw missing(tabId);
        return { ...tab };
      },
      async query(query) {
        return [...tabsById.values()]
          .filter((tab) => Object.entries(query).every(([k, v]) => (tab as any)[k] === v))
          .map((t) => ({ ...t }));
      },
      async create(props) {
        calls.push(['tabs.create', props]);
        const tab = browser.addTab({
          id: nextTab++,
          active: props.active ?? true,
          status: 'loading',
          pendingUrl: props.url,
          windowId: props.windowId ?? 1,
        });
        return { ...tab };
      },
      async update(tabId, props) {
        calls.push(['tabs.update', tabId, props]);
        const tab = tabsById.get(tabId);
        if (!tab) throw missing(tabId);
        if (props.url) Object.assign(tab, { pendingUrl: props.url, status: 'loading' });
        if (props.active !== undefined) tab.active = props.active;
        return { ...tab };
      },
      async remove(ids) {
        calls.push(['tabs.remove', ids]);
        for (const id of Array.isArray(ids) ? ids : [ids]) {
          if (!tabsById.delete(id)) throw missing(id);
        }
      },
      async group(opts) {
        calls.push(['tabs.group', opts]);
        const groupId = opts.groupId ?? nextGroup++;
        if (opts.groupId !== undefined && !groups.has(opts.groupId))
          throw new Error(`No group with id: ${opts.groupId}.`);
        if (!groups.has(groupId)) groups.set(groupId, { id: groupId, windowId: 1, color: 'grey', collapsed: false });
        for (const id of Array.isArray(opts.tabIds) ? opts.tabIds : [opts.tabIds]) tabsById.get(id)!.groupId = groupId;
        return groupId;
      },
      async sendMessage(tabId, message) {
        browser.sentToTabs.push({ tabId, message });
        return browser.tabMessageHandler(tabId, message);
      },
      onCreated: events.tabCreated,
      onUpdated: events.tabUpdated,
      onRemoved: events.tabRemoved,
      onActivated: events.tabActivated,
      onMoved: fakeEvent(),
      onAttached: fakeEvent(),
      onDetached: fakeEvent(),
    },
    windows: {
      async getAll() {
        const windowIds = [...new Set([...tabsById.values()].map((t) => t.windowId))];
        return windowIds.map((id): BrowserWindowInfo => ({
          id,
          focused: id === 1,
          incognito: false,
          type: 'normal',
          state: 'normal',
          tabs: [...tabsById.values()].filter((t) => t.windowId === id),
        }));
      },
      async get(windowId) {
        return { id: windowId, focused: true, incognito: false };
      },
      async create(opts) {
        calls.push(['windows.create', opts]);
        const tab = browser.addTab({
          id: nextTab++,
          windowId: 2,
          active: true,
          pendingUrl: opts.url,
          status: 'loading',
        });
        return { id: 2, focused: false, incognito: false, tabs: [{ ...tab }] };
      },
      onCreated: fakeEvent(),
      onRemoved: fakeEvent(),
      onFocusChanged: fakeEvent(),
    },
    tabGroups: {
      async get(groupId) {
        const group = groups.get(groupId);
        if (!group) throw new Error(`No group with id: ${groupId}.`);
        return { ...group };
      },
      async query() {
        return [...groups.values()];
      },
      async update(groupId, props) {
        calls.push(['tabGroups.update', groupId, props]);
        const group = groups.get(groupId)!;
        Object.assign(group, props);
        return { ...group };
      },
      onCreated: fakeEvent(),
      onUpdated: fakeEvent(),
      onRemoved: fakeEvent(),
    },
    debugger: {
      async attach(target) {
        calls.push(['debugger.attach', target.tabId]);
        if (browser.attachError) throw browser.attachError;
      },
      async detach(target) {
        calls.push(['debugger.detach', target.tabId]);
      },
      async sendCommand(target, method, params) {
        const sessionId = (target as { sessionId?: string }).sessionId;
        browser.cdpCommands.push({
          tabId: target.tabId!,
          method,
          params: params ?? {},
          ...(sessionId ? { sessionId } : {}),
        });
        return browser.onCommand(target.tabId!, method, params ?? {});
      },
      onDetach: events.debuggerDetach,
      onEvent: fakeEvent(),
    },
    scripting: {
      async executeScript(injection) {
        const result = await browser.onScript({
          tabId: injection.target.tabId,
          ...(injection.func ? { func: injection.func } : {}),
          ...(injection.args ? { args: injection.args } : {}),
          ...(injection.files ? { files: injection.files } : {}),
        });
        return [{ frameId: 0, result } as InjectionResult<any>];
      },
    },
    alarms: {
      create: (name, info) => void calls.push(['alarms.create', name, info]),
      onAlarm: events.alarm,
    },
  };
  return browser;
}
