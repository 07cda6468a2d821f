// browser_type (seed 000 §4.2 C, §4.4): focus the target (or keep the focused element), select
// its contents so the text replaces them, then enter the text over CDP (typing-plan.ts: key by
// key when short, Input.insertText chunks with keys at newlines and at the end when long; Enter
// to submit).
// Without CDP: dom_input (native value setter + input/change, form.requestSubmit) with a
// warning; an explicit "cdp_key" that cannot be served is CDP_UNAVAILABLE.
import type { ActionContext, ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { ENTER_DOWN, ENTER_UP } from '../key-events.ts';
import { typingGuardMs, typingPlan } from '../typing-plan.ts';
import { comboboxSuggestions } from '../aria-select.ts';
import { requireTaskTab } from '../tab-guard.ts';
import type { TargetSpec } from '../../page/page-ops.ts';
import { INPUT_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, focusFrameNode, runPageOp, targetSpec } from './page-op.ts';

/** false: the control takes no keystrokes (range, date, color): its value is set through the DOM. */
async function cdpType(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec | null,
  text: string,
  submit: boolean,
): Promise<boolean> {
  await ctx.cdp.attach(tabId);
  const plan = typingPlan(text);
  const focused = await runPageOp(ctx, tabId, 'focusForTyping', {
    target,
    guardMs: typingGuardMs(plan) + (submit ? 100 : 0),
  });
  if (!focused.ok) failTarget(focused);
  if (focused.direct) return false;
  await focusFrameNode(ctx, tabId, target);
  if (text === '') {
    // Clearing: the contents are selected, Delete removes them.
    await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', {
      type: 'rawKeyDown',
      key: 'Delete',
      code: 'Delete',
      windowsVirtualKeyCode: 46,
    });
    await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', {
      type: 'keyUp',
      key: 'Delete',
      code: 'Delete',
      windowsVirtualKeyCode: 46,
    });
  }
  for (const stroke of plan) {
    if (stroke.kind === 'insert') {
      await ctx.cdp.send(tabId, 'Input.insertText', { text: stroke.text });
    } else {
      await Promise.all([
        ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', stroke.down),
        ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', stroke.up),
      ]);
    }
  }
  if (submit) {
    await runPageOp(ctx, tabId, 'submitWatch', { arm: true });
    await Promise.all([
      ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', ENTER_DOWN),
      ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', ENTER_UP),
    ]);
  }
  return true;
}

/** After Enter: did the page see a submit? A navigation says yes; a document gone before it could be asked counts as navigated. */
async function submitSeen(ctx: ActionContext, tabId: number): Promise<boolean> {
  try {
    return (await runPageOp(ctx, tabId, 'submitWatch', { arm: false })).seen;
  } catch {
    return false;
  }
}

export const typeText: ActionHandler<'browser_type'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = await targetSpec(ctx, params.tabId, params);
  const submit = params.submit ?? false;
  const warnings: string[] = [];
  const navigated = await watchNavigation(ctx, params.tabId);
  const report = async (strategy: 'cdp_key' | 'dom_input', sawSubmit?: () => Promise<boolean>) => {
    const nav = await navigated(INPUT_COMMIT_WAIT_MS);
    const submitted = submit ? nav.navigated === true || (sawSubmit ? await sawSubmit() : false) : undefined;
    if (submit && !submitted && strategy === 'cdp_key')
      warnings.push('Enter was pressed but the page saw no form submit and did not navigate: nothing was submitted');
    const result = await reportAfterInput(
      ctx,
      params.tabId,
      { typed: true as const, strategy, ...(submitted !== undefined ? { submitted } : {}) },
      nav,
      submit ? { target } : null,
      warnings,
    );
    // Into a combobox: the suggestions its list now shows.
    const suggestions =
      target && !submit && result.navigated !== true ? await comboboxSuggestions(ctx, params.tabId, target) : undefined;
    return suggestions ? { ...result, suggestions } : result;
  };
  if (params.strategy !== 'dom_input') {
    try {
      if (await cdpType(ctx, params.tabId, target, params.text, submit))
        return report('cdp_key', () => submitSeen(ctx, params.tabId));
      if (params.strategy === 'cdp_key')
        fail(
          'CDP_UNAVAILABLE',
          'this control takes no keystrokes (range, date, color); its value is set with dom_input',
          { reason: 'not_typed' },
        );
    } catch (error) {
      if (!(error instanceof CdpError)) throw error;
      if (params.strategy === 'cdp_key')
        fail('CDP_UNAVAILABLE', `cdp_key typing not possible: ${error.message}`, { reason: error.kind });
      warnings.push(`cdp_key unavailable (${error.message}); used dom_input`);
    }
  }
  const typed = await runPageOp(ctx, params.tabId, 'domInput', { target, text: params.text, submit });
  if (!typed.ok) failTarget(typed);
  if (submit && !typed.submitted) warnings.push('no form to submit; pressed Enter on the element');
  return report('dom_input', async () => typed.submitted);
};
