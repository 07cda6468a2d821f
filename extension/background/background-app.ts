// Composes the background service worker from its parts. Everything is registered
// synchronously (a woken worker must find its listeners at once); the socket starts as soon as
// the settings are read.
import { createOverlayConfirmation } from './overlay-confirmation.ts';
import { showTaskTab } from './show-tab.ts';
import {
  LIVE_FRAME_EVENT,
  LiveViewCommandSchema,
  PluginUiStateMessageSchema,
  PROTOCOL_VERSION,
  validate,
} from '../../transport/contracts/index.ts';
import type { OverlayCommand, TakeoverReport } from '../../transport/contracts/index.ts';
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import { matchesAnyPattern, webUiPatterns } from '../shared/match-pattern.ts';
import {
  connectionSettingsDiffer,
  defaultSettings,
  parseSettings,
  readSettings,
  SETTINGS_KEY,
} from '../shared/settings.ts';
import type { Settings } from '../shared/settings.ts';
import type { BackgroundServices } from './action-context.ts';
import { actionHandlers } from './action-handlers.ts';
import { createActionRunner } from './action-runner.ts';
import { createArtifactUploader } from './artifact-upload.ts';
import { createCdpSessions } from './cdp-sessions.ts';
import { createNavTracker } from './nav-tracker.ts';
import { createClientIdentity } from './client-identity.ts';
import { createElementRefs } from './element-refs.ts';
import { installFocusGuard } from './focus-guard.ts';
import { installDownloadGuard } from './download-guard.ts';
import { createInterruptionGuard } from './interruption-guard.ts';
import { createInterruptionReports } from './interruption-reports.ts';
import { createPopupGuard } from './popup-guard.ts';
import { withInterruptions } from './with-interruptions.ts';
import { installKeepalive } from './keepalive.ts';
import { createLiveView } from './live-view.ts';
import { installExtensionMessages } from './extension-messages.ts';
import { createNavigationGuard, NAVIGATION_CHECK_TIMEOUT_MS, navigationCheckMessage } from './navigation-guard.ts';
import { createNewTabGate } from './new-tab-gate.ts';
import type { NavigationGuard } from './navigation-guard.ts';
import { createOverlayRelay } from './overlay-relay.ts';
import { createCdpPageAgent } from './page-agent-cdp.ts';
import { createPageAgentClient } from './page-agent-client.ts';
import { registerExtension } from './registration.ts';
import { createServerLink } from './server-link.ts';
import type { ConnectSocket, ServerLink } from './server-link.ts';
import { readSnapshot } from './snapshot.ts';
import { forwardTabEvents } from './tab-event-forwarder.ts';
import { createTaskTabs } from './task-tabs.ts';
import { createTaskIdle, withTaskIdle } from './task-idle.ts';

export interface BackgroundDeps {
  browser: BrowserApi;
  connect: ConnectSocket;
  fetch: typeof fetch;
  timers: Timers;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Fresh random ids (clientId, message ids). */
  newId(): string;
  userAgent: string;
  log?(message: string): void;
}

export interface Background {
  /** Settings read and the socket started. */
  ready: Promise<void>;
  link: ServerLink;
  services: BackgroundServices;
}

