// Marking an accessibility node for the page agent: the node is found by its backend node id
// (DOM.resolveNode, through an out-of-process frame's child session when it lives there) and
// given data-mimo_ax_target="<value>" (one mark per document), which the page agent's operations
// find in open shadow roots and same-origin frames too. A node that left the page is a stale ref
// (INVALID_TARGET); CDP switched off in between is CDP_UNAVAILABLE.
import type { TargetSpec } from '../page/page-ops.ts';
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

/** A CDP command for an accessibility ref: CDP switched off is CDP_UNAVAILABLE. */
export async function cdpOrUnavailable<T>(
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
  const marked = await cdpOrUnavailable<{ result: { value?: unknown } }>(
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
