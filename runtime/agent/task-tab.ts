// The one owner of a task's tab, for the agent (TaskBrowser, browser tools) and MCP (page
// driver, browser sessions, browser-shell) alike: which tab is the task's, opening it
// (task_start reusing it, then the debugger attach), navigating it under the URL policy with the
// URL it landed on re-checked (blocked -> URL_BLOCKED and the tab parked on about:blank), its
// current URL and title, and closing it. Its actions go through the task's action pipeline
// (`act`: TaskBrowser's, with the read guard and the plugin policies).
import { errorValue, type ErrorValue } from '../../machines/index.ts';
import type { ExtensionRegistry } from '../registry/registry-types.ts';
import type { SnapshotStore } from '../snapshot/snapshot-types.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import type { ActionOutcome, Step, UrlCheck } from './task-browser-types.ts';

export interface TaskTabDeps {
  taskId: string;
  groupTitle: () => string;
  snapshots: SnapshotStore;
  registry: ExtensionRegistry;
  events: FrontendEventSink;
  checkUrl: UrlCheck;
  /** The URL a page landed on (redirects): the same policy, phrased for a landing page. */
  checkFinalUrl?: UrlCheck;
  /** One browser action of the task (the task's action pipeline). */
  act(step: Step, actionName: string, params: Record<string, unknown>): Promise<ActionOutcome>;
  /** The plugin serving the task (null before the first action). */
  clientId(): string | null;
  /** The error every action of this turn gets after its plugin missed an ack (seed 001 §4.1). */
  blocked(): ErrorValue | null;
  /** Shows and records a step refused before any action ran (a URL the policy refuses). */
  refused(step: Step, actionName: string, params: Record<string, unknown>, error: ErrorValue): void;
  traceId(): string | undefined;
}

/** A load on the task's tab and the URL it ended on; `refused` when that URL is blocked (the tab was parked). */
export interface Settled {
  loaded: ActionOutcome;
  landed?: string;
  refused?: ErrorValue;
}

/**
 * Load failures with no page at all (refused, DNS, TLS, tab gone, or a navigation the URL policy
 * refused in the browser, a redirect hop included: the tab is on about:blank): nothing to check or read.
 */
const NO_PAGE = new Set(['TASK_TAB_CLOSED', 'NAVIGATION_FAILED', 'URL_BLOCKED']);
export const loadedNoPage = (loaded: ActionOutcome): boolean => !loaded.ok && NO_PAGE.has(loaded.error?.code ?? '');

