// The browser enforces the URL policy on task tabs. Every tab the extension attaches
// chrome.debugger to (task tabs only) gets CDP `Fetch.enable` for Document requests at the
// Request stage, so every navigation of the tab (script, link, form, meta refresh, history
// navigations that reach the network) and every redirect hop pauses in the browser before it is
// sent. The guard asks the server (navigation_check, with an ack): the policy lives there and
// resolves DNS, which an extension cannot do. Allowed -> Fetch.continueRequest; blocked, no
// answer in time, or not connected -> Fetch.failRequest(BlockedByClient) (fail closed), and a
// blocked main-frame navigation then sends the tab to about:blank. Requests of tabs that are not
// task tabs are continued at once. An out-of-process (cross-site) frame makes its own navigations
// and those of the frames inside it through its own child session (frame-sessions.ts): each
// such session gets the same interception as it attaches, its requests judged as frame "sub".
// (In principle a frame's first moments, between its attach and that Fetch.enable, are not
// covered; measured in Chromium 156, a blocked <iframe> in such a frame's own markup was caught.)
// Tabs opened from a task tab (window.open, target=_blank: opener is a task tab, or the tab was
// created in a task's group) are attached at creation. Their first request may already be on its
// way by then (a target=_blank link starts it with the tab): new-tab-gate.ts blocks it inside the
// browser, and once the tab is attached the guard sends that first navigation again, through CDP.
// Backstop for what Fetch cannot see (CDP turned off or refused, a URL that makes no request such
// as blob:): when a task tab's URL changes to one
// the guard has not decided, the server is asked after the fact and a blocked page is replaced
// by about:blank.
import type { BrowserApi, BrowserTab, DebuggeeTarget } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';
import type { CdpSessions } from './cdp-sessions.ts';
import {
  askVerdict,
  createDecisionMemory,
  hostOf,
  httpUrl,
  withoutFragment,
  type NavigationQuestion,
} from './navigation-verdict.ts';
import { createNavigationBlocks, type NavigationBlocks } from './navigation-blocks.ts';
import type { NewTabGate } from './new-tab-gate.ts';
import type { TaskTabs } from './task-tabs.ts';

export { NAVIGATION_CHECK_TIMEOUT_MS, navigationCheckMessage, type NavigationQuestion } from './navigation-verdict.ts';
export const DOCUMENT_REQUESTS = [{ resourceType: 'Document', requestStage: 'Request' }] as const;

export interface NavigationGuardDeps {
  browser: BrowserApi;
  cdp: CdpSessions;
  taskTabs: TaskTabs;
  /** Sends navigation_check and resolves with the server's ack; rejects when it cannot. */
  ask(question: NavigationQuestion): Promise<unknown>;
  /** Blocks the first request of tabs opened from task pages until they are classified. */
  gate?: NewTabGate;
  /** A first navigation sent again (rerun): the navigation tracker waits for that document, not the stopped one. */
  expectNavigation?(tabId: number, url: string): void;
  log?(message: string): void;
}

export interface NavigationGuard {
  /** Before navigating a (future) task tab: attach and intercept. Never throws. */
  arm(tabId: number, taskId?: string): Promise<{ guarded: true } | { guarded: false; reason: string }>;
  /** Called by cdp-sessions right after it attaches to a tab. */
  attached(tabId: number): Promise<void>;
  isGuarded(tabId: number): boolean;
  /**
   * Resolves once a new tab is classified and, if the gate stopped its first navigation, that
   * navigation was sent again (immediately for any other tab). wait_for_loaded waits for it, so
   * the gate's stop (ERR_BLOCKED_BY_CLIENT) is never reported as the page's own failure.
   */
  settled(tabId: number): Promise<void>;
  /** The main-frame navigations this guard refused, per tab (navigation-blocks.ts). */
  blocks: NavigationBlocks;
}

interface PausedRequest {
  requestId: string;
  request: { url: string };
  frameId?: string;
  resourceType?: string;
  redirectedRequestId?: string;
}

