// What an input action reports of its target after it ran: role, name, value and
// states from Chrome's accessibility tree (Accessibility.getPartialAXTree of that one node), so a
// client sees whether its click opened the menu, checked the box or sorted the column. The node
// is the accessibility-tree ref's own, or the element a DOM-index clickId / XPath names, found in
// the page's main world. Best effort: no CDP, a navigation or a node that left gives no states.
import type { ElementStates } from '../../transport/contracts/element-states.ts';
import type { TargetSpec } from '../page/page-ops.ts';
import type { ActionContext, ActionHandler } from './action-context.ts';
import type { ActionName } from '../../transport/contracts/index.ts';
import { elementStatesOf } from './ax-states.ts';
import { sessionFrameOf } from './ax-target.ts';
import type { AxNode } from './ax-tree.ts';

/** Lets the page's own handlers re-render (a framework sets aria-expanded in a task after the click). */
const SETTLE_EXPRESSION = 'new Promise((resolve) => setTimeout(resolve, 16))';

function lookupExpression(target: TargetSpec): string | null {
  if (target.clickId === undefined && target.xpath === undefined) return 'document.activeElement';
  if (target.ref && target.clickId !== undefined)
    return `document.querySelector(${JSON.stringify(`[${target.ref.attr}="${target.clickId}"]`)})`;
  if (target.xpath !== undefined)
    return `document.evaluate(${JSON.stringify(target.xpath)}, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue`;
  return null;
}

export async function targetStates(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec | null,
): Promise<ElementStates | undefined> {
  if (!target || !ctx.cdp.isAttached(tabId)) return undefined;
  try {
    await ctx.cdp.send(tabId, 'Runtime.evaluate', { expression: SETTLE_EXPRESSION, awaitPromise: true });
    let params: Record<string, unknown>;
    const session = target.node?.sessionId ? { sessionId: target.node.sessionId } : undefined;
    if (target.node) params = { backendNodeId: target.node.backendId, fetchRelatives: false };
    else {
      const expression = lookupExpression(target);
      if (!expression) return undefined;
      const found = await ctx.cdp.send<{ result: { objectId?: string } }>(tabId, 'Runtime.evaluate', { expression });
      if (!found.result.objectId) return undefined;
      params = { objectId: found.result.objectId, fetchRelatives: false };
    }
    const { nodes } = await ctx.cdp.send<{ nodes: AxNode[] }>(tabId, 'Accessibility.getPartialAXTree', params, session);
    if (typeof params.objectId === 'string')
      void ctx.cdp.send(tabId, 'Runtime.releaseObject', { objectId: params.objectId }).catch(() => {});
    const node = nodes.find((n) => n.backendDOMNodeId !== undefined) ?? nodes[0];
    return node ? elementStatesOf(node) : undefined;
  } catch {
    return undefined;
  }
}

/** The result with `target` added when the action did not navigate away and the states could be read. */
export async function withTargetStates<T extends { navigated?: boolean; navigation?: { sameDocument: boolean } }>(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec | null,
  result: T,
): Promise<T & { target?: ElementStates }> {
  if (result.navigated === true && result.navigation?.sameDocument !== true) return result;
  const states = await targetStates(ctx, tabId, target);
  return states ? { ...result, target: states } : result;
}

/** The node the action's params name, looked up again after the action (no target: the focused element). */
async function paramsTarget(
  ctx: ActionContext,
  tabId: number,
  params: { clickId?: number; xpath?: string },
): Promise<TargetSpec | null> {
  if (params.clickId !== undefined) {
    const check = await ctx.refs.check(tabId, params.clickId);
    if (!check.ok) return null;
    const node = check.ref.ax?.nodes[params.clickId];
    if (!node) return { clickId: params.clickId, ref: check.ref };
    const spec: TargetSpec = { clickId: params.clickId, node: { backendId: node.b, frameId: node.f, mainFrame: true } };
    const sessionId = node.o ? ctx.cdp.frames.sessionOf(tabId, sessionFrameOf(node))?.sessionId : undefined;
    if (sessionId) spec.node!.sessionId = sessionId;
    return spec;
  }
  return params.xpath !== undefined ? { xpath: params.xpath } : {};
}

type InputAction =
  | 'browser_click'
  | 'browser_dblclick'
  | 'browser_check'
  | 'browser_select'
  | 'browser_type'
  | 'browser_press'
  | 'browser_focus'
  | 'browser_hover';

/** Wraps an input action's handler so its result carries the target's states after it ran. */
export function reportingTargetStates<K extends InputAction & ActionName>(handler: ActionHandler<K>): ActionHandler<K> {
  return async (params, ctx) => {
    const result = await handler(params, ctx);
    const p = params as { tabId: number; clickId?: number; xpath?: string };
    const target = await paramsTarget(ctx, p.tabId, p).catch(() => null);
    return (await withTargetStates(ctx, p.tabId, target, result as never)) as typeof result;
  };
}
