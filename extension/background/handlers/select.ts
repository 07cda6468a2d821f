// browser_select: choose options of a <select> by value or visible label (several on a
// multiple select), firing input and change as a user's choice does. Reads back what is
// selected; an unknown or disabled option is INVALID_TARGET listing the options there are.
import type { ActionHandler } from '../action-context.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { INPUT_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';

export const select: ActionHandler<'browser_select'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = (await targetSpec(ctx, params.tabId, params))!;
  const navigated = await watchNavigation(ctx, params.tabId);
  const chosen = await runPageOp(ctx, params.tabId, 'selectOptions', { target, values: params.values });
  if (!chosen.ok) failTarget(chosen);
  const warnings = chosen.changed ? [] : ['the selection was already so; nothing changed'];
  return reportAfterInput(ctx, params.tabId, { selected: chosen.selected, labels: chosen.labels }, await navigated(INPUT_COMMIT_WAIT_MS), null, warnings);
};
