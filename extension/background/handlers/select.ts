// browser_select: choose options of a <select> by value or visible label (several on a
// multiple select), firing input and change as a user's choice does. Reads back what is
// selected; an unknown or disabled option is INVALID_TARGET listing the options there are.
// An ARIA combobox or listbox is operated like a person would (aria-select.ts).
import type { ActionHandler } from '../action-context.ts';
import { ariaSelect, ariaWidgetOf } from '../aria-select.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { INPUT_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, runPageOp, targetSpec } from './page-op.ts';

export const select: ActionHandler<'browser_select'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const target = (await targetSpec(ctx, params.tabId, params))!;
  const navigated = await watchNavigation(ctx, params.tabId);
  const widget = await ariaWidgetOf(ctx, params.tabId, target);
  if (widget) {
    const warnings: string[] = [];
    const chosen = await ariaSelect(ctx, params.tabId, widget, params.values, warnings);
    return reportAfterInput(ctx, params.tabId, chosen, await navigated(INPUT_COMMIT_WAIT_MS), null, warnings);
  }
  const chosen = await runPageOp(ctx, params.tabId, 'selectOptions', { target, values: params.values });
  if (!chosen.ok) failTarget(chosen);
  const warnings = chosen.changed ? [] : ['the selection was already so; nothing changed'];
  return reportAfterInput(
    ctx,
    params.tabId,
    { selected: chosen.selected, labels: chosen.labels },
    await navigated(INPUT_COMMIT_WAIT_MS),
    null,
    warnings,
  );
};
