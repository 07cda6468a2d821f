// browser_xpath_scan: visible interactive and text-bearing elements with their XPath (and the
// clickId of the current dom_index generation, when they have one).
import type { ActionHandler } from '../action-context.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { runPageOp } from './page-op.ts';

export const xpathScan: ActionHandler<'browser_xpath_scan'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const current = await ctx.refs.current(params.tabId);
  const page = await runPageOp(ctx, params.tabId, 'xpathScan', {
    scope: params.scope ?? 'viewport',
    attr: current?.attr ?? null,
  });
  return page.truncated
    ? { elements: page.elements, warnings: [`only the first ${page.elements.length} elements were scanned`] }
    : { elements: page.elements };
};
