// Between the server, the background and the task tab's content script for the overlay
// (seed 000 §2.2): the server's desired UI state (plugin_ui_state), the action executing on
// the tab, takeover reports and Resume/Stop from the overlay. Keeps per-task UI state so a
// content script that (re)loads after a navigation gets the current picture.
import { TAKE_OVER_BUTTON } from '../shared/internal-messages.ts';
import { PROTOCOL_VERSION } from '../../transport/contracts/index.ts';
import type {
  OverlayCommand,
  OverlayCommandName,
  PluginUiState,
  PluginUiStateMessage,
  TakeoverReport,
} from '../../transport/contracts/index.ts';
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import type { BackgroundToContentMessage, TabSession } from '../shared/internal-messages.ts';
import type { TaskTabs } from './task-tabs.ts';

/** How long a screenshot waits for the content script to take the overlay out of the picture. */
export const GUARD_DELIVERY_TIMEOUT_MS = 250;
/**
 * The content script hears of an action only once it has run this long: a 15 ms click neither
 * flashes the mask nor makes the page handle messages while the click is dispatched.
 */
export const ACTION_NOTICE_DELAY_MS = 150;

export const OVERLAY_UI_KEY = 'mimo.overlayUi';

export interface StartedAction {
  actionId: string;
  label: string;
  dispatchesInput: boolean;
  capturesPage: boolean;
}

interface TaskUi {
  uiState?: PluginUiState;
  message?: string;
  takeoverPending: boolean;
  /** Actions executing on the task's tab (one at a time when the server serialises, as it should). */
  actions: Map<string, StartedAction & { tabId: number; noticeTimer: unknown; noticed: boolean }>;
}

export interface OverlayRelay {
  /** A screenshot while the overlay may show waits (bounded) until the content script hid it. */
  actionStarted(taskId: string, tabId: number, action: StartedAction): Promise<void>;
  actionSettled(taskId: string, tabId: number, actionId: string): void;
  applyUiState(message: PluginUiStateMessage): Promise<void>;
  taskEnded(taskId: string, tabIds: number[]): void;
  sessionFor(tabId: number): Promise<TabSession | null>;
  /** Sends takeover_report; false when no socket could carry it. */
  userTakeover(taskId: string, tabId: number, reason: string): boolean;
  overlayCommand(taskId: string, command: OverlayCommandName): boolean;
}

export interface OverlayRelayDeps {
  browser: BrowserApi;
  taskTabs: TaskTabs;
  timers: Timers;
  now(): number;
  clientId(): string | null;
  emit(message: TakeoverReport | OverlayCommand): boolean;
}

