// New tabs from a task tab never come forward: what the page half of the guard reports as `open`
// (window.open, a script's click on a target link, a GET form into a new tab) is opened here as an
// inactive tab next to its opener, in the opener's window, with the opener as openerTabId (so the
// task adopts it and it joins the task's group). It opens blank and is guarded (URL policy, page
// guard) before it is sent to its URL, like every tab opened for a task (guarded-tab.ts). The stand-in window.open returned keeps working:
// setting its location navigates the background tab, close() closes it.
import type { BrowserApi } from '../shared/browser-api.ts';
import { openGuardedTab } from './guarded-tab.ts';
import type { NavigationGuard } from './navigation-guard.ts';
import type { InterruptionReports } from './interruption-reports.ts';
import type { TaskTabs } from './task-tabs.ts';

/** Only these may be opened on a page's behalf. */
export function openableUrl(url: string): boolean {
  if (url === 'about:blank') return true;
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Pop-ups remembered per opener document for navigate/close through the stand-in. */
const MAX_REMEMBERED = 200;

export interface PopupGuard {
  open(
    taskId: string,
    openerTabId: number,
    request: { openId: string; url: string; via: string },
  ): Promise<number | undefined>;
  navigate(taskId: string, openId: string, url: string): Promise<void>;
  close(taskId: string, openId: string): Promise<void>;
}

/**
 * Runs in an isolated world of the task tab (serialised into CDP `Runtime.evaluate`): a click with
 * the new-tab modifier on a hidden submit button of the form the page half marked. Chrome honours
 * the modifier of an event made in an isolated world, so the form opens in a background tab. No
 * validation: the page already submitted.
 */
export function resubmitInBackground(formId: string): boolean {
  const mac = /Mac/i.test(navigator.platform);
  const form = document.querySelector(`form[data-mimo-resubmit="${CSS.escape(formId)}"]`) as HTMLFormElement | null;
  if (!form) return false;
  form.removeAttribute('data-mimo-resubmit');
  form.setAttribute('data-mimo-resubmitting', '');
  const button = document.createElement('button');
  button.type = 'submit';
  button.hidden = true;
  button.formNoValidate = true;
  form.appendChild(button);
  try {
    button.dispatchEvent(
      new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, ctrlKey: !mac, metaKey: mac }),
    );
  } finally {
    button.remove();
    form.removeAttribute('data-mimo-resubmitting');
  }
  return true;
}

export interface PopupGuardDeps {
  browser: BrowserApi;
  taskTabs: TaskTabs;
  reports: InterruptionReports;
  /** The URL policy's guard, armed on a pop-up before its first navigation (absent in fakes). */
  navigationGuard?(): NavigationGuard | undefined;
  /** A tab the task now owns (adopted, grouped and guarded by the caller), before it navigates. */
  adopted(taskId: string, tabId: number, openerTabId: number): Promise<void>;
}

export function createPopupGuard(deps: PopupGuardDeps): PopupGuard {
  // The tab (being) opened per stand-in: navigate/close may arrive while it is still being made.
  const opened = new Map<string, Promise<number | undefined>>();
  const remember = (openId: string, tabId: Promise<number | undefined>) => {
    opened.set(openId, tabId);
    if (opened.size > MAX_REMEMBERED) opened.delete(opened.keys().next().value as string);
  };
  const ownTab = async (taskId: string, openId: string): Promise<number | undefined> => {
    const tabId = await opened.get(openId)?.catch(() => undefined);
    if (tabId === undefined) return undefined;
    const record = await deps.taskTabs.taskOfTab(tabId);
    return record?.taskId === taskId ? tabId : undefined;
  };

  async function openInBackground(
    taskId: string,
    openerTabId: number,
    request: { openId: string; url: string; via: string },
  ): Promise<number | undefined> {
    if (!openableUrl(request.url)) {
      deps.reports.report(taskId, {
        tabId: openerTabId,
        kind: 'popup_blocked',
        url: request.url.slice(0, 4_096),
        message: `the page tried to open ${JSON.stringify(request.url.slice(0, 200))} in a new tab (${request.via}); Mimo refused: only http(s) pages are opened for a task`,
      });
      return undefined;
    }
    const opener = await deps.browser.tabs.get(openerTabId);
    // Blank first, guarded and the task's own, then sent to its URL: the URL policy decides its
    // first request like any task tab's (guarded-tab.ts).
    const opened = await openGuardedTab(
      { browser: deps.browser, navigationGuard: deps.navigationGuard?.() },
      {
        taskId,
        url: request.url,
        openerTabId,
        windowId: opener.windowId,
        index: opener.index + 1,
        beforeNavigate: (tabId) => deps.adopted(taskId, tabId, openerTabId),
      },
    );
    if (!opened) return undefined;
    const tab = opened.tab;
    deps.reports.report(taskId, {
      tabId: openerTabId,
      kind: 'popup',
      url: request.url.slice(0, 4_096),
      newTabId: tab.id,
      message: `the page opened ${request.url.slice(0, 300)} in a new tab (${request.via}); Mimo opened it in the background as tab ${tab.id}, one of the task's tabs (switch to it with browser_switch_tab)`,
    });
    return tab.id;
  }

  return {
    open(taskId, openerTabId, request) {
      const work = openInBackground(taskId, openerTabId, request);
      remember(request.openId, work);
      return work;
    },
    async navigate(taskId, openId, url) {
      const tabId = await ownTab(taskId, openId);
      if (tabId === undefined || !openableUrl(url)) return;
      await deps.browser.tabs.update(tabId, { url });
    },
    async close(taskId, openId) {
      const tabId = await ownTab(taskId, openId);
      if (tabId !== undefined) await deps.browser.tabs.remove(tabId);
    },
  };
}
