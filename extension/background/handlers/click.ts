// browser_click (seed 000 §4.2 C, §4.4, §4.6): by default CDP Input.dispatchMouseEvent
// pressed + released at the element's centre after scrolling it into view (isTrusted events,
// tab stays in the background). If CDP cannot be used, dom_click with a warning; an explicit
// strategy "cdp_mouse" that cannot be served is CDP_UNAVAILABLE.
import type { ActionContext, ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';
import type { TargetSpec } from '../../page/page-ops.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';

const MODIFIER_CTRL = 2;
const MODIFIER_META = 4;

async function cdpClick(ctx: ActionContext, tabId: number, target: TargetSpec, warnings: string[]): Promise<void> {
  await ctx.cdp.attach(tabId);
  const located = await runPageOp(ctx, tabId, 'locate', { target, focus: false });
  if (!located.ok) failTarget(located);
  if (located.obscuredBy) warnings.push(`the target's centre is covered by ${located.obscuredBy}; clicked there anyway`);
  // A link or a form submit button that opens a new tab is clicked with Ctrl (Meta on macOS), like
  // a user opening it in the background: Chrome would otherwise open the new tab in the
  // foreground. Tabs a page opens from script are kept in the background by the interruption guard.
  const modifiers = located.opensNewTab ? (located.mac ? MODIFIER_META : MODIFIER_CTRL) : 0;
  const base = { x: located.x, y: located.y, button: 'left', clickCount: 1, modifiers };
  // Both queued at once: one session delivers them in order, and the click costs one round trip.
  await Promise.all([
    ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...base }),
    ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...base }),
  ]);
}

export const click: ActionHandler<'browser_click'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = await targetSpec(ctx, params.tabId, params);
  if (!target) fail('INVALID_TARGET', 'browser_click needs clickId or xpath', { reason: 'no_target' });
  const warnings: string[] = [];
  if (params.strategy !== 'dom_click') {
    try {
      await cdpClick(ctx, params.tabId, target, warnings);
      return warnings.length > 0 ? { clicked: true, strategy: 'cdp_mouse', warnings } : { clicked: true, strategy: 'cdp_mouse' };
    } catch (error) {
      if (!(error instanceof CdpError)) throw error;
      if (params.strategy === 'cdp_mouse') fail('CDP_UNAVAILABLE', `cdp_mouse click not possible: ${error.message}`, { reason: error.kind });
      warnings.push(`cdp_mouse unavailable (${error.message}); used dom_click`);
    }
  }
  const clicked = await runPageOp(ctx, params.tabId, 'domClick', { target });
  if (!clicked.ok) failTarget(clicked);
  return warnings.length > 0 ? { clicked: true, strategy: 'dom_click', warnings } : { clicked: true, strategy: 'dom_click' };
};
