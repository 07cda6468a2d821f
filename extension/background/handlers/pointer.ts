// Shared by the pointer handlers (click, double-click, hover, check): where to put the mouse
// (the page agent's locate: scrolled into view, through the label of a visually hidden control)
// and CDP mouse events there. `null` from pointAt: the control has no box but element.click()
// operates it (a display:none checkbox with no visible label).
import type { ActionContext } from '../action-context.ts';
import type { PageOps, TargetSpec } from '../../page/page-ops.ts';
import { failTarget, runPageOp } from './page-op.ts';

export type Located = Extract<PageOps['locate']['result'], { ok: true }>;

const MODIFIER_CTRL = 2;
const MODIFIER_META = 4;

export async function pointAt(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec,
  warnings: string[],
): Promise<Located | null> {
  const located = await runPageOp(ctx, tabId, 'locate', { target, focus: false });
  if (!located.ok) {
    if (located.operableByDom) return null;
    failTarget(located);
  }
  if (located.obscuredBy)
    warnings.push(`the target's centre is covered by ${located.obscuredBy}; clicked there anyway`);
  // Inside a child frame the page agent's point is the frame's own: CDP gives it in the tab's viewport.
  if (target.node && !target.node.mainFrame)
    return { ...located, ...(await framePoint(ctx, tabId, target.node.backendId)) };
  return located;
}

async function framePoint(ctx: ActionContext, tabId: number, backendNodeId: number): Promise<{ x: number; y: number }> {
  await ctx.cdp.send(tabId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId }).catch(() => {});
  const { quads } = await ctx.cdp.send<{ quads: number[][] }>(tabId, 'DOM.getContentQuads', { backendNodeId });
  const quad = quads[0];
  if (!quad || quad.length < 8)
    return failTarget({ ok: false, reason: 'not_visible', message: 'the element in the frame has no box to click' });
  return {
    x: Math.round((quad[0]! + quad[2]! + quad[4]! + quad[6]!) / 4),
    y: Math.round((quad[1]! + quad[3]! + quad[5]! + quad[7]!) / 4),
  };
}

/** pressed + released `count` times at the point (a double-click is two, with clickCount 1 then 2). */
export async function cdpClickAt(ctx: ActionContext, tabId: number, located: Located, count: 1 | 2): Promise<void> {
  // A link or a form submit button that opens a new tab is clicked with Ctrl (Meta on macOS), like
  // a user opening it in the background: Chrome would otherwise open the new tab in the
  // foreground. Tabs a page opens from script are kept in the background by the interruption guard.
  const modifiers = located.opensNewTab ? (located.mac ? MODIFIER_META : MODIFIER_CTRL) : 0;
  const sends: Array<Promise<unknown>> = [];
  for (let clickCount = 1; clickCount <= count; clickCount++) {
    const base = { x: located.x, y: located.y, button: 'left', clickCount, modifiers };
    // Queued at once: one session delivers them in order, and the click costs one round trip.
    sends.push(ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...base }));
    sends.push(ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...base }));
  }
  await Promise.all(sends);
}

export async function cdpMoveTo(ctx: ActionContext, tabId: number, located: Located): Promise<void> {
  await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x: located.x,
    y: located.y,
    button: 'none',
    buttons: 0,
  });
}
