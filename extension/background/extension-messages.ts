// What the extension's own content scripts and pages may ask the background (runtime.onMessage,
// checked by the message router's sender allowlist): the overlay's session, the person's takeover,
// confirmation answers and overlay commands from a task tab; client info and "Connect this
// browser" from a web UI page; the status and the pairing question from the options page.
import type { PluginClientInfo } from '../../transport/contracts/index.ts';
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import type { Settings } from '../shared/settings.ts';
import type { ClientIdentity } from './client-identity.ts';
import { createMessageRouter } from './message-router.ts';
import type { createOverlayConfirmation } from './overlay-confirmation.ts';
import type { OverlayRelay } from './overlay-relay.ts';
import { pageOrigin, pairBrowser } from './pairing.ts';
import { createPairingConsent } from './pairing-consent.ts';
import type { ServerLink } from './server-link.ts';
import type { TaskTabs } from './task-tabs.ts';

export interface ExtensionMessagesDeps {
  browser: BrowserApi;
  identity: ClientIdentity;
  taskTabs: TaskTabs;
  overlay: OverlayRelay;
  confirmations: ReturnType<typeof createOverlayConfirmation>;
  /** The server link (made after these listeners are registered). */
  link(): ServerLink;
  isWebUiUrl(url: string | undefined): boolean;
  settings(): Settings;
  /** Pairing stored new settings: use them and reconnect. */
  applySettings(next: Settings): Promise<void>;
  fetch: typeof fetch;
  sleep(ms: number): Promise<void>;
  now(): number;
  timers: Timers;
  newId(): string;
}

export function installExtensionMessages(deps: ExtensionMessagesDeps): void {
  const { browser, identity, taskTabs, overlay, confirmations, isWebUiUrl } = deps;
  const manifest = browser.runtime.getManifest();
  const consent = createPairingConsent({ browser, timers: deps.timers, newId: deps.newId });

  const clientInfo = async (): Promise<PluginClientInfo> => {
    const info: PluginClientInfo = {
      ok: true,
      extensionId: browser.runtime.id,
      extensionName: manifest.name,
      version: manifest.version,
      socketConnected: deps.link().status().connected,
    };
    const clientId = identity.current() ?? (await identity.get().catch(() => null));
    if (clientId) info.clientId = clientId;
    return info;
  };

  browser.runtime.onMessage.addListener(
    createMessageRouter({
      extensionId: browser.runtime.id,
      extensionOrigin: browser.runtime.getURL(''),
      content: {
        content_hello: async (_message, sender) => overlay.sessionFor(sender.tab.id),
        user_takeover: async (message, sender) => {
          const record = await taskTabs.taskOfTab(sender.tab.id);
          if (record?.taskId !== message.taskId || record.tabId !== sender.tab.id) return { ok: false };
          return { ok: overlay.userTakeover(message.taskId, sender.tab.id, message.reason) };
        },
        confirmation_answer: async (message, sender) => confirmations.fromTab(message, sender.tab.id),
        overlay_command: async (message, sender) => {
          const record = await taskTabs.taskOfTab(sender.tab.id);
          if (record?.taskId !== message.taskId) return { ok: false };
          return { ok: overlay.overlayCommand(message.taskId, message.command) };
        },
        // Only web UI pages may ask (the content script checks event.origin too).
        client_info: async (_message, sender) =>
          isWebUiUrl(sender.tab.url ?? sender.url) ? clientInfo() : { ok: false },
        // "Connect this browser": only a web UI page, and the server URL is that page's origin.
        connect_browser: async (message, sender) => {
          const pageUrl = sender.url ?? sender.tab.url;
          if (!isWebUiUrl(pageUrl) || !pageOrigin(pageUrl))
            return { ok: false, status: 'invalid', message: 'this page may not connect the browser' };
          return pairBrowser(
            {
              storage: browser.storage.local,
              settings: deps.settings,
              status: () => deps.link().status(),
              confirm: (serverUrl) => consent.ask(serverUrl, sender.tab.id),
              apply: deps.applySettings,
              fetch: deps.fetch,
              sleep: deps.sleep,
              now: deps.now,
            },
            { token: message.token, pageUrl },
          );
        },
      },
      options: {
        get_status: async () => deps.link().status(),
        pairing_question: async (message) => consent.question(message.id),
        pairing_answer: async (message) => ({ ok: consent.answer(message.id, message.allow) }),
      },
    }),
  );
}
