// Keeps the task from taking the user's focus (seed 000 §4.3-4.4). The backstop only: new tabs
// from a task tab are kept in the background before Chrome can raise them (the click handler
// holds Ctrl/Meta on new-tab links and submit buttons; interruption-guard.ts opens what pages
// open by script as background tabs). Should a foreground tab still come from the task (e.g. a
// pop-up from a cross-site iframe, which the page guard does not reach), the tab the user was on
// is made active again as soon as it is seen: the user's tab, never the new task tab.
import type { BrowserApi } from '../shared/browser-api.ts';

/** A task tab activated this soon after it was opened was activated by the page, not the user. */
export const OPENED_TAB_GRACE_MS = 2_000;

export interface FocusGuard {
  /** Called for every tab a task adopted as its own. */
  taskTabOpened(tabId: number): void;
}

export function installFocusGuard(browser: BrowserApi, now: () => number): FocusGuard {
  const current = new Map<number, number>();
  /** Recent activations: which tab was active in the window before. */
  const activations = new Map<number, { previous: number | null; at: number }>();
  const opened = new Map<number, number>();

  const prune = () => {
    const limit = now() - OPENED_TAB_GRACE_MS;
    for (const [id, at] of opened) if (at < limit) opened.delete(id);
    for (const [id, activation] of activations) if (activation.at < limit) activations.delete(id);
  };

  function restore(tabId: number): void {
    const activation = activations.get(tabId);
    const openedAt = opened.get(tabId);
    if (!activation || openedAt === undefined) return;
    opened.delete(tabId);
    activations.delete(tabId);
    if (activation.previous !== null && activation.previous !== tabId) {
      void browser.tabs.update(activation.previous, { active: true }).catch(() => {});
    }
  }

  browser.tabs.onActivated.addListener(({ tabId, windowId }) => {
    prune();
    activations.set(tabId, { previous: current.get(windowId) ?? null, at: now() });
    current.set(windowId, tabId);
    restore(tabId);
  });
  void browser.tabs.query({ active: true }).then(
    (tabs) => {
      for (const tab of tabs) if (tab.id !== undefined && !current.has(tab.windowId)) current.set(tab.windowId, tab.id);
    },
    () => {},
  );

  return {
    taskTabOpened(tabId) {
      prune();
      opened.set(tabId, now());
      restore(tabId); // its activation may have been seen already
    },
  };
}
