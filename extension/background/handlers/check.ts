// browser_check: bring a checkbox, radio or switch to `checked` (default true) the way a user
// does, by clicking it (through its label when it is visually hidden), then read the state back.
// Already in that state: nothing is clicked. A click that does not change the state, or
// unchecking a radio, is INVALID_TARGET: the caller never hears "done" for a box still unticked.
import type { ActionContext, ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';
import type { TargetSpec } from '../../page/page-ops.ts';
import { POINTER_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';
import { cdpClickAt, pointAt } from './pointer.ts';

async function stateOf(ctx: ActionContext, tabId: number, target: TargetSpec) {
  const state = await runPageOp(ctx, tabId, 'checkState', { target });
  if (!state.ok) failTarget(state);
  return state;
}

export const check: ActionHandler<'browser_check'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = (await targetSpec(ctx, params.tabId, params))!;
  const wanted = params.checked ?? true;
  const before = await stateOf(ctx, params.tabId, target);
  if (before.checked === wanted)
    return { checked: before.checked, changed: false, strategy: params.strategy ?? 'cdp_mouse' };
  if (!wanted && before.kind === 'radio')
    fail('INVALID_TARGET', 'a radio button cannot be unchecked; check another option of its group instead', {
      reason: 'not_editable',
    });
  const warnings: string[] = [];
  const navigated = await watchNavigation(ctx, params.tabId);
  let strategy: 'cdp_mouse' | 'dom_click' = 'dom_click';
  if (params.strategy !== 'dom_click') {
    try {
      await ctx.cdp.attach(params.tabId);
      const located = await pointAt(ctx, params.tabId, target, warnings);
      if (located) {
        await cdpClickAt(ctx, params.tabId, located, 1);
        strategy = 'cdp_mouse';
        if (located.via === 'label') warnings.push('the control is visually hidden; clicked its label');
      } else {
        warnings.push('the control has no visible box or label; used element.click()');
      }
    } catch (error) {
      if (!(error instanceof CdpError)) throw error;
      if (params.strategy === 'cdp_mouse')
        fail('CDP_UNAVAILABLE', `cdp_mouse not possible: ${error.message}`, { reason: error.kind });
      warnings.push(`cdp_mouse unavailable (${error.message}); used dom_click`);
    }
  }
  if (strategy === 'dom_click') {
    const clicked = await runPageOp(ctx, params.tabId, 'domClick', { target });
    if (!clicked.ok) failTarget(clicked);
  }
  const navigation = await navigated(POINTER_COMMIT_WAIT_MS);
  if (navigation.navigated && navigation.navigation?.sameDocument === false) {
    return reportAfterInput(ctx, params.tabId, { checked: wanted, changed: true, strategy }, navigation, null, [
      ...warnings,
      'the click navigated; the new page was not checked again',
    ]);
  }
  const read = await runPageOp(ctx, params.tabId, 'checkState', { target });
  if (!read.ok) {
    // The page re-rendered the control on click (its element is gone): say so instead of guessing.
    if (read.reason !== 'stale') failTarget(read);
    return reportAfterInput(ctx, params.tabId, { checked: wanted, changed: true, strategy }, navigation, null, [
      ...warnings,
      'the page replaced the control after the click; its new state could not be read back (take a new snapshot to check)',
    ]);
  }
  const after = read;
  if (after.checked !== wanted) {
    fail(
      'INVALID_TARGET',
      `clicking did not ${wanted ? 'check' : 'uncheck'} the control (it is still ${after.checked ? 'checked' : 'unchecked'}); the page may handle it differently`,
      { reason: 'state_unchanged' },
    );
  }
  return reportAfterInput(
    ctx,
    params.tabId,
    { checked: after.checked, changed: true, strategy },
    navigation,
    null,
    warnings,
  );
};
