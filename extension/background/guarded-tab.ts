// The one way the extension opens a tab for a task (task_start, and the pop-ups popup-guard.ts
// opens on a task page's behalf): the tab is created inactive on about:blank, the navigation
// guard (navigation-guard.ts, CDP Fetch) is armed on it, the caller makes it the task's own
// (adopted, grouped, page guard installed), and only then is it sent to its URL. So the URL
// policy decides the tab's very first request, and the page's first script already runs under
// the page guard. Never activates a tab or focuses a window.
import type { BrowserApi, BrowserTab } from '../shared/browser-api.ts';
import type { NavigationGuard } from './navigation-guard.ts';

export const BLANK_URL = 'about:blank';

export interface GuardedTabDeps {
  browser: BrowserApi;
  /** Absent in unit-test fakes: the tab is then simply opened with its URL. */
  navigationGuard?: NavigationGuard | undefined;
}

export interface GuardedTabRequest {
  taskId: string;
  url: string;
  windowId?: number;
  index?: number;
  openerTabId?: number;
  /** No window to put it in (every window closed): open an unfocused window instead of failing. */
  newWindowIfNone?: boolean;
  /**
   * After the guard is armed, before the first navigation: make the tab the task's own.
   * `navigates`: the tab is about to be sent to its URL (false: it was created with it, or stays blank).
   */
  beforeNavigate?(tabId: number, navigates: boolean): Promise<void>;
}

export interface GuardedTab {
  tab: BrowserTab & { id: number };
  warnings: string[];
}

export async function openGuardedTab(
  deps: GuardedTabDeps,
  request: GuardedTabRequest,
): Promise<GuardedTab | undefined> {
  const { browser } = deps;
  // Armed even when it stays blank for now: a pop-up opened on about:blank is navigated right
  // after (window.open('') then w.location = ...), and that must meet the guard, not race its attach.
  const guarded = deps.navigationGuard !== undefined;
  const navigates = guarded && request.url !== BLANK_URL;
  const createUrl = navigates ? BLANK_URL : request.url;
  const properties: Parameters<BrowserApi['tabs']['create']>[0] = { url: createUrl, active: false };
  if (request.windowId !== undefined) properties.windowId = request.windowId;
  if (request.index !== undefined) properties.index = request.index;
  if (request.openerTabId !== undefined) properties.openerTabId = request.openerTabId;
  let tab: BrowserTab | undefined;
  try {
    tab = await browser.tabs.create(properties);
  } catch (error) {
    if (!request.newWindowIfNone) throw error;
    const window = await browser.windows.create({ url: createUrl, focused: false });
    tab = window.tabs?.[0];
  }
  if (!tab || tab.id === undefined) return undefined;
  const tabId = tab.id;
  const warnings: string[] = [];
  if (guarded) {
    const armed = await deps.navigationGuard!.arm(tabId, request.taskId);
    if (!armed.guarded)
      warnings.push(
        `navigations of this tab cannot be intercepted (${armed.reason}); the URL policy is checked after each page loads`,
      );
  }
  await request.beforeNavigate?.(tabId, navigates);
  if (navigates) tab = await browser.tabs.update(tabId, { url: request.url });
  return { tab: { ...tab, id: tabId }, warnings };
}
