// Acting on a ref of the accessibility-tree index: the node is found again by its backend node
// id (DOM.resolveNode) in the same document (the main frame's loaderId), and marked
// (mark-node.ts) so the page agent's operations find it. A node of an out-of-process frame, or of
// a frame nested in one in the same process, is marked through the child session of the
// out-of-process frame that holds it (the page agent then runs there too: page-agent-cdp.ts). A
// document that has gone is a stale ref (INVALID_TARGET).
import type { AxRefNode, AxRefs, TargetSpec } from '../page/page-ops.ts';
import type { ActionContext } from './action-context.ts';
import { fail } from './action-failure.ts';
import { AX_MARK_ATTR } from './element-refs.ts';
import { checkFrameOwnerScope } from './frame-owner-scope.ts';
import { cdpOrUnavailable, markNode } from './mark-node.ts';

/** The out-of-process frame whose child session holds a ref's node (its own frame, or the one it is nested in). */
export const sessionFrameOf = (node: AxRefNode): string => node.t ?? node.f;

export async function axTarget(ctx: ActionContext, tabId: number, clickId: number, refs: AxRefs): Promise<TargetSpec> {
  const node = refs.nodes[clickId]!;
  const { frameTree } = await cdpOrUnavailable<{ frameTree: { frame: { id: string; loaderId: string } } }>(
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
  if (sessionId) await checkFrameOwnerScope(ctx, tabId, clickId, sessionFrameOf(node));
  await markNode(ctx, tabId, node.b, String(clickId), sessionId);
  const spec: TargetSpec = {
    clickId,
    mark: { attr: AX_MARK_ATTR, value: String(clickId) },
    node: { backendId: node.b, frameId: node.f, mainFrame: node.f === frameTree.frame.id },
  };
  if (sessionId) spec.node!.sessionId = sessionId;
  return spec;
}

/** The child session of a ref in an out-of-process frame or one nested in it (undefined for the tab's own process). */
export async function sessionOfRef(
  ctx: ActionContext,
  tabId: number,
  clickId: number,
  node: AxRefNode,
): Promise<string | undefined> {
  if (!node.o) return undefined;
  const frameId = sessionFrameOf(node);
  // A restarted worker has no sessions yet: auto-attach lists them again.
  const known =
    ctx.cdp.frames.sessionOf(tabId, frameId) ??
    (await ctx.cdp.frames.list(tabId).then(() => ctx.cdp.frames.sessionOf(tabId, frameId)));
  if (!known)
    fail('INVALID_TARGET', `clickId ${clickId} is in a frame that has gone; index again`, { reason: 'stale', clickId });
  return known.sessionId;
}
