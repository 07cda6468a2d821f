// The alarms backstop (shared/notes/chromium-extension-testing.md): an idle MV3 service worker
// is stopped after ~30 s and its WebSocket with it. A periodic alarm wakes the worker (whose
// top-level code reconnects) and asks the link to reconnect if needed; browser start and
// install do the same.
import type { BrowserApi } from '../shared/browser-api.ts';

export const KEEPALIVE_ALARM = 'mimo-keepalive';
/** Chrome's minimum period for packed extensions (30 s). */
export const KEEPALIVE_PERIOD_MINUTES = 0.5;

export function installKeepalive(browser: BrowserApi, ensureConnected: () => void): void {
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === KEEPALIVE_ALARM) ensureConnected();
  });
  browser.runtime.onStartup.addListener(() => ensureConnected());
  browser.runtime.onInstalled.addListener(() => ensureConnected());
  void Promise.resolve(browser.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: KEEPALIVE_PERIOD_MINUTES })).catch(
    () => {},
  );
}
