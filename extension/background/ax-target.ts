// Acting on a ref of the accessibility-tree index: the node is found again by its backend node
// id (DOM.resolveNode) in the same document (the main frame's loaderId), and marked with
// data-mimo_ax_target="<clickId>" so the page agent's operations find it, in open shadow roots
// and same-origin frames too. A node that left the page, or a document that has gone, is a
// stale ref (INVALID_TARGET); CDP switched off in between is CDP_UNAVAILABLE.
import type { AxRefs, TargetSpec } from '../page/page-ops.ts';
import type { ActionContext } from './action-context.ts';
import { fail } from './action-failure.ts';
import { CdpError } from './cdp-sessions.ts';
import { AX_MARK_ATTR } from './element-refs.ts';

/** Runs on the element in the page's main world (Runtime.callFunctionOn): one mark per document. */
const MARK_FUNCTION = `function (attr, value) {
  for (const old of this.ownerDocument.querySelectorAll('[' + attr + ']')) if (old !== this) old.removeAttribute(attr);
  this.setAttribute(attr, value);
  return this.isConnected;
}`;

async function cdp<T>(ctx: ActionContext, tabId: number, method: string, params: Record<string, unknown>): Promise<T> {
  try {
    return await ctx.cdp.send<T>(tabId, method, params);
  } catch (error) {
    if (error instanceof CdpError && error.kind === 'unavailable')
      fail('CDP_UNAVAILABLE', `this ref comes from the accessibility tree, which needs CDP: ${error.message}`, {
        reason: error.kind,
      });
    throw error;
  }
}

/** Marks the node `backendNodeId` with data-mimo_ax_target=`value`; INVALID_TARGET (stale) when it has left the page. */
export async function markNode(
  ctx: ActionContext,
  tabId: number,
  backendNodeId: number,
  value: string,
): Promise<TargetSpec> {
  let objectId: string | undefined;
  try {
    ({
      object: { objectId },
    } = await ctx.cdp.send<{ object: { objectId?: string } }>(tabId, 'DOM.resolveNode', { backendNodeId }));
  } catch (error) {
    if (error instanceof CdpError && error.kind !== 'command') throw error;
  }
  if (!objectId)
    fail('INVALID_TARGET', `element ${value} left the page after it was indexed; index again`, { reason: 'stale' });
  const marked = await cdp<{ result: { value?: unknown } }>(ctx, tabId, 'Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: MARK_FUNCTION,
    arguments: [{ value: AX_MARK_ATTR }, { value }],
    returnByValue: true,
  });
  void ctx.cdp.send(tabId, 'Runtime.releaseObject', { objectId }).catch(() => {});
  if (marked.result.value !== true)
    fail('INVALID_TARGET', `element ${value} left the page after it was indexed; index again`, { reason: 'stale' });
  return { mark: { attr: AX_MARK_ATTR, value } };
}

export async function axTarget(ctx: ActionContext, tabId: number, clickId: number, refs: AxRefs): Promise<TargetSpec> {
  const node = refs.nodes[clickId]!;
  const { frameTree } = await cdp<{ frameTree: { frame: { id: string; loaderId: string } } }>(
    ctx,
    tabId,
    'Page.getFrameTree',
    {},
  );
  if (frameTree.frame.loaderId !== refs.loaderId) {
    fail('INVALID_TARGET', `clickId ${clickId} belongs to a page that is gone (the tab navigated); index again`, {
      reason: 'stale',
      clickId,
    });
  }
  await markNode(ctx, tabId, node.b, String(clickId));
  return {
    clickId,
    mark: { attr: AX_MARK_ATTR, value: String(clickId) },
    node: { backendId: node.b, frameId: node.f, mainFrame: node.f === frameTree.frame.id },
  };
}
