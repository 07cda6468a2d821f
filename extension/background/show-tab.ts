// "Show the tab": the person asked, in the web UI, to see the agent's tab. The one
// time Mimo brings a tab forward: the tab is activated, its window focused and its group
// expanded. Only a tab of the named task is shown; anything else is refused with a code.
import { ShowTabCommandSchema, validate } from '../../transport/contracts/index.ts';
import type { BrowserApi } from '../shared/browser-api.ts';
import type { TaskTabs } from './task-tabs.ts';

export type ShowTabResult =
  { ok: true; data: { tabId: number } } | { ok: false; error: { code: string; message: string } };

export async function showTaskTab(
  browser: BrowserApi,
  taskTabs: Pick<TaskTabs, 'get'>,
  message: unknown,
): Promise<ShowTabResult> {
  const checked = validate(ShowTabCommandSchema, message, 'SCHEMA_VALIDATION_FAILED');
  if (!checked.ok) return { ok: false, error: { code: checked.error.code, message: checked.error.message } };
  const { taskId, tabId } = checked.value;
  const record = await taskTabs.get(taskId);
  if (!record || !record.tabs.includes(tabId))
    return {
      ok: false,
      error: { code: 'INVALID_TASK_TAB', message: `tab ${tabId} is not one of task ${taskId}'s tabs` },
    };
  try {
    const tab = await browser.tabs.update(tabId, { active: true });
    if (tab?.groupId !== undefined && tab.groupId >= 0)
      await browser.tabGroups?.update(tab.groupId, { collapsed: false }).catch(() => {});
    if (tab?.windowId !== undefined) await browser.windows.update?.(tab.windowId, { focused: true }).catch(() => {});
    return { ok: true, data: { tabId } };
  } catch (error) {
    return {
      ok: false,
      error: {
        code: 'TASK_TAB_CLOSED',
        message: `tab ${tabId} could not be shown: ${String((error as Error)?.message ?? error)}`,
      },
    };
  }
}
