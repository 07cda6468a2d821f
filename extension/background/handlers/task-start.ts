// task_start (seed 000 §4.2 A, §4.7): a new inactive tab in a tab group titled for the task, or
// (reuseExistingTab) the task's live tab navigated to `url`. Never activates a tab.
import type { ActionResult } from '../../../transport/contracts/index.ts';
import type { ActionHandler } from '../action-context.ts';
import { fail, messageOf } from '../action-failure.ts';
import { BLANK_URL, openGuardedTab } from '../guarded-tab.ts';
import { liveTab } from '../tab-guard.ts';
import type { TaskTabRecord } from '../task-tabs.ts';

export const DEFAULT_START_URL = BLANK_URL;

export function defaultGroupTitle(taskId: string): string {
  return `Mimo ${taskId.slice(-6)}`;
}

async function groupTab(
  ctx: Parameters<ActionHandler<'task_start'>>[1],
  tabId: number,
  windowId: number,
  existing: TaskTabRecord | undefined,
  title: string,
): Promise<{ groupId?: number; warning?: string }> {
  if (!ctx.browser.tabGroups)
    return { warning: 'tab groups are not supported by this browser; the task tab is not grouped' };
  try {
    const reuse = existing?.groupId !== undefined && existing.windowId === windowId ? existing.groupId : undefined;
    let groupId: number;
    try {
      groupId = await ctx.browser.tabs.group(
        reuse === undefined ? { tabIds: [tabId] } : { tabIds: [tabId], groupId: reuse },
      );
    } catch (error) {
      if (reuse === undefined) throw error;
      groupId = await ctx.browser.tabs.group({ tabIds: [tabId] }); // the old group is gone
    }
    await ctx.browser.tabGroups.update(groupId, { title, color: 'blue' });
    return { groupId };
  } catch (error) {
    return { warning: `the task tab could not be grouped: ${messageOf(error)}` };
  }
}

/** Navigation guard first (navigation-guard.ts); without CDP the URL is checked after loading. */
async function armGuard(
  ctx: Parameters<ActionHandler<'task_start'>>[1],
  tabId: number,
  warnings: string[],
): Promise<void> {
  const armed = await ctx.navigationGuard?.arm(tabId, ctx.taskId);
  if (armed && !armed.guarded)
    warnings.push(
      `navigations of this tab cannot be intercepted (${armed.reason}); the URL policy is checked after each page loads`,
    );
}

export const taskStart: ActionHandler<'task_start'> = async (params, ctx) => {
  const url = params.url ?? DEFAULT_START_URL;
  if (params.url !== undefined && ctx.isWebUiUrl(params.url)) {
    fail('INVALID_TASK_TAB', `refusing to open the Mimo web UI (${params.url}) as a task tab`, {
      reason: 'web_ui_tab',
    });
  }
  const existing = await ctx.taskTabs.get(ctx.taskId);
  const warnings: string[] = [];

  if (params.reuseExistingTab && existing) {
    const tab = await liveTab(ctx.browser, existing.tabId);
    if (tab && !ctx.isWebUiUrl(tab.url)) {
      if (params.url !== undefined) await armGuard(ctx, existing.tabId, warnings);
      // Tracked tabs know at once that a new document is coming (wait_for_loaded waits for it).
      if (params.url !== undefined && (await ctx.nav.tracking(existing.tabId)))
        ctx.nav.expect(existing.tabId, params.url);
      // Refusals before this navigation are moot: wait_for_loaded reports only those of this one.
      if (params.url !== undefined) ctx.navigationGuard?.blocks.reported(existing.tabId);
      let updated = tab;
      try {
        if (params.url !== undefined) updated = await ctx.browser.tabs.update(existing.tabId, { url: params.url });
      } catch (error) {
        const state = ctx.nav.state(existing.tabId);
        if (state) state.pending = null; // no navigation will come
        throw error;
      }
      await ctx.refs.forget(existing.tabId);
      const result: ActionResult<'task_start'> = {
        tabId: existing.tabId,
        windowId: updated.windowId,
        url: updated.pendingUrl || updated.url || url,
      };
      if (existing.groupId !== undefined) result.groupId = existing.groupId;
      if (updated.title) result.title = updated.title;
      if (warnings.length > 0) result.warnings = warnings;
      return result;
    }
  }

  // The tab starts blank and is guarded before its first navigation (guarded-tab.ts).
  // A task keeps the window of its first tab (not whichever window was focused last).
  const windowId =
    existing &&
    (await ctx.browser.windows.get(existing.windowId).then(
      () => true,
      () => false,
    ))
      ? existing.windowId
      : undefined;
  const opened = await openGuardedTab(ctx, {
    taskId: ctx.taskId,
    url,
    newWindowIfNone: true,
    ...(windowId === undefined ? {} : { windowId }),
    // A tracked tab knows at once that its first document is coming (wait_for_loaded waits for it).
    beforeNavigate: async (tabId, navigates) => {
      if (navigates && (await ctx.nav.tracking(tabId))) ctx.nav.expect(tabId, url);
    },
  });
  if (!opened) fail('PLUGIN_ERROR', 'the browser did not create a tab');
  const tab = opened.tab;
  warnings.push(...opened.warnings);
  const group = await groupTab(ctx, tab.id, tab.windowId, existing, params.groupTitle ?? defaultGroupTitle(ctx.taskId));
  if (group.warning) warnings.push(group.warning);

  const record: TaskTabRecord = {
    taskId: ctx.taskId,
    tabId: tab.id,
    windowId: tab.windowId,
    tabs: [tab.id, ...(existing?.tabs ?? [])],
    closedTabs: existing?.closedTabs ?? [],
  };
  if (group.groupId !== undefined) record.groupId = group.groupId;
  await ctx.taskTabs.put(record);

  const result: ActionResult<'task_start'> = {
    tabId: tab.id,
    windowId: tab.windowId,
    url: tab.pendingUrl || tab.url || url,
  };
  if (group.groupId !== undefined) result.groupId = group.groupId;
  if (tab.title) result.title = tab.title;
  if (warnings.length > 0) result.warnings = warnings;
  return result;
};
