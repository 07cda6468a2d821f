// Safety rules of seed 000 §4.3 / §4.7, checked before any action touches a tab:
// only the task's own tab (INVALID_TASK_TAB), a closed task tab is TASK_TAB_CLOSED, and a tab
// showing the web UI (externally_connectable / server origin) is never acted on.
import type { BrowserApi, BrowserTab } from '../shared/browser-api.ts';
import { fail } from './action-failure.ts';
import type { TaskTabRecord, TaskTabs } from './task-tabs.ts';

export interface TabGuardDeps {
  browser: BrowserApi;
  taskTabs: TaskTabs;
  isWebUiUrl(url: string | undefined): boolean;
}

export interface GuardedTab {
  record: TaskTabRecord;
  tab: BrowserTab;
}

/** The tab if it still exists; undefined when it was closed. */
export async function liveTab(browser: BrowserApi, tabId: number): Promise<BrowserTab | undefined> {
  try {
    return await browser.tabs.get(tabId);
  } catch {
    return undefined;
  }
}

export function refuseWebUiTab(deps: Pick<TabGuardDeps, 'isWebUiUrl'>, tab: BrowserTab): void {
  const url = tab.url || tab.pendingUrl;
  if (deps.isWebUiUrl(url)) {
    fail('INVALID_TASK_TAB', `tab ${tab.id} shows the Mimo web UI (${url}); the plugin never acts on it`, {
      reason: 'web_ui_tab',
      tabId: tab.id,
    });
  }
}

/** The task record, or INVALID_TASK_TAB when the task has none. */
export async function requireTaskRecord(deps: TabGuardDeps, taskId: string): Promise<TaskTabRecord> {
  const record = await deps.taskTabs.get(taskId);
  if (!record)
    fail('INVALID_TASK_TAB', `task ${taskId} has no task tab on this plugin; start one with task_start`, {
      reason: 'no_task_tab',
    });
  return record;
}

/** `tabId` must be the task's current tab, still open, and not a web UI page. */
export async function requireTaskTab(deps: TabGuardDeps, taskId: string, tabId: number): Promise<GuardedTab> {
  const record = await requireTaskRecord(deps, taskId);
  if (tabId !== record.tabId) {
    if (record.closedTabs.includes(tabId)) {
      fail('TASK_TAB_CLOSED', `tab ${tabId} of task ${taskId} was closed; start a new one with task_start`, { tabId });
    }
    fail('INVALID_TASK_TAB', `tab ${tabId} is not the task tab of task ${taskId} (the task tab is ${record.tabId})`, {
      reason: 'not_task_tab',
      tabId,
      taskTabId: record.tabId,
    });
  }
  const tab = await liveTab(deps.browser, tabId);
  if (!tab || record.closedTabs.includes(tabId)) {
    if (!record.closedTabs.includes(tabId)) await deps.taskTabs.tabRemoved(tabId);
    fail('TASK_TAB_CLOSED', `the task tab ${tabId} of task ${taskId} was closed; start a new one with task_start`, {
      tabId,
    });
  }
  refuseWebUiTab(deps, tab);
  return { record, tab };
}
