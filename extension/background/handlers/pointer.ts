// Shared by the pointer handlers (click, double-click, hover, check): where to put the mouse
// (the page agent's locate: scrolled into view, through the label of a visually hidden control,
// once no animation moves it) and CDP mouse events there. `null` from pointAt: the control has no box but element.click()
// operates it (a display:none checkbox with no visible label).
import type { ActionContext } from '../action-context.ts';
import type { PageOps, TargetSpec } from '../../page/page-ops.ts';
import { failTarget, runPageOp } from './page-op.ts';

/** `sessionId`: the point is in an out-of-process frame's own viewport, and its mouse events go to that frame's session. */
export type Located = Extract<PageOps['locate']['result'], { ok: true }> & { sessionId?: string };

const MODIFIER_CTRL = 2;
/** How long a click waits for an animation moving its target to end, and how often it looks. */
export const SETTLE_MAX_MS = 1_000;
const SETTLE_POLL_MS = 50;
const MODIFIER_META = 4;

export async function pointAt(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec,
  warnings: string[],
): Promise<Located | null> {
  let located = await runPageOp(ctx, tabId, 'locate', { target, focus: false });
  // An element an animation is moving (a menu or tree opening): located again until it settles,
  // as Playwright waits for a stable box, within a bound.
  for (let waited = 0; located.ok && located.moving && waited < SETTLE_MAX_MS; waited += SETTLE_POLL_MS) {
    await new Promise<void>((resolve) => ctx.timers.setTimeout(resolve, SETTLE_POLL_MS));
    located = await runPageOp(ctx, tabId, 'locate', { target, focus: false });
  }
  if (!located.ok) {
    if (located.operableByDom) return null;
    failTarget(located);
  }
  if (located.moving) warnings.push(`the target was still moving after ${SETTLE_MAX_MS} ms; clicked where it was`);
  if (located.obscuredBy)
    warnings.push(`the target's centre is covered by ${located.obscuredBy}; clicked there anyway`);
  // Inside a child frame the page agent's point is the frame's own: CDP gives it in the tab's viewport.
  if (target.node && !target.node.mainFrame) return { ...located, ...(await framePoint(ctx, tabId, target.node)) };
  return located;
}

type FrameNode = NonNullable<TargetSpec['node']>;

function centre(quads: number[][]): { x: number; y: number } | null {
  const quad = quads[0];
  if (!quad || quad.length < 8) return null;
  return { x: (quad[0]! + quad[2]! + quad[4]! + quad[6]!) / 4, y: (quad[1]! + quad[3]! + quad[5]! + quad[7]!) / 4 };
}

/**
 * An out-of-process frame measures in its own viewport, and its mouse events are sent to its own
 * session there: the browser's hit test of the tab routes nothing into such a frame while the tab
 * is in the background (measured: a click at the right tab point reached the <iframe>, not the control).
 */
async function framePoint(
  ctx: ActionContext,
  tabId: number,
  node: FrameNode,
): Promise<{ x: number; y: number; sessionId?: string }> {
  const options = node.sessionId ? { sessionId: node.sessionId } : undefined;
  const backendNodeId = node.backendId;
  if (node.sessionId) await showFrame(ctx, tabId, node.sessionId);
  await ctx.cdp.send(tabId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId }, options).catch(() => {});
  const { quads } = await ctx.cdp.send<{ quads: number[][] }>(tabId, 'DOM.getContentQuads', { backendNodeId }, options);
  const point = centre(quads);
  if (!point)
    return failTarget({ ok: false, reason: 'not_visible', message: 'the element in the frame has no box to click' });
  const rounded = { x: Math.round(point.x), y: Math.round(point.y) };
  return node.sessionId ? { ...rounded, sessionId: node.sessionId } : rounded;
}

/** Scrolls the <iframe> of the out-of-process frame of session `sessionId` into the tab's view (a person would see what is clicked). */
async function showFrame(ctx: ActionContext, tabId: number, sessionId: string): Promise<void> {
  const frame = ctx.cdp.frames.bySession(tabId, sessionId);
  if (!frame) return;
  const options = frame.parentSessionId ? { sessionId: frame.parentSessionId } : undefined;
  const owner = await ctx.cdp
    .send<{ backendNodeId: number }>(tabId, 'DOM.getFrameOwner', { frameId: frame.frameId }, options)
    .catch(() => null);
  if (owner)
    await ctx.cdp
      .send(tabId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: owner.backendNodeId }, options)
      .catch(() => {});
}

/** pressed + released `count` times at the point (a double-click is two, with clickCount 1 then 2). */
export async function cdpClickAt(ctx: ActionContext, tabId: number, located: Located, count: 1 | 2): Promise<void> {
  // A link or a form submit button that opens a new tab is clicked with Ctrl (Meta on macOS), like
  // a user opening it in the background: Chrome would otherwise open the new tab in the
  // foreground. Tabs a page opens from script are kept in the background by the interruption guard.
  const modifiers = located.opensNewTab ? (located.mac ? MODIFIER_META : MODIFIER_CTRL) : 0;
  const sends: Array<Promise<unknown>> = [];
  const session = located.sessionId ? { sessionId: located.sessionId } : undefined;
  for (let clickCount = 1; clickCount <= count; clickCount++) {
    const base = { x: located.x, y: located.y, button: 'left', clickCount, modifiers };
    // Queued at once: one session delivers them in order, and the click costs one round trip.
    sends.push(ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...base }, session));
    sends.push(
      ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...base }, session),
    );
  }
  await Promise.all(sends);
}

export async function cdpMoveTo(ctx: ActionContext, tabId: number, located: Located): Promise<void> {
  await ctx.cdp.send(
    tabId,
    'Input.dispatchMouseEvent',
    { type: 'mouseMoved', x: located.x, y: located.y, button: 'none', buttons: 0 },
    located.sessionId ? { sessionId: located.sessionId } : undefined,
  );
}
