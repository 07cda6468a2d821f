// browser_click (seed 000 §4.2 C, §4.4, §4.6): by default CDP Input.dispatchMouseEvent
// pressed + released at the element's centre after scrolling it into view (isTrusted events,
// tab stays in the background); a visually hidden checkbox or radio is clicked through its
// label. If CDP cannot be used, dom_click with a warning; an explicit strategy "cdp_mouse" that
// cannot be served is CDP_UNAVAILABLE. The result says whether the click navigated, and for a
// submit button that did not, which fields the form refused.
import type { ActionContext, ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';
import type { TargetSpec } from '../../page/page-ops.ts';
import { POINTER_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';
import { cdpClickAt, pointAt } from './pointer.ts';

/** false: the target has no box to click (a hidden control without a visible label). */
async function cdpClick(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec,
  warnings: string[],
): Promise<{ clicked: boolean; submitsForm: boolean }> {
  await ctx.cdp.attach(tabId);
  const located = await pointAt(ctx, tabId, target, warnings);
  if (!located) return { clicked: false, submitsForm: false };
  await cdpClickAt(ctx, tabId, located, 1);
  return { clicked: true, submitsForm: located.submitsForm };
}

export const click: ActionHandler<'browser_click'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = await targetSpec(ctx, params.tabId, params);
  if (!target) fail('INVALID_TARGET', 'browser_click needs clickId or xpath', { reason: 'no_target' });
  const warnings: string[] = [];
  const navigated = await watchNavigation(ctx, params.tabId);
  if (params.strategy !== 'dom_click') {
    try {
      const done = await cdpClick(ctx, params.tabId, target, warnings);
      if (done.clicked) {
        const submit = done.submitsForm ? { target } : null;
        return reportAfterInput(
          ctx,
          params.tabId,
          { clicked: true as const, strategy: 'cdp_mouse' as const },
          await navigated(POINTER_COMMIT_WAIT_MS),
          submit,
          warnings,
        );
      }
      warnings.push('the element has no visible box or label; used element.click()');
    } catch (error) {
      if (!(error instanceof CdpError)) throw error;
      if (params.strategy === 'cdp_mouse')
        fail('CDP_UNAVAILABLE', `cdp_mouse click not possible: ${error.message}`, { reason: error.kind });
      warnings.push(`cdp_mouse unavailable (${error.message}); used dom_click`);
    }
  }
  const clicked = await runPageOp(ctx, params.tabId, 'domClick', { target });
  if (!clicked.ok) failTarget(clicked);
  return reportAfterInput(
    ctx,
    params.tabId,
    { clicked: true as const, strategy: 'dom_click' as const },
    await navigated(POINTER_COMMIT_WAIT_MS),
    null,
    warnings,
  );
};
