// browser_switch_tab (seed 002): rebind the task to another of its own tabs (the task tab and
// tabs opened from it). Never activates the tab; an unknown tab gets a readable error.
import type { ActionResult } from '../../../transport/contracts/index.ts';
import type { ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { liveTab, refuseWebUiTab, requireTaskRecord } from '../tab-guard.ts';

export const switchTab: ActionHandler<'browser_switch_tab'> = async (params, ctx) => {
  const record = await requireTaskRecord(ctx, ctx.taskId);
  if (!record.tabs.includes(params.tabId)) {
    if (record.closedTabs.includes(params.tabId))
      fail('TASK_TAB_CLOSED', `tab ${params.tabId} of task ${ctx.taskId} was closed`, { tabId: params.tabId });
    fail(
      'INVALID_TASK_TAB',
      `tab ${params.tabId} is not one of this task's tabs; the task's tabs are ${record.tabs.join(', ') || 'none'}`,
      {
        reason: 'not_task_tab',
        tabId: params.tabId,
        taskTabs: record.tabs,
      },
    );
  }
  const tab = await liveTab(ctx.browser, params.tabId);
  if (!tab) {
    await ctx.taskTabs.tabRemoved(params.tabId);
    fail('TASK_TAB_CLOSED', `tab ${params.tabId} of task ${ctx.taskId} was closed`, { tabId: params.tabId });
  }
  refuseWebUiTab(ctx, tab);
  await ctx.taskTabs.put({ ...record, tabId: params.tabId, windowId: tab.windowId });
  const result: ActionResult<'browser_switch_tab'> = { tabId: params.tabId, url: tab.url || tab.pendingUrl || '' };
  if (tab.title) result.title = tab.title;
  return result;
};