export function createOverlayRelay(deps: OverlayRelayDeps): OverlayRelay {
  const tasks = new Map<string, TaskUi>();
  // The server's state per task survives a service-worker restart (storage.session), so a
  // content script asking after the restart still gets the truth.
  const stored = deps.browser.storage.session;
  const restored: Promise<void> = (
    stored ? stored.get(OVERLAY_UI_KEY) : Promise.resolve({} as Record<string, unknown>)
  ).then(
    (items) => {
      const saved = items[OVERLAY_UI_KEY] as Record<string, { uiState?: PluginUiState; message?: string }> | undefined;
      for (const [taskId, value] of Object.entries(saved ?? {})) {
        if (tasks.has(taskId) || !value) continue;
        const entry: TaskUi = { takeoverPending: false, actions: new Map() };
        if (value.uiState) entry.uiState = value.uiState;
        if (value.message) entry.message = value.message;
        tasks.set(taskId, entry);
      }
    },
    () => {},
  );
  const persist = () => {
    const out: Record<string, { uiState?: PluginUiState; message?: string }> = {};
    for (const [taskId, entry] of tasks)
      if (entry.uiState) out[taskId] = { uiState: entry.uiState, ...(entry.message ? { message: entry.message } : {}) };
    void stored?.set({ [OVERLAY_UI_KEY]: out }).catch(() => {});
  };
  const ui = (taskId: string): TaskUi => {
    let entry = tasks.get(taskId);
    if (!entry) tasks.set(taskId, (entry = { takeoverPending: false, actions: new Map() }));
    return entry;
  };

  function post(tabId: number, message: BackgroundToContentMessage): Promise<unknown> {
    return deps.browser.tabs.sendMessage(tabId, message).catch(() => undefined);
  }

  function postBounded(tabId: number, message: BackgroundToContentMessage): Promise<void> {
    return new Promise((resolve) => {
      const timer = deps.timers.setTimeout(resolve, GUARD_DELIVERY_TIMEOUT_MS);
      void post(tabId, message).then(() => {
        deps.timers.clearTimeout(timer);
        resolve();
      });
    });
  }

  const relay: OverlayRelay = {
    async actionStarted(taskId, tabId, action) {
      const entry = ui(taskId);
      const message: BackgroundToContentMessage = { kind: 'action_started', taskId, ...action };
      // A screenshot while the overlay may be on screen waits until it is out of the picture.
      // Input needs no wait: the page agent arms the own-input guard itself.
      // Any task tab may be showing something (a step pill of an earlier action whose settle is
      // still on its way, the mask): a screenshot always waits, bounded, for it to hide.
      if (action.capturesPage) {
        entry.actions.set(action.actionId, { ...action, tabId, noticeTimer: null, noticed: true });
        await postBounded(tabId, message);
        return;
      }
      const started = { ...action, tabId, noticed: false, noticeTimer: null as unknown };
      started.noticeTimer = deps.timers.setTimeout(() => {
        started.noticed = true;
        void post(tabId, message);
      }, ACTION_NOTICE_DELAY_MS);
      entry.actions.set(action.actionId, started);
    },
    actionSettled(taskId, tabId, actionId) {
      const entry = ui(taskId);
      const action = entry.actions.get(actionId);
      if (action) {
        entry.actions.delete(actionId);
        deps.timers.clearTimeout(action.noticeTimer);
        // Unannounced quick actions stay silent, except input: its settle also ends the
        // content script's own-input guard early (sent after the work, off the critical path).
        if (!action.noticed && !action.dispatchesInput) return;
      }
      void post(tabId, { kind: 'action_settled', taskId, actionId, sentAt: deps.now() });
    },
    async applyUiState(message) {
      await restored;
      const entry = ui(message.taskId);
      entry.uiState = message.state;
      if (message.message !== undefined) entry.message = message.message;
      persist();
      // The server has answered (takeover confirmed, or resumed/stopped/ended).
      entry.takeoverPending = false;
      const record = await deps.taskTabs.get(message.taskId);
      const tabId = message.tabId ?? record?.tabId;
      if (tabId === undefined) return;
      const out: BackgroundToContentMessage = { kind: 'ui_state', taskId: message.taskId, state: message.state };
      if (message.message !== undefined) out.message = message.message;
      void post(tabId, out);
    },
    taskEnded(taskId, tabIds) {
      for (const action of tasks.get(taskId)?.actions.values() ?? []) deps.timers.clearTimeout(action.noticeTimer);
      tasks.delete(taskId);
      persist();
      for (const tabId of tabIds) void post(tabId, { kind: 'task_ended', taskId });
    },
    async sessionFor(tabId) {
      await restored;
      const record = await deps.taskTabs.taskOfTab(tabId);
      if (!record || record.tabId !== tabId) return null;
      const entry = ui(record.taskId);
      const session: TabSession = { taskId: record.taskId, tabId, takeoverPending: entry.takeoverPending };
      if (entry.uiState) session.uiState = entry.uiState;
      if (entry.message) session.message = entry.message;
      const current = [...entry.actions.values()].filter((a) => a.tabId === tabId).at(-1);
      if (current) {
        const { actionId, label, dispatchesInput, capturesPage } = current;
        session.action = { actionId, label, dispatchesInput, capturesPage };
        // The content script now knows of it: its settle must reach the tab even if the action
        // ends before its notice would have gone out (the pill left on TodoMVC after a load).
        current.noticed = true;
      }
      return session;
    },
    userTakeover(taskId, tabId, reason) {
      const clientId = deps.clientId();
      if (!clientId) return false;
      const entry = tasks.get(taskId);
      const aiAtWork =
        entry !== undefined &&
        (entry.uiState === 'ongoing' || [...entry.actions.values()].some((a) => a.tabId === tabId));
      // The Take over button also works between steps (the task runs, no action in flight).
      const deliberate =
        reason === TAKE_OVER_BUTTON &&
        entry !== undefined &&
        entry.uiState !== undefined &&
        entry.uiState !== 'idle' &&
        entry.uiState !== 'takeover';
      if (!aiAtWork && !deliberate) {
        // The overlay showed a state the task is not in (a late message): no takeover, and the
        // content script is told the truth.
        void relay.sessionFor(tabId).then((session) => post(tabId, { kind: 'session', session }));
        return false;
      }
      ui(taskId).takeoverPending = true;
      return deps.emit({
        v: PROTOCOL_VERSION,
        type: 'takeover_report',
        taskId,
        clientId,
        tabId,
        reason,
        timestamp: deps.now(),
      });
    },
    overlayCommand(taskId, command) {
      const clientId = deps.clientId();
      if (!clientId) return false;
      ui(taskId).takeoverPending = false;
      return deps.emit({
        v: PROTOCOL_VERSION,
        type: 'overlay_command',
        taskId,
        clientId,
        command,
        timestamp: deps.now(),
      });
    },
  };
  return relay;
}