/** The form of `url` the policy checked (`http://0x7f.1/` -> `http://127.0.0.1/`): what the browser gets. */
function canonical(url: string): string {
  if (/^about:blank$/i.test(url.trim())) return 'about:blank';
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

export function createTaskTab(deps: TaskTabDeps) {
  let tabId: number | null = null;
  let groupId: number | null = null;
  /** task_start's URL for the tab, until the extension's snapshot reports it. */
  let reportedUrl: string | null = null;
  let closed = false;

  const snapshotTab = (tab: number | null) => {
    const clientId = deps.clientId();
    return clientId && tab !== null ? deps.snapshots.state(clientId)?.tabs.find((t) => t.tabId === tab) : undefined;
  };

  /** The URL the extension reports for the task's tab (tab events follow redirects), else task_start's. */
  function currentUrl(): string | null {
    return snapshotTab(tabId)?.url || reportedUrl;
  }

  /** Sends the task's tab to about:blank (a blocked page must show nothing). */
  async function park(step: Step): Promise<void> {
    if (tabId === null) return;
    await deps.act(step, 'task_start', { url: 'about:blank', reuseExistingTab: true, groupTitle: deps.groupTitle() });
    reportedUrl = 'about:blank';
  }

  /** task_start (reusing the task's tab when it has one), then the debugger attach on a new tab. Null when done. */
  async function ensure(step: Step, url?: string): Promise<ActionOutcome | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = await deps.act(step, 'task_start', {
        ...(url ? { url } : {}),
        ...(tabId !== null ? { reuseExistingTab: true } : {}),
        groupTitle: deps.groupTitle(),
      });
      if (!started.ok) {
        if (started.error?.code === 'TASK_TAB_CLOSED' && attempt === 0) continue;
        return started;
      }
      const fresh = tabId !== Number(started.result?.tabId);
      tabId = Number(started.result?.tabId);
      groupId = typeof started.result?.groupId === 'number' ? started.result.groupId : groupId;
      reportedUrl = typeof started.result?.url === 'string' ? started.result.url : (url ?? reportedUrl);
      if (fresh) {
        const attached = await deps.act(step, 'browser_debugger_attach', { tabId });
        if (!attached.ok && deps.blocked()) return attached;
        // A failed attach is not fatal: the extension falls back to DOM strategies. The user is
        // told, with the code (CDP_PERMISSION_DENIED when the browser refused it).
        if (!attached.ok && attached.error) {
          deps.events.toTask(
            deps.taskId,
            {
              type: 'structuredOutput',
              status: 'info',
              message:
                'The browser did not let Mimo attach its debugger to the task tab; clicks and typing fall back to DOM events.',
              error: {
                code: attached.error.code,
                message: attached.error.message,
                retryable: attached.error.retryable ?? false,
              },
            },
            deps.traceId(),
          );
        }
      }
      return null;
    }
    return null;
  }

  /** browser_wait_for_loaded on the task's tab, then the URL it landed on re-checked under the policy. */
  async function settle(step: Step, params: Record<string, unknown> = {}): Promise<Settled> {
    const loaded = await deps.act(step, 'browser_wait_for_loaded', { tabId, ...params });
    // A plugin that missed the ack is not a page: the turn stops there.
    if (deps.blocked() || loadedNoPage(loaded)) return { loaded };
    const landed =
      (typeof loaded.result?.url === 'string' && loaded.result.url ? loaded.result.url : null) ??
      currentUrl() ??
      undefined;
    if (deps.checkFinalUrl && landed && !/^about:blank$/i.test(landed)) {
      const verdict = await deps.checkFinalUrl(landed);
      if (!verdict.ok) {
        await park(step);
        return { loaded, landed, refused: verdict.error };
      }
    }
    return { loaded, ...(landed ? { landed } : {}) };
  }

  return {
    get tabId() {
      return tabId;
    },
    get groupId() {
      return groupId;
    },
    get closed() {
      return closed;
    },
    currentUrl,
    /** The URL the extension last reported for `tab` (default: the task's tab); the read guard checks it. */
    reportedUrlOf: (tab: number | null = tabId): string | undefined => snapshotTab(tab)?.url,
    /** The title the extension reports for `tab`. */
    titleOf: (tab: number | null): string | undefined => snapshotTab(tab)?.title,
    ensure,
    settle,
    park,

    /** Policy check, task_start (canonical URL, reusing the tab), attach, load, landing URL check. */
    async navigate(
      step: Step,
      url: string,
    ): Promise<{ ok: true; settled: Settled } | { ok: false; error: ErrorValue }> {
      if (closed)
        return { ok: false, error: errorValue('TASK_TAB_CLOSED', 'this tab was closed', { retryable: false }) };
      const allowed = await deps.checkUrl(url);
      if (!allowed.ok) {
        deps.refused(step, 'task_start', { url }, allowed.error);
        return { ok: false, error: allowed.error };
      }
      const failed = await ensure(step, canonical(url));
      if (failed) return { ok: false, error: failed.error ?? errorValue('INTERNAL', 'task_start failed') };
      return { ok: true, settled: await settle(step) };
    },

    /** task_stop with closeTab; forgets the task's extension binding. Idempotent; the tab is not reopened. */
    async close(step: Step): Promise<{ ok: true } | { ok: false; error: ErrorValue }> {
      if (closed) return { ok: true };
      closed = true;
      if (deps.clientId() === null) return { ok: true };
      const stopped = await deps.act(step, 'task_stop', { closeTab: true });
      deps.registry.unbind(deps.taskId);
      tabId = null;
      return stopped.ok
        ? { ok: true }
        : { ok: false, error: stopped.error ?? errorValue('PLUGIN_ERROR', 'task_stop failed') };
    },

    /** The seed 002 switch: the task now drives `newTabId` (one of its own tabs). */
    rebind(newTabId: number) {
      tabId = newTabId;
    },
    /** The tab is gone (TASK_TAB_CLOSED) or belongs to another plugin: the next open makes a new one. */
    forget() {
      tabId = null;
    },
  };
}

export type TaskTab = ReturnType<typeof createTaskTab>;
