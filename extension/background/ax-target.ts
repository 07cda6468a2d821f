// Acting on a ref of the accessibility-tree index: the node is found again by its backend node
// id (DOM.resolveNode) in the same document (the main frame's loaderId), and marked with
// data-mimo_ax_target="<clickId>" so the page agent's operations find it, in open shadow roots
// and same-origin frames too. A node of an out-of-process frame is marked through that frame's
// child session (the page agent then runs there too: page-agent-cdp.ts). A node that left the
// page, or a document that has gone, is a stale ref (INVALID_TARGET); CDP switched off in between
// is CDP_UNAVAILABLE.
import type { AxRefNode, AxRefs, TargetSpec } from '../page/page-ops.ts';
import type { ActionContext } from './action-context.ts';
import { fail } from './action-failure.ts';
import { CdpError } from './cdp-sessions.ts';
import { AX_MARK_ATTR } from './element-refs.ts';
import { checkFrameOwnerScope } from './frame-owner-scope.ts';

/** Runs on the element in the page's main world (Runtime.callFunctionOn): one mark per document. */
const MARK_FUNCTION = `function (attr, value) {
  for (const old of this.ownerDocument.querySelectorAll('[' + attr + ']')) if (old !== this) old.removeAttribute(attr);
  this.setAttribute(attr, value);
  return this.isConnected;
}`;

async function cdp<T>(
  ctx: ActionContext,
  tabId: number,
  method: string,
  params: Record<string, unknown>,
  sessionId?: string,
): Promise<T> {
  try {
    return await ctx.cdp.send<T>(tabId, method, params, sessionId ? { sessionId } : undefined);
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
  sessionId?: string,
): Promise<TargetSpec> {
  let objectId: string | undefined;
  const options = sessionId ? { sessionId } : undefined;
  try {
    ({
      object: { objectId },
    } = await ctx.cdp.send<{ object: { objectId?: string } }>(tabId, 'DOM.resolveNode', { backendNodeId }, options));
  } catch (error) {
    if (error instanceof CdpError && error.kind !== 'command') throw error;
  }
  if (!objectId)
    fail('INVALID_TARGET', `element ${value} left the page after it was indexed; index again`, { reason: 'stale' });
  const marked = await cdp<{ result: { value?: unknown } }>(
    ctx,
    tabId,
    'Runtime.callFunctionOn',
    {
      objectId,
      functionDeclaration: MARK_FUNCTION,
      arguments: [{ value: AX_MARK_ATTR }, { value }],
      returnByValue: true,
    },
    sessionId,
  );
  void ctx.cdp.send(tabId, 'Runtime.releaseObject', { objectId }, options).catch(() => {});
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
  const sessionId = await sessionOfRef(ctx, tabId, clickId, node);
  if (sessionId) await checkFrameOwnerScope(ctx, tabId, clickId, node.f);
  await markNode(ctx, tabId, node.b, String(clickId), sessionId);
  const spec: TargetSpec = {
    clickId,
    mark: { attr: AX_MARK_ATTR, value: String(clickId) },
    node: { backendId: node.b, frameId: node.f, mainFrame: node.f === frameTree.frame.id },
  };
  if (sessionId) spec.node!.sessionId = sessionId;
  return spec;
}

/** The child session of a ref in an out-of-process frame (undefined for the tab's own process). */
export async function sessionOfRef(
  ctx: ActionContext,
  tabId: number,
  clickId: number,
  node: AxRefNode,
): Promise<string | undefined> {
  if (!node.o) return undefined;
  // A restarted worker has no sessions yet: auto-attach lists them again.
  const known =
    ctx.cdp.frames.sessionOf(tabId, node.f) ??
    (await ctx.cdp.frames.list(tabId).then(() => ctx.cdp.frames.sessionOf(tabId, node.f)));
  if (!known)
    fail('INVALID_TARGET', `clickId ${clickId} is in a frame that has gone; index again`, { reason: 'stale', clickId });
  return known.sessionId;
}
