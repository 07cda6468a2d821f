// browser_hover: a CDP mouseMoved to the element's centre (the page sees trusted pointerover /
// mouseover / mousemove, and :hover styles apply); DOM events as the fallback, with a warning.
import type { ActionHandler } from '../action-context.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';
import { cdpMoveTo, pointAt } from './pointer.ts';

export const hover: ActionHandler<'browser_hover'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = (await targetSpec(ctx, params.tabId, params))!;
  const warnings: string[] = [];
  try {
    await ctx.cdp.attach(params.tabId);
    const located = await pointAt(ctx, params.tabId, target, warnings);
    if (located) {
      await cdpMoveTo(ctx, params.tabId, located);
      return warnings.length > 0
        ? { hovered: true, strategy: 'cdp_mouse', warnings }
        : { hovered: true, strategy: 'cdp_mouse' };
    }
    warnings.push('the element has no visible box; dispatched DOM hover events instead');
  } catch (error) {
    if (!(error instanceof CdpError)) throw error;
    warnings.push(`cdp_mouse unavailable (${error.message}); used DOM events`);
  }
  const done = await runPageOp(ctx, params.tabId, 'domPointer', { target, kind: 'hover' });
  if (!done.ok) failTarget(done);
  return { hovered: true, strategy: 'dom_click', warnings };
};
