// browser_focus: element.focus() in the page (with the tab's focus emulation on, focus and
// blur handlers run although the tab stays in the background). Reports whether it took.
import type { ActionHandler } from '../action-context.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';

export const focus: ActionHandler<'browser_focus'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = (await targetSpec(ctx, params.tabId, params))!;
  // Attaching turns on focus emulation; without CDP, focus still moves inside the document.
  await ctx.cdp.attach(params.tabId).catch(() => {});
  const done = await runPageOp(ctx, params.tabId, 'focus', { target });
  if (!done.ok) failTarget(done);
  return done.focused
    ? { focused: true }
    : { focused: false, warnings: [`${done.tag} did not take the focus (it may not be focusable)`] };
};