export function createNavigationGuard(deps: NavigationGuardDeps): NavigationGuard {
  const { browser, cdp } = deps;
  const intercepting = new Set<number>();
  const mainFrames = new Map<number, string>();
  /** Tabs opened from a task tab, before task-tabs has adopted them. */
  const openedFor = new Map<number, string>();
  /** Recent decisions per tab, so the backstop does not ask twice. */
  const decided = createDecisionMemory();
  /** New tabs whose first navigation the gate may have stopped: sent again at their first URL. */
  const awaitingFirstUrl = new Set<number>();
  /** A first navigation sent again, not decided yet (the backstop leaves it to the guard). */
  const rerunning = new Map<number, string>();
  /** New tabs being classified (attach, gate): the URL they showed meanwhile, left to `rerun`. */
  const classifying = new Map<number, string | undefined>();
  /** New tabs being classified (and their first navigation sent again when it was stopped). */
  const classified = new Map<number, Promise<void>>();
  const blocks = createNavigationBlocks();

  async function taskOf(tabId: number): Promise<string | undefined> {
    return (await deps.taskTabs.taskOfTab(tabId).catch(() => undefined))?.taskId ?? openedFor.get(tabId);
  }

  const verdict = (question: NavigationQuestion) => askVerdict(deps.ask, question);

  async function mainFrameOf(tabId: number): Promise<string | undefined> {
    const known = mainFrames.get(tabId);
    if (known) return known;
    const tree = await cdp
      .send<{ frameTree?: { frame?: { id?: string } } }>(tabId, 'Page.getFrameTree')
      .catch(() => undefined);
    const id = tree?.frameTree?.frame?.id;
    if (id) mainFrames.set(tabId, id);
    return id;
  }

  /**
   * Replaces the page with about:blank, through CDP when attached (it also works while the
   * refused navigation's error page is committing). The blank page inherits the extension's
   * origin either way (measured in Chromium 156, CDP Page.navigate and tabs.update alike), so
   * executeScript cannot read it: page-agent-cdp.ts reads it over CDP instead.
   */
  async function blank(tabId: number): Promise<void> {
    if (intercepting.has(tabId)) {
      const done = await cdp.send(tabId, 'Page.navigate', { url: 'about:blank' }).then(
        () => true,
        () => false,
      );
      if (done) return;
    }
    await browser.tabs.update(tabId, { url: 'about:blank' }).catch(() => {});
  }

  /** `sessionId`: paused in an out-of-process frame's session (never the tab's main frame). */
  async function onPaused(tabId: number, paused: PausedRequest, sessionId?: string): Promise<void> {
    const { requestId } = paused;
    const url = paused.request?.url ?? '';
    const session = sessionId ? { sessionId } : undefined;
    const taskId = await taskOf(tabId);
    if (!taskId) {
      await cdp.send(tabId, 'Fetch.continueRequest', { requestId }, session).catch(() => {});
      return;
    }
    const main = sessionId ? undefined : await mainFrameOf(tabId);
    const frame =
      !sessionId && (main === undefined || paused.frameId === undefined || paused.frameId === main) ? 'main' : 'sub';
    const stage = paused.redirectedRequestId ? 'redirect' : 'request';
    const decision = await verdict({ taskId, tabId, url, frame, stage });
    if (frame === 'main') {
      decided.remember(tabId, url, decision.allowed);
      if (rerunning.get(tabId) === withoutFragment(url)) rerunning.delete(tabId);
      // Tabs this page opens are gated from now on (before the page can run).
      const host = hostOf(url);
      if (decision.allowed && host) await deps.gate?.noteTaskHost(host);
    }
    if (decision.allowed) {
      await cdp.send(tabId, 'Fetch.continueRequest', { requestId }, session).catch(() => {});
      return;
    }
    deps.log?.(`navigation blocked in tab ${tabId} (${frame}, ${stage}): ${decision.error.message}`);
    if (frame === 'main') blocks.record(tabId, { url, error: decision.error });
    await cdp.send(tabId, 'Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }, session).catch(() => {});
    if (frame === 'main') await blank(tabId);
  }

  /** An out-of-process frame's session: its navigations and its frames' are intercepted too. */
  async function interceptFrame(tabId: number, sessionId: string): Promise<void> {
    await cdp
      .send(tabId, 'Fetch.enable', { patterns: DOCUMENT_REQUESTS }, { sessionId })
      .catch((error) => deps.log?.(`Fetch.enable failed in a frame of tab ${tabId}: ${messageOf(error)}`));
  }

  async function enableInterception(tabId: number): Promise<void> {
    await cdp.send(tabId, 'Fetch.enable', { patterns: DOCUMENT_REQUESTS });
    intercepting.add(tabId);
    void mainFrameOf(tabId);
    // Auto-attach on (the frames there now, and from now on each as it attaches: onEvent below).
    const frames = await cdp.frames.list(tabId).catch(() => []);
    await Promise.all(frames.map((frame) => interceptFrame(tabId, frame.sessionId)));
  }

  async function arm(tabId: number, taskId?: string): Promise<{ guarded: true } | { guarded: false; reason: string }> {
    if (taskId) openedFor.set(tabId, taskId);
    try {
      await cdp.attach(tabId);
      if (!intercepting.has(tabId)) await enableInterception(tabId);
      // Intercepted now: the new-tab rule need not (and must not) stop this tab any more.
      await deps.gate?.allowTab(tabId);
      return { guarded: true };
    } catch (error) {
      return { guarded: false, reason: messageOf(error) };
    }
  }

  /** Backstop: a task tab shows a URL the guard did not decide (or decided to block). */
  async function urlChanged(tabId: number, url: string): Promise<void> {
    if (!url || url === 'about:blank' || url.startsWith('chrome-error:') || url.startsWith('chrome-extension:')) return;
    if (classifying.has(tabId)) return void classifying.set(tabId, url);
    if (awaitingFirstUrl.delete(tabId)) return rerun(tabId, url, { onlyIfStopped: true });
    const taskId = await taskOf(tabId);
    if (!taskId) return;
    if (rerunning.get(tabId) === withoutFragment(url)) return;
    const known = decided.lookup(tabId, url);
    if (known === true) return;
    if (known === false) return void blank(tabId); // the error page of a refused navigation
    const decision = await verdict({ taskId, tabId, url, frame: 'main', stage: 'committed' });
    decided.remember(tabId, url, decision.allowed);
    if (!decision.allowed) {
      deps.log?.(`blocked page replaced by about:blank in tab ${tabId}: ${decision.error.message}`);
      blocks.record(tabId, { url, error: decision.error });
      await blank(tabId);
      return;
    }
    const host = hostOf(url);
    if (host) await deps.gate?.noteTaskHost(host);
  }

  /** Sends a new tab's first navigation again, now that the tab is classified (and guarded if it is the task's). */
  async function rerun(tabId: number, url: string, options: { onlyIfStopped?: boolean } = {}): Promise<void> {
    if (!httpUrl(url)) return;
    if (decided.lookup(tabId, url) === false) return void blank(tabId);
    if (options.onlyIfStopped && intercepting.has(tabId)) {
      // It went through the guard and loaded: nothing was stopped (a stopped one shows Chrome's error page).
      const shown = await cdp
        .send<{ result?: { value?: unknown } }>(tabId, 'Runtime.evaluate', {
          expression: 'location.href',
          returnByValue: true,
        })
        .catch(() => undefined);
      const href = shown?.result?.value;
      if (typeof href === 'string' && !href.startsWith('chrome-error:')) return;
    }
    const taskId = await taskOf(tabId);
    if (taskId && !intercepting.has(tabId)) {
      // The task's tab but no CDP guard (turned off, refused): ask before sending it again.
      const decision = await verdict({ taskId, tabId, url, frame: 'main', stage: 'request' });
      decided.remember(tabId, url, decision.allowed);
      if (!decision.allowed) return void blank(tabId);
    }
    rerunning.set(tabId, withoutFragment(url));
    deps.expectNavigation?.(tabId, url);
    await browser.tabs.update(tabId, { url }).catch(() => rerunning.delete(tabId));
  }

  browser.debugger?.onEvent.addListener((source: DebuggeeTarget, method: string, params?: unknown) => {
    if (source.tabId === undefined) return;
    const sessionId = (source as { sessionId?: string }).sessionId;
    if (method === 'Target.attachedToTarget') {
      const attached = params as { sessionId?: string; targetInfo?: { type?: string } };
      if (intercepting.has(source.tabId) && attached.sessionId && attached.targetInfo?.type === 'iframe')
        void interceptFrame(source.tabId, attached.sessionId);
      return;
    }
    if (method !== 'Fetch.requestPaused') return;
    const paused = params as PausedRequest;
    const work = onPaused(source.tabId, paused, sessionId);
    // An iframe's document is no navigation of the page: actions do not wait for its verdict.
    const main = mainFrames.get(source.tabId);
    if (!sessionId && (main === undefined || paused.frameId === undefined || paused.frameId === main))
      void blocks.track(source.tabId, work);
  });
  browser.debugger?.onDetach.addListener((source) => {
    if (source.tabId === undefined) return;
    intercepting.delete(source.tabId);
    mainFrames.delete(source.tabId);
  });

  // A new tab: a task's (opened from a task tab, or in a task's group) is attached at once; any
  // other is let through the new-tab gate. One whose first navigation the gate may have stopped
  // (opened from a task page's host) gets that navigation again, through the guard if it is the task's.
  browser.tabs.onCreated.addListener((tab: BrowserTab) => {
    const tabId = tab.id;
    if (tabId === undefined) return;
    classifying.set(tabId, undefined);
    const classifyingDone = (async () => {
      const records = await deps.taskTabs.all().catch(() => []);
      const record = records.find(
        (r) =>
          (tab.openerTabId !== undefined && r.tabs.includes(tab.openerTabId)) ||
          (tab.groupId !== undefined && tab.groupId >= 0 && r.groupId === tab.groupId),
      );
      let gated = false;
      if (record) {
        const armed = await arm(tabId, record.taskId);
        if (!armed.guarded) {
          deps.log?.(`tab ${tabId} opened by task ${record.taskId} is not intercepted: ${armed.reason}`);
          await deps.gate?.allowTab(tabId);
        }
        gated = deps.gate?.available ?? false;
      } else {
        await deps.gate?.allowTab(tabId);
        const opener =
          tab.openerTabId === undefined ? undefined : await browser.tabs.get(tab.openerTabId).catch(() => undefined);
        const openerHost = hostOf(opener?.url);
        gated = openerHost !== undefined && (deps.gate?.isTaskHost(openerHost) ?? false);
      }
      const seen = classifying.get(tabId);
      classifying.delete(tabId);
      if (gated) {
        if (httpUrl(tab.pendingUrl)) await rerun(tabId, tab.pendingUrl);
        else if (httpUrl(seen)) await rerun(tabId, seen, { onlyIfStopped: true });
        else awaitingFirstUrl.add(tabId);
      } else if (httpUrl(seen)) {
        await urlChanged(tabId, seen);
      } else if (record) {
        // No gate (API missing): if its first request left before the attach, judge what it loads.
        const now = await browser.tabs.get(tabId).catch(() => undefined);
        const loading = now?.pendingUrl || now?.url;
        if (loading) await urlChanged(tabId, loading);
      }
    })();
    const entry = classifyingDone
      .catch(() => {})
      .finally(() => {
        if (classified.get(tabId) === entry) classified.delete(tabId);
      });
    classified.set(tabId, entry);
  });
  browser.tabs.onUpdated.addListener((tabId, changeInfo) => {
    if (changeInfo.url) void blocks.track(tabId, urlChanged(tabId, changeInfo.url));
  });
  /** The gate keeps only the hosts task tabs show now (a task's tab closed or the task ended). */
  async function pruneTaskHosts(): Promise<void> {
    const records = await deps.taskTabs.all().catch(() => []);
    const tabs = await Promise.all(
      records.flatMap((r) => r.tabs).map((id) => browser.tabs.get(id).catch(() => undefined)),
    );
    const hosts = tabs
      .flatMap((tab) => [hostOf(tab?.pendingUrl), hostOf(tab?.url)])
      .filter((host): host is string => host !== undefined);
    await deps.gate?.keepTaskHosts(hosts);
  }

  browser.tabs.onRemoved.addListener((tabId) => {
    void pruneTaskHosts();
    deps.gate?.forgetTab(tabId);
    classifying.delete(tabId);
    awaitingFirstUrl.delete(tabId);
    rerunning.delete(tabId);
    intercepting.delete(tabId);
    mainFrames.delete(tabId);
    openedFor.delete(tabId);
    decided.forget(tabId);
    blocks.forget(tabId);
  });

  return {
    arm,
    async attached(tabId) {
      intercepting.delete(tabId);
      await enableInterception(tabId).catch((error) =>
        deps.log?.(`Fetch.enable failed in tab ${tabId}: ${messageOf(error)}`),
      );
    },
    isGuarded: (tabId) => intercepting.has(tabId),
    settled: (tabId) => classified.get(tabId) ?? Promise.resolve(),
    blocks,
  };
}
