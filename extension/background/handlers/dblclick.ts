// browser_dblclick: two CDP presses at the element's centre (clickCount 1 then 2), so the page
// sees click, click, dblclick as trusted events; DOM events as the fallback, with a warning.
import type { ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { POINTER_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';
import { cdpClickAt, pointAt } from './pointer.ts';

export const dblclick: ActionHandler<'browser_dblclick'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = (await targetSpec(ctx, params.tabId, params))!;
  const warnings: string[] = [];
  const navigated = await watchNavigation(ctx, params.tabId);
  if (params.strategy !== 'dom_click') {
    try {
      await ctx.cdp.attach(params.tabId);
      const located = await pointAt(ctx, params.tabId, target, warnings);
      if (located) {
        await cdpClickAt(ctx, params.tabId, located, 2);
        return reportAfterInput(
          ctx,
          params.tabId,
          { dblclicked: true as const, strategy: 'cdp_mouse' as const },
          await navigated(POINTER_COMMIT_WAIT_MS),
          null,
          warnings,
        );
      }
      warnings.push('the element has no visible box; dispatched DOM double-click events instead');
    } catch (error) {
      if (!(error instanceof CdpError)) throw error;
      if (params.strategy === 'cdp_mouse')
        fail('CDP_UNAVAILABLE', `cdp_mouse double-click not possible: ${error.message}`, { reason: error.kind });
      warnings.push(`cdp_mouse unavailable (${error.message}); used DOM events`);
    }
  }
  const done = await runPageOp(ctx, params.tabId, 'domPointer', { target, kind: 'dblclick' });
  if (!done.ok) failTarget(done);
  return reportAfterInput(
    ctx,
    params.tabId,
    { dblclicked: true as const, strategy: 'dom_click' as const },
    await navigated(POINTER_COMMIT_WAIT_MS),
    null,
    warnings,
  );
};