export function createBackground(deps: BackgroundDeps): Background {
  const { browser } = deps;
  const manifest = browser.runtime.getManifest();
  let settings: Settings = defaultSettings;
  const identity = createClientIdentity(browser.storage.local, () => `plugin-${deps.newId()}`);
  const taskTabs = createTaskTabs(browser.storage.local);
  const isWebUiUrl = (url: string | undefined) =>
    matchesAnyPattern(
      url,
      webUiPatterns(manifest.externally_connectable?.matches, settings.serverUrl, settings.webUiPatterns),
    );

  let link: ServerLink;
  const emit = (message: unknown) => link.send(message);
  const confirmations = createOverlayConfirmation({
    browser,
    taskTabs,
    clientId: identity.current,
    emit,
    now: deps.now,
  });
  const overlay = createOverlayRelay({
    browser,
    taskTabs,
    timers: deps.timers,
    now: deps.now,
    clientId: identity.current,
    emit: (message: TakeoverReport | OverlayCommand) => emit(message),
  });
  const nav = createNavTracker({ browser, timers: deps.timers });
  const cdp = createCdpSessions({
    browser,
    timers: deps.timers,
    enabled: () => settings.useCdp,
    onAttached: (tabId) => guard.attached(tabId),
    afterAttach: (tabId, send) => nav.start(tabId, send),
    afterDetach: (tabId) => nav.stop(tabId),
  });
  const services: BackgroundServices = {
    browser,
    settings: () => settings,
    taskTabs,
    cdp,
    nav,
    // The parked about:blank is read over CDP (executeScript may not touch it: page-agent-cdp.ts).
    page: createPageAgentClient(
      browser,
      createCdpPageAgent({ browser, cdp, fetchText: (url) => deps.fetch(url).then((r) => r.text()) }),
    ),
    refs: createElementRefs(browser.storage.session),
    artifacts: createArtifactUploader({
      fetch: deps.fetch,
      serverUrl: () => settings.serverUrl,
      token: () => settings.token,
      sleep: deps.sleep,
    }),
    overlay,
    isWebUiUrl,
    timers: deps.timers,
    now: deps.now,
  };
  const live = createLiveView({
    cdp: services.cdp,
    cdpEvents: browser.debugger?.onEvent,
    isTaskTab: async (taskId, tabId) => (await taskTabs.taskOfTab(tabId))?.taskId === taskId,
    sendFrame: (frame, onAck) => link.emitWithAck(LIVE_FRAME_EVENT, frame, onAck),
    timers: deps.timers,
    now: deps.now,
    ...(deps.log ? { log: deps.log } : {}),
  });
  // Pop-ups, dialogs and other page interruptions in task tabs.
  const reports = createInterruptionReports({
    clientId: identity.current,
    send: (message) => void emit(message),
    now: deps.now,
    newId: deps.newId,
    sleep: deps.sleep,
    log: deps.log,
  });
  let ownTab: (taskId: string, tabId: number, openerTabId: number) => Promise<void> = async () => {};
  const popups = createPopupGuard({
    browser,
    taskTabs,
    reports,
    navigationGuard: () => guard,
    adopted: (taskId, tabId, openerTabId) => ownTab(taskId, tabId, openerTabId),
  });
  const downloads = installDownloadGuard({
    browser,
    now: deps.now,
    sleep: deps.sleep,
    tasksGuarded: () => interruptions.anyGuarded(),
  });
  const interruptions = createInterruptionGuard({
    browser,
    cdp: services.cdp,
    taskTabs,
    reports,
    popups,
    downloads,
    newId: deps.newId,
    now: deps.now,
    log: deps.log,
  });
  const newTabGate = createNewTabGate({
    browser,
    rules: browser.declarativeNetRequest,
    ...(deps.log ? { log: deps.log } : {}),
  });
  const guard: NavigationGuard = createNavigationGuard({
    browser,
    cdp: services.cdp,
    taskTabs,
    gate: newTabGate,
    expectNavigation: (tabId, url) => services.nav.expect(tabId, url),
    ask: async (question) =>
      link.request(
        navigationCheckMessage(question, await identity.get(), `nav-${deps.newId()}`, deps.now()),
        NAVIGATION_CHECK_TIMEOUT_MS,
      ),
    ...(deps.log ? { log: deps.log } : {}),
  });
  services.navigationGuard = guard;
  // An idle task lets go of the debugger (Chrome's bar goes) and, later, collapses its group.
  const idle = createTaskIdle({
    browser,
    cdp: services.cdp,
    taskTabs,
    timers: deps.timers,
    inUse: (tabId) => live.streaming(tabId),
    forceDetach: async (tabId) => void (await browser.debugger?.detach({ tabId })),
    idleMs: () => settings.debuggerIdleSeconds * 1000,
    collapseMs: () => settings.groupCollapseSeconds * 1000,
    ...(deps.log ? { log: deps.log } : {}),
  });
  const runner = createActionRunner({
    handlers: withTaskIdle(withInterruptions(actionHandlers, interruptions, reports), idle),
    services,
    clientId: identity.current,
    send: (message) => emit(message),
  });

  async function onConnected(): Promise<void> {
    const clientId = await identity.get();
    const common = {
      extensionId: browser.runtime.id,
      extensionName: manifest.name,
      ua: deps.userAgent,
      version: manifest.version,
      browserName: 'chrome',
    };
    emit({
      v: PROTOCOL_VERSION,
      type: 'activate_extension',
      id: `act-${deps.newId()}`,
      clientId,
      ...common,
      allowOtherClient: false,
      skipAuthorization: true,
      timestamp: deps.now(),
    });
    try {
      const snapshot = await readSnapshot(browser);
      emit({ v: PROTOCOL_VERSION, type: 'full_state_sync', clientId, ...snapshot, timestamp: deps.now() });
    } catch (error) {
      deps.log?.(`full_state_sync failed: ${String(error)}`);
    }
    const registered = await registerExtension(deps, settings.serverUrl, settings.token, {
      ...common,
      clientId,
      allowOtherClient: false,
      timestamp: deps.now(),
    });
    if (!registered.ok) deps.log?.(registered.error.message);
  }

  link = createServerLink({
    connect: deps.connect,
    timers: deps.timers,
    settings: () => settings,
    clientId: identity.get,
    onConnected: () => void onConnected(),
    log: deps.log,
    handlers: {
      browser_action: (message, ack) => void runner.receive(message, ack),
      plugin_ui_state: (message, ack) => {
        const checked = validate(PluginUiStateMessageSchema, message, 'SCHEMA_VALIDATION_FAILED');
        ack?.(
          checked.ok
            ? { ok: true }
            : { ok: false, error: { code: checked.error.code, message: checked.error.message } },
        );
        if (checked.ok) void overlay.applyUiState(checked.value);
        if (checked.ok && checked.value.state === 'idle') idle.taskEnded(checked.value.taskId);
      },
      // "Show the tab" from the web UI: the only time Mimo brings a tab forward.
      confirmation_state: (message, ack) =>
        void confirmations.fromServer(message).then((result) => ack?.(result as never)),
      show_tab: (message, ack) => void showTaskTab(browser, taskTabs, message).then((result) => ack?.(result as never)),
      live_view: (message, ack) => {
        const checked = validate(LiveViewCommandSchema, message, 'SCHEMA_VALIDATION_FAILED');
        if (!checked.ok)
          return ack?.({ ok: false, error: { code: checked.error.code, message: checked.error.message } });
        void live.command(checked.value).then((result) => ack?.(result as never));
      },
    },
  });

  const focusGuard = installFocusGuard(browser, deps.now);
  forwardTabEvents({
    browser,
    now: deps.now,
    send: (event) => void emit(event),
    onTabRemoved: (tabId) => {
      void taskTabs.tabRemoved(tabId);
      void services.refs.forget(tabId);
      live.forget(tabId);
      void services.cdp.detach(tabId);
    },
    onTabCreated: (tab) => {
      if (tab.id === undefined) return;
      const tabId = tab.id;
      const adopted: { id: number; openerTabId?: number; groupId?: number } = { id: tabId };
      if (tab.openerTabId !== undefined) adopted.openerTabId = tab.openerTabId;
      if (tab.groupId !== undefined) adopted.groupId = tab.groupId;
      void taskTabs.adoptOpenedTab(adopted).then((record) => {
        if (!record) return;
        focusGuard.taskTabOpened(tabId);
        // A tab the task opened joins the task's group, so the user sees it belongs to the task.
        if (record.groupId !== undefined && tab.groupId !== record.groupId)
          void browser.tabs.group({ tabIds: [tabId], groupId: record.groupId }).catch(() => {});
        if (settings.useCdp)
          void interruptions
            .guard(record.taskId, tabId)
            .catch((error) => deps.log?.(`tab ${tabId} not guarded: ${String(error)}`));
      });
    },
  });

  // A background tab the popup guard opened for a task tab: the task's own, grouped and guarded
  // (the tabs.onCreated path above may have adopted it first).
  ownTab = async (taskId, tabId, openerTabId) => {
    const record = (await taskTabs.adoptOpenedTab({ id: tabId, openerTabId })) ?? (await taskTabs.taskOfTab(tabId));
    if (!record || record.taskId !== taskId) return;
    if (record.groupId !== undefined)
      await browser.tabs.group({ tabIds: [tabId], groupId: record.groupId }).catch(() => {});
    if (settings.useCdp)
      await interruptions
        .guard(taskId, tabId)
        .catch((error) => deps.log?.(`tab ${tabId} not guarded: ${String(error)}`));
  };

  installExtensionMessages({
    browser,
    identity,
    taskTabs,
    overlay,
    confirmations,
    link: () => link,
    isWebUiUrl,
    settings: () => settings,
    applySettings: async (next) => {
      settings = next;
      await link.restart();
    },
    fetch: deps.fetch,
    sleep: deps.sleep,
    now: deps.now,
    timers: deps.timers,
    newId: deps.newId,
  });

  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(SETTINGS_KEY in changes)) return;
    const next = parseSettings(changes[SETTINGS_KEY]?.newValue);
    const reconnect = connectionSettingsDiffer(next, settings);
    settings = next;
    // Pairing applied these settings already, and the idle timings need no new connection.
    if (reconnect) void link.restart();
  });
  installKeepalive(browser, () => void link.ensureConnected());

  const ready = readSettings(browser.storage.local)
    .catch(() => defaultSettings)
    .then((loaded) => {
      settings = loaded;
      void newTabGate.start();
      // A restarted worker lets go of the debugger sessions of its previous life once idle.
      void taskTabs.all().then((records) => idle.sweep(records.map((record) => record.taskId)));
      return link.start();
    });

  return { ready, link, services };
}
