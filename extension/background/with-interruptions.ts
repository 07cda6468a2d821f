// Wraps the action handlers so that every task tab an action touches is guarded against page
// interruptions first (and the tab task_start opens, right after), a beforeunload prompt during
// an action is accepted, and the interruptions gathered since the task's last result reach the
// agent as warnings of this result.
import type { ActionName } from '../../transport/contracts/index.ts';
import type { ActionContext, ActionHandler, ActionHandlers } from './action-context.ts';
import { messageOf } from './action-failure.ts';
import type { InterruptionGuard } from './interruption-guard.ts';
import type { InterruptionReports } from './interruption-reports.ts';

function tabIdOf(value: unknown): number | undefined {
  const tabId = typeof value === 'object' && value !== null ? (value as { tabId?: unknown }).tabId : undefined;
  return typeof tabId === 'number' ? tabId : undefined;
}

export function withInterruptions(
  handlers: ActionHandlers,
  guard: InterruptionGuard,
  reports: InterruptionReports,
): ActionHandlers {
  const wrap =
    <K extends ActionName>(handler: ActionHandler<K>): ActionHandler<K> =>
    async (params, ctx: ActionContext) => {
      const warnings: string[] = [];
      const ensure = async (tabId: number | undefined) => {
        if (tabId === undefined || guard.isGuarded(tabId) || !ctx.settings().useCdp) return;
        const record = await ctx.taskTabs.get(ctx.taskId);
        if (!record?.tabs.includes(tabId)) return;
        await guard.guard(ctx.taskId, tabId).catch((error) => {
          warnings.push(`pop-ups, dialogs and prompts of tab ${tabId} are not intercepted: ${messageOf(error)}`);
        });
      };
      guard.actionStarted(ctx.taskId);
      try {
        await ensure(tabIdOf(params));
        const result = await handler(params, ctx);
        await ensure(tabIdOf(result));
        warnings.push(...(await reports.drain(ctx.taskId)));
        if (warnings.length === 0) return result;
        const own = (result as { warnings?: string[] }).warnings ?? [];
        return { ...result, warnings: [...own, ...warnings] };
      } finally {
        guard.actionEnded(ctx.taskId);
      }
    };
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, wrap(handler as ActionHandler<ActionName>)]),
  ) as unknown as ActionHandlers;
}
