// browser_dom_index. Scope "document" (what browser-shell, the agent and the planner ask for) is
// read from Chrome's accessibility tree (ax-index.ts) when CDP can be used; otherwise, for scope
// "viewport", with assignAttr or `source: "dom"`, the page agent numbers the interactive elements
// by DOM heuristics (data-mimo_click_id or assignAttr) and the generation is recorded, so later
// clicks by clickId can be checked for staleness. The result's `source` says which it was.
import { DEFAULT_CLICK_ID_ATTR } from '../../../transport/contracts/index.ts';
import type { ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { axIndex } from '../ax-index.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { runPageOp } from './page-op.ts';

export const domIndex: ActionHandler<'browser_dom_index'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const scope = params.scope ?? 'viewport';
  const warnings: string[] = [];
  if (scope === 'document' && params.source !== 'dom' && params.assignAttr === undefined) {
    try {
      return await axIndex(ctx, params.tabId);
    } catch (error) {
      if (!(error instanceof CdpError)) throw error;
      if (params.source === 'ax')
        fail('CDP_UNAVAILABLE', `the accessibility tree could not be read: ${error.message}`, { reason: error.kind });
      warnings.push(
        `the accessibility tree could not be read (${error.message}); elements listed by the DOM heuristic instead`,
      );
    }
  }
  const attr = params.assignAttr ?? DEFAULT_CLICK_ID_ATTR;
  const firstId = await ctx.refs.nextFirstId(params.tabId);
  const page = await runPageOp(ctx, params.tabId, 'domIndex', { scope, attr, firstId });
  await ctx.refs.record(params.tabId, { docToken: page.docToken, attr, firstId, lastId: page.lastId });
  if (page.truncated) warnings.push(`only the first ${page.elements.length} elements were indexed`);
  return warnings.length > 0
    ? { elements: page.elements, source: 'dom', warnings }
    : { elements: page.elements, source: 'dom' };
};
