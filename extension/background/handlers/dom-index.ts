// browser_dom_index: number the interactive elements (data-mimo_click_id or assignAttr) and
// record the generation, so later clicks by clickId can be checked for staleness.
import { DEFAULT_CLICK_ID_ATTR } from '../../../transport/contracts/index.ts';
import type { ActionHandler } from '../action-context.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { runPageOp } from './page-op.ts';

export const domIndex: ActionHandler<'browser_dom_index'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const attr = params.assignAttr ?? DEFAULT_CLICK_ID_ATTR;
  const firstId = await ctx.refs.nextFirstId(params.tabId);
  const page = await runPageOp(ctx, params.tabId, 'domIndex', { scope: params.scope ?? 'viewport', attr, firstId });
  await ctx.refs.record(params.tabId, { docToken: page.docToken, attr, firstId, lastId: page.lastId });
  return page.truncated
    ? { elements: page.elements, warnings: [`only the first ${page.elements.length} elements were indexed`] }
    : { elements: page.elements };
};
