// The modal scope for a ref inside an out-of-process frame. The page agent in that frame sees no
// modal (the modal is the top document's), so the question is asked of the frame's <iframe>: the
// outermost out-of-process frame's owner element, found through DOM.getFrameOwner in the tab's own
// process, is marked and checked by the top page's agent like any other target. When the owner
// cannot be found (the frame is going away, CDP hiccups) the action goes on: the frame's own
// checks still apply, and a frame that has gone fails as a stale ref when the node is marked.
import type { ActionContext } from './action-context.ts';
import { fail } from './action-failure.ts';
import { markNode } from './mark-node.ts';
import { AX_MARK_ATTR } from './element-refs.ts';

/** The out-of-process frame whose <iframe> sits in the tab's own process (climbing nested ones). */
async function outermostRemoteFrame(ctx: ActionContext, tabId: number, frameId: string): Promise<string | undefined> {
  let session = ctx.cdp.frames.sessionOf(tabId, frameId);
  for (let hops = 0; session?.parentSessionId && hops < 10; hops++) {
    const parent = session.parentSessionId;
    session = (await ctx.cdp.frames.list(tabId)).find((s) => s.sessionId === parent);
  }
  return session?.frameId;
}

/** ELEMENT_OUTSIDE_MODAL when the frame holding ref `clickId` is behind the top document's open modal. */
export async function checkFrameOwnerScope(
  ctx: ActionContext,
  tabId: number,
  clickId: number,
  frameId: string,
): Promise<void> {
  const outer = await outermostRemoteFrame(ctx, tabId, frameId);
  if (!outer) return;
  const owner = await ctx.cdp
    .send<{ backendNodeId?: number }>(tabId, 'DOM.getFrameOwner', { frameId: outer })
    .catch(() => null);
  if (!owner?.backendNodeId) return;
  const value = `frame-of-${clickId}`;
  await markNode(ctx, tabId, owner.backendNodeId, value);
  const verdict = await ctx.page
    .run(tabId, 'reachable', { target: { mark: { attr: AX_MARK_ATTR, value } } })
    .catch(() => null);
  if (verdict && !verdict.ok && verdict.reason === 'outside_modal')
    fail(
      'ELEMENT_OUTSIDE_MODAL',
      `element ${clickId} is in a frame that ${verdict.message.replace(/^the element /, '')}`,
      {
        reason: 'outside_modal',
        clickId,
      },
    );
}
