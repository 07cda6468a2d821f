// Helpers shared by the handlers that work inside the page: run a page-agent operation with
// errors as ActionFailure, and turn clickId/xpath params into a checked TargetSpec.
import type { PageOpFailure, PageOpName, PageOps, TargetSpec } from '../../page/page-ops.ts';
import type { ActionContext } from '../action-context.ts';
import { ActionFailure, fail } from '../action-failure.ts';
import { PageAgentError } from '../page-agent-client.ts';
import { axTarget } from '../ax-target.ts';

export async function runPageOp<K extends PageOpName>(
  ctx: ActionContext,
  tabId: number,
  op: K,
  args: PageOps[K]['args'],
): Promise<PageOps[K]['result']> {
  try {
    return await ctx.page.run(tabId, op, args);
  } catch (error) {
    if (error instanceof PageAgentError && /showing error page/i.test(error.message)) {
      // Chrome refuses scripts on its own error page: the document never loaded.
      throw new ActionFailure(
        'NAVIGATION_FAILED',
        `the tab shows the browser's error page: the page could not be loaded (${error.message})`,
        { reason: 'error_page', tabId },
      );
    }
    if (error instanceof PageAgentError) {
      // Usually a navigation in progress or a page extensions may not script (chrome://, web store).
      throw new ActionFailure('PLUGIN_ERROR', error.message, { reason: 'page_script_failed', tabId }, true);
    }
    throw error;
  }
}

export function failTarget(failure: PageOpFailure): never {
  if (failure.reason === 'outside_modal') fail('ELEMENT_OUTSIDE_MODAL', failure.message, { reason: failure.reason });
  fail('INVALID_TARGET', failure.message, { reason: failure.reason });
}

/** A clickId is checked against the tab's current dom_index generation first (stale refs). */
export async function targetSpec(
  ctx: ActionContext,
  tabId: number,
  params: { clickId?: number; xpath?: string },
): Promise<TargetSpec | null> {
  if (params.clickId !== undefined) {
    const check = await ctx.refs.check(tabId, params.clickId);
    if (!check.ok) fail('INVALID_TARGET', check.message, { reason: check.reason, clickId: params.clickId });
    if (check.ref.ax) return axTarget(ctx, tabId, params.clickId, check.ref.ax);
    return { clickId: params.clickId, ref: check.ref };
  }
  if (params.xpath !== undefined) return { xpath: params.xpath };
  return null;
}

/**
 * A target in an out-of-process frame: the page agent focused it inside its frame, but the keys
 * the tab's session sends go to the frame the browser has focused. DOM.focus through the frame's
 * session moves the browser's focus into that frame too.
 */
export async function focusFrameNode(ctx: ActionContext, tabId: number, target: TargetSpec | null): Promise<void> {
  const node = target?.node;
  if (!node?.sessionId) return;
  await ctx.cdp
    .send(tabId, 'DOM.focus', { backendNodeId: node.backendId }, { sessionId: node.sessionId })
    .catch(() => {});
}
