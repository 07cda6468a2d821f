// browser_wait_for_loaded: resolves when the task tab's *current or pending* document has
// loaded. With CDP (nav-tracker.ts), a navigation that was requested but has not committed is
// waited for, and only the load event of the new document (keyed by its loaderId) counts, so
// the old page is never returned for the new URL; same-document route changes need no load.
// The result names the document (url, title) and its HTTP status; 4xx/5xx add a warning. A
// page that could not be loaded at all (refused, DNS, TLS) is NAVIGATION_FAILED with the net
// error name. Without CDP: the tab's status "complete" (chrome.tabs). NAVIGATION_TIMEOUT after
// timeoutMs (default 15 s, inside the 20 s T_exec of seed 001 §4.1); TASK_TAB_CLOSED if the
// tab goes away meanwhile. A navigation of the tab the URL policy refused since the last
// task_start (a redirect hop, a script's location change) and not reported yet is URL_BLOCKED.
import type { ActionResult } from '../../../transport/contracts/index.ts';
import type { BrowserTab, TabChangeInfo } from '../../shared/browser-api.ts';
import type { ActionContext, ActionHandler } from '../action-context.ts';
import { ActionFailure, fail } from '../action-failure.ts';
import { liveTab, requireTaskTab } from '../tab-guard.ts';
import { failIfUnreportedBlock } from './blocked-report.ts';
import { runPageOp } from './page-op.ts';

export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function httpStatusWarning(status: number): string {
  return `the page answered HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}: this is an error page, not the content asked for`;
}

function tabsLoaded(ctx: ActionContext, tabId: number, timeoutMs: number): Promise<void> {
  const { tabs } = ctx.browser;
  return new Promise<void>((resolve, reject) => {
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
      if (id === tabId)
        finish(new ActionFailure('TASK_TAB_CLOSED', `the task tab ${tabId} was closed while loading`, { tabId }));
    };
    const timer = ctx.timers.setTimeout(
      () =>
        finish(
          new ActionFailure('NAVIGATION_TIMEOUT', `tab ${tabId} did not finish loading within ${timeoutMs} ms`, {
            timeoutMs,
          }),
        ),
      timeoutMs,
    );
    tabs.onUpdated.addListener(onUpdated);
    tabs.onRemoved.addListener(onRemoved);
    // Listen first, then look: a load that completes in between is not missed.
    requireTaskTab(ctx, ctx.taskId, tabId).then(
      ({ tab }) => {
        if (tab.status === 'complete' && !tab.pendingUrl) finish();
      },
      (error: unknown) =>
        error instanceof ActionFailure ? finish(error) : finish(new ActionFailure('PLUGIN_ERROR', String(error))),
    );
  });
}

async function trackedLoad(
  ctx: ActionContext,
  tabId: number,
  timeoutMs: number,
): Promise<{ url: string; httpStatus?: number }> {
  // A new tab whose first navigation the new-tab gate stopped: wait until it was sent again.
  await ctx.navigationGuard?.settled(tabId);
  const loading = ctx.nav.loaded(tabId, timeoutMs);
  const onRemoved = new Promise<never>((_, reject) => {
    const listener = (id: number) => {
      if (id !== tabId) return;
      ctx.browser.tabs.onRemoved.removeListener(listener);
      reject(new ActionFailure('TASK_TAB_CLOSED', `the task tab ${tabId} was closed while loading`, { tabId }));
    };
    ctx.browser.tabs.onRemoved.addListener(listener);
    void loading.finally(() => ctx.browser.tabs.onRemoved.removeListener(listener)).catch(() => {});
  });
  let doc;
  try {
    doc = await Promise.race([loading, onRemoved]);
  } catch (error) {
    if (error instanceof ActionFailure) throw error;
    if (error instanceof Error && error.message === 'timeout')
      fail('NAVIGATION_TIMEOUT', `tab ${tabId} did not finish loading within ${timeoutMs} ms`, { timeoutMs });
    // Tracking stopped (debugger detached): the tab's own status decides.
    await tabsLoaded(ctx, tabId, timeoutMs);
    return { url: (await liveTab(ctx.browser, tabId))?.url ?? '' };
  }
  if (doc.netError) {
    fail('NAVIGATION_FAILED', `${doc.url} could not be loaded: ${doc.netError}`, {
      netError: doc.netError,
      url: doc.url,
    });
  }
  return doc.httpStatus === undefined ? { url: doc.url } : { url: doc.url, httpStatus: doc.httpStatus };
}

export const waitForLoaded: ActionHandler<'browser_wait_for_loaded'> = async (params, ctx) => {
  try {
    const loaded = await waitForLoadedOnce(params, ctx);
    await failIfUnreportedBlock(ctx, params.tabId);
    return loaded;
  } catch (error) {
    // A refused navigation shows as a failed load (the blocked page): say what it was.
    if (error instanceof ActionFailure && error.error.code !== 'URL_BLOCKED')
      await failIfUnreportedBlock(ctx, params.tabId);
    throw error;
  }
};

const waitForLoadedOnce: ActionHandler<'browser_wait_for_loaded'> = async (params, ctx) => {
  const { tabId } = params;
  const timeoutMs = params.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  await requireTaskTab(ctx, ctx.taskId, tabId);
  // Tabs the task attached the debugger to (browser_debugger_attach) are tracked.
  let url: string | undefined;
  let httpStatus: number | undefined;
  if (await ctx.nav.tracking(tabId)) {
    ({ url, httpStatus } = await trackedLoad(ctx, tabId, timeoutMs));
  } else {
    await tabsLoaded(ctx, tabId, timeoutMs);
  }
  const result: ActionResult<'browser_wait_for_loaded'> = { status: 'complete' };
  // The document's own view: its title, and its HTTP status when the events did not carry it.
  const state = await runPageOp(ctx, tabId, 'documentState', {}).catch((error: unknown) => {
    if (error instanceof ActionFailure && error.error.code === 'NAVIGATION_FAILED') throw error;
    return null;
  });
  if (state) {
    url ??= state.url;
    httpStatus ??= state.httpStatus;
    result.title = state.title;
  }
  if (url) result.url = url;
  if (httpStatus !== undefined) {
    result.httpStatus = httpStatus;
    if (httpStatus >= 400) result.warnings = [httpStatusWarning(httpStatus)];
  }
  return result;
};
