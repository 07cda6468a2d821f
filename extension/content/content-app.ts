// The content script of every page: the page bridge (allowlisted web UI origins only), and on
// a task tab the overlay driven by pluginUiMachine with user-input takeover detection.
// `stop()` tears everything down (pagehide, or the extension context died).
import * as v from 'valibot';
import type { PluginUiState } from '../../machines/plugin-ui.machine.ts';
import { PairingOutcomeSchema } from '../../transport/contracts/index.ts';
import type { PluginClientInfo } from '../../transport/contracts/index.ts';
import type { BrowserApi, MessageSender } from '../shared/browser-api.ts';
import { BackgroundToContentMessageSchema, TabSessionSchema } from '../shared/internal-messages.ts';
import type { BackgroundToContentMessage, ContentToBackgroundMessage } from '../shared/internal-messages.ts';
import { matchesAnyPattern, webUiPatterns } from '../shared/match-pattern.ts';
import { readSettings } from '../shared/settings.ts';
import { ownInputActive, settleOwnInput } from '../shared/own-input-guard.ts';
import { watchUserInput } from './input-watch.ts';
import { createOverlayView } from './overlay-view.ts';
import { TAKE_OVER_BUTTON } from '../shared/internal-messages.ts';
import { installPageBridge } from './page-bridge.ts';
import { createUiController } from './ui-controller.ts';
import type { UiController } from './ui-controller.ts';

export const OVERLAY_SYNC_MS = 200;

export interface ContentDeps {
  browser: BrowserApi;
  window: Window;
  document: Document;
}

export interface ContentApp {
  stop(): void;
}

/** The extension was reloaded or removed: this script can no longer reach it. */
export function isContextDead(browser: BrowserApi, error?: unknown): boolean {
  let id: string | undefined;
  try {
    id = browser.runtime.id;
  } catch {
    return true;
  }
  return !id || (error instanceof Error && /context invalidated/i.test(error.message));
}

export function startContentApp(deps: ContentDeps): ContentApp {
  const { browser, window } = deps;
  let stopped = false;
  let ui: UiController | null = null;
  let stopInput: (() => void) | null = null;
  const guardHost = globalThis as unknown as Record<string, unknown>;
  const overlay = createOverlayView(deps.document, {
    onResume: () => ui?.resume(),
    onStop: () => ui?.stop(),
    onTakeOver: () => takeOver(),
    onConfirm: (requestId, decision) => {
      if (ui) void send({ kind: 'confirmation_answer', taskId: ui.taskId, requestId, decision });
    },
  });
  /** Only the overlay's Take over button takes over. */
  function takeOver(): void {
    if (!ui) return;
    if (ui.state() === 'ongoing') ui.userInput(TAKE_OVER_BUTTON);
    else if (ui.state() === 'hidden' && ui.taskId)
      void send({ kind: 'user_takeover', taskId: ui.taskId, reason: TAKE_OVER_BUTTON });
  }
  /** Screenshots in flight: the overlay stays out of the picture until they settle. */
  const capturing = new Set<string>();
  let shown: { state: PluginUiState; step: string } = { state: 'idle', step: '' };
  const render = (state: PluginUiState, step: string) => {
    shown = { state, step };
    overlay.render(state, step, { capturing: capturing.size > 0, turnRunning: ui?.turnRunning() ?? false });
  };

  const send = (message: ContentToBackgroundMessage): Promise<unknown> =>
    browser.runtime.sendMessage(message).catch((error: unknown) => {
      if (isContextDead(browser, error)) app.stop();
      return undefined;
    });

  const settings = readSettings(browser.storage.local);
  const removeBridge = installPageBridge({
    window,
    isAllowedOrigin: async (origin) => {
      const loaded = await settings;
      const patterns = webUiPatterns(
        browser.runtime.getManifest().externally_connectable?.matches,
        loaded.serverUrl,
        loaded.webUiPatterns,
      );
      return matchesAnyPattern(`${origin}/`, patterns);
    },
    clientInfo: async () => ((await send({ kind: 'client_info' })) as PluginClientInfo | undefined) ?? { ok: false },
    connectBrowser: async (token) => {
      const answer = v.safeParse(PairingOutcomeSchema, await send({ kind: 'connect_browser', token }));
      return answer.success
        ? answer.output
        : { ok: false, status: 'unreachable', message: 'the extension did not answer' };
    },
  });

  /** While the overlay shows, the background's picture is re-read this often (lost messages, restarts). */
  let syncTimer: number | undefined;
  const syncOverlay = async () => {
    const current = ui?.state();
    if (!ui || (current !== 'ongoing' && current !== 'takeover')) return;
    const session = await send({ kind: 'content_hello' });
    const parsed = v.safeParse(v.nullable(TabSessionSchema), session ?? null);
    if (parsed.success) ui?.sync(parsed.output);
  };

  function startUi(session: v.InferOutput<typeof TabSessionSchema>): void {
    if (ui || stopped) return;
    syncTimer = window.setInterval(() => void syncOverlay(), OVERLAY_SYNC_MS);
    ui = createUiController({
      session,
      render,
      reportTakeover: (taskId, reason) => void send({ kind: 'user_takeover', taskId, reason }),
      reportCommand: (taskId, command) => void send({ kind: 'overlay_command', taskId, command }),
    });
    stopInput = watchUserInput({
      window,
      isOverlayEvent: (event) => overlay.owns(event),
      ownInputActive: () => ownInputActive(guardHost, Date.now()),
      // A stray key or click on the page does not take over: the overlay points at its button.
      onUserInput: () => overlay.hint(),
    });
  }

  function onBackgroundMessage(message: unknown, sender: MessageSender): Promise<unknown> | undefined {
    if (sender.id !== browser.runtime.id || sender.tab) return undefined;
    const parsed = v.safeParse(BackgroundToContentMessageSchema, message);
    if (!parsed.success) return undefined;
    handle(parsed.output);
    return Promise.resolve({ ok: true });
  }

  function handle(message: BackgroundToContentMessage): void {
    if (message.kind === 'session') {
      if (ui) {
        ui.sync(message.session);
        render(ui.state(), shown.step);
      } else if (message.session) startUi(message.session);
      return;
    }
    if (message.kind === 'confirmation') {
      // The server's list of steps waiting for the person's yes: the overlay asks too.
      if (!ui || message.taskId === ui.taskId) overlay.confirmation(message.waiting[0] ?? null);
      return;
    }
    if (message.kind === 'action_started' && !ui) {
      // A task tab whose content script started before the task did: ask for the session.
      void hello();
    }
    if (message.kind === 'action_started' && message.capturesPage) capturing.add(message.actionId);
    if (message.kind === 'action_settled') {
      settleOwnInput(guardHost, Date.now(), message.sentAt);
      capturing.delete(message.actionId);
    }
    ui?.handle(message);
    render(ui?.state() ?? shown.state, shown.step);
  }

  async function hello(): Promise<void> {
    const session = await send({ kind: 'content_hello' });
    const parsed = v.safeParse(v.nullable(TabSessionSchema), session ?? null);
    if (parsed.success && parsed.output) startUi(parsed.output);
  }

  browser.runtime.onMessage.addListener(onBackgroundMessage);
  void hello();

  const app: ContentApp = {
    stop() {
      if (stopped) return;
      stopped = true;
      if (syncTimer !== undefined) window.clearInterval(syncTimer);
      removeBridge();
      stopInput?.();
      ui?.destroy();
      overlay.destroy();
      try {
        browser.runtime.onMessage.removeListener(onBackgroundMessage);
      } catch {
        // Dead context: nothing to remove from.
      }
    },
  };
  return app;
}
