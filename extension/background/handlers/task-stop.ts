// task_stop: detach the debugger from the task's tabs, clear the overlay, forget the mapping;
// with closeTab also close the task tab. Idempotent: stopping an unknown task succeeds.
import type { ActionHandler } from '../action-context.ts';

export const taskStop: ActionHandler<'task_stop'> = async (params, ctx) => {
  const record = await ctx.taskTabs.get(ctx.taskId);
  if (!record) return { stopped: true };
  for (const tabId of record.tabs) {
    await ctx.cdp.detach(tabId);
    await ctx.refs.forget(tabId);
  }
  ctx.overlay.taskEnded(ctx.taskId, record.tabs);
  await ctx.taskTabs.remove(ctx.taskId);
  const warnings: string[] = [];
  if (params.closeTab) {
    await ctx.browser.tabs.remove(record.tabId).catch(() => warnings.push(`tab ${record.tabId} was already closed`));
  }
  return warnings.length > 0 ? { stopped: true, warnings } : { stopped: true };
};
