// browser_get_html: the page's HTML (or one element's, by XPath) uploaded as an artifact.
import type { ActionHandler } from '../action-context.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { failTarget, runPageOp } from './page-op.ts';

export const getHtml: ActionHandler<'browser_get_html'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const args = params.xpath === undefined ? {} : { xpath: params.xpath };
  const page = await runPageOp(ctx, params.tabId, 'html', args);
  if (!page.ok) failTarget(page);
  const artifact = await ctx.artifacts.upload({
    taskId: ctx.taskId,
    kind: 'html',
    contentType: 'text/html; charset=utf-8',
    bytes: page.html,
  });
  return { artifactId: artifact.artifactId, url: artifact.url };
};
