// browser_wait_for_loaded: resolves when the task tab's status is "complete" (its load event);
// NAVIGATION_TIMEOUT after timeoutMs (default 15 s, inside the 20 s T_exec of seed 001 §4.1);
// TASK_TAB_CLOSED if the tab goes away meanwhile.
import type { BrowserTab, TabChangeInfo } from '../../shared/browser-api.ts';
import type { ActionHandler } from '../action-context.ts';
import { ActionFailure } from '../action-failure.ts';
import { requireTaskTab } from '../tab-guard.ts';

export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

export const waitForLoaded: ActionHandler<'browser_wait_for_loaded'> = async (params, ctx) => {
  const { tabId } = params;
  const timeoutMs = params.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const { tabs } = ctx.browser;
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (error?: ActionFailure) => {
      if (done) return;
      done = true;
      tabs.onUpdated.removeListener(onUpdated);
      tabs.onRemoved.removeListener(onRemoved);
      ctx.timers.clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const onUpdated = (id: number, change: TabChangeInfo, tab: BrowserTab) => {
      if (id === tabId && (change.status === 'complete' || tab.status === 'complete')) finish();
    };
    const onRemoved = (id: number) => {
      if (id === tabId) finish(new ActionFailure('TASK_TAB_CLOSED', `the task tab ${tabId} was closed while loading`, { tabId }));
    };
    const timer = ctx.timers.setTimeout(
      () => finish(new ActionFailure('NAVIGATION_TIMEOUT', `tab ${tabId} did not finish loading within ${timeoutMs} ms`, { timeoutMs })),
      timeoutMs,
    );
    tabs.onUpdated.addListener(onUpdated);
    tabs.onRemoved.addListener(onRemoved);
    // Listen first, then look: a load that completes in between is not missed.
    requireTaskTab(ctx, ctx.taskId, tabId).then(
      ({ tab }) => {
        if (tab.status === 'complete' && !tab.pendingUrl) finish();
      },
      (error: unknown) => (error instanceof ActionFailure ? finish(error) : finish(new ActionFailure('PLUGIN_ERROR', String(error)))),
    );
  });
  return { status: 'complete' };
};
