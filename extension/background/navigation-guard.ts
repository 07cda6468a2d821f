// The browser enforces the URL policy on task tabs (issue 12). Every tab the extension attaches
// chrome.debugger to (task tabs only) gets CDP `Fetch.enable` for Document requests at the
// Request stage, so every navigation of the tab (script, link, form, meta refresh, history
// navigations that reach the network) and every redirect hop pauses in the browser before it is
// sent. The guard asks the server (navigation_check, with an ack): the policy lives there and
// resolves DNS, which an extension cannot do. Allowed -> Fetch.continueRequest; blocked, no
// answer in time, or not connected -> Fetch.failRequest(BlockedByClient) (fail closed), and a
// blocked main-frame navigation then sends the tab to about:blank. Requests of tabs that are not
// task tabs are continued at once.
// Tabs opened from a task tab (window.open, target=_blank: opener is a task tab, or the tab was
// created in a task's group) are attached at creation, before their first navigation starts.
// Backstop for what Fetch cannot see (CDP turned off or refused, a popup whose first request beat
// the attach, a URL that makes no request such as blob:): when a task tab's URL changes to one
// the guard has not decided, the server is asked after the fact and a blocked page is replaced
// by about:blank.
import { PROTOCOL_VERSION, protocolError } from '../../transport/contracts/index.ts';
import type { NavigationCheck, NavigationVerdict, ProtocolError } from '../../transport/contracts/index.ts';
import type { BrowserApi, BrowserTab, DebuggeeTarget } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';
import type { CdpSessions } from './cdp-sessions.ts';
import type { TaskTabs } from './task-tabs.ts';

/** The server's DNS lookups are bounded at 5 s; a little more for the round trip. */
export const NAVIGATION_CHECK_TIMEOUT_MS = 8_000;
export const DOCUMENT_REQUESTS = [{ resourceType: 'Document', requestStage: 'Request' }] as const;
const REMEMBERED_PER_TAB = 32;

export type NavigationQuestion = Pick<NavigationCheck, 'taskId' | 'tabId' | 'url' | 'frame' | 'stage'>;

export interface NavigationGuardDeps {
  browser: BrowserApi;
  cdp: CdpSessions;
  taskTabs: TaskTabs;
  /** Sends navigation_check and resolves with the server's ack; rejects when it cannot. */
  ask(question: NavigationQuestion): Promise<unknown>;
  log?(message: string): void;
}

export interface NavigationGuard {
  /** Before navigating a (future) task tab: attach and intercept. Never throws. */
  arm(tabId: number, taskId?: string): Promise<{ guarded: true } | { guarded: false; reason: string }>;
  /** Called by cdp-sessions right after it attaches to a tab. */
  attached(tabId: number): Promise<void>;
  isGuarded(tabId: number): boolean;
}

interface PausedRequest {
  requestId: string;
  request: { url: string };
  frameId?: string;
  resourceType?: string;
  redirectedRequestId?: string;
}

/** The URL without its fragment (a same-document move needs no new decision). */
const withoutFragment = (url: string) => url.split('#', 1)[0]!;

export function createNavigationGuard(deps: NavigationGuardDeps): NavigationGuard {
  const { browser, cdp } = deps;
  const intercepting = new Set<number>();
  const mainFrames = new Map<number, string>();
  /** Tabs opened from a task tab, before task-tabs has adopted them. */
  const openedFor = new Map<number, string>();
  /** Recent decisions per tab (URL without fragment -> allowed), so the backstop does not ask twice. */
  const decided = new Map<number, Map<string, boolean>>();

  const remember = (tabId: number, url: string, allowed: boolean) => {
    let map = decided.get(tabId);
    if (!map) decided.set(tabId, (map = new Map()));
    map.delete(withoutFragment(url));
    map.set(withoutFragment(url), allowed);
    if (map.size > REMEMBERED_PER_TAB) map.delete(map.keys().next().value!);
  };

  async function taskOf(tabId: number): Promise<string | undefined> {
    return (await deps.taskTabs.taskOfTab(tabId).catch(() => undefined))?.taskId ?? openedFor.get(tabId);
  }

  /** The server's verdict; anything but an explicit "allowed" is a block (fail closed). */
  async function verdict(question: NavigationQuestion): Promise<{ allowed: true } | { allowed: false; error: ProtocolError }> {
    let answer: NavigationVerdict | undefined;
    try {
      answer = (await deps.ask(question)) as NavigationVerdict;
    } catch (error) {
      return { allowed: false, error: protocolError('URL_BLOCKED', `the Mimo server could not check this navigation (${messageOf(error)}); it is blocked`, { retryable: false }) };
    }
    if (answer && typeof answer === 'object' && answer.ok === true && answer.allowed === true) return { allowed: true };
    const error = answer && typeof answer === 'object' && 'error' in answer ? answer.error : undefined;
    return { allowed: false, error: error ?? protocolError('URL_BLOCKED', 'the Mimo server did not allow this navigation', { retryable: false }) };
  }

  async function mainFrameOf(tabId: number): Promise<string | undefined> {
    const known = mainFrames.get(tabId);
    if (known) return known;
    const tree = await cdp.send<{ frameTree?: { frame?: { id?: string } } }>(tabId, 'Page.getFrameTree').catch(() => undefined);
    const id = tree?.frameTree?.frame?.id;
    if (id) mainFrames.set(tabId, id);
    return id;
  }

  /**
   * Replaces the page with about:blank. Through CDP when attached: a browser-initiated about:blank
   * gets a fresh opaque origin; tabs.update would make it inherit the extension's origin, and the
   * page agent could not read the tab any more.
   */
  async function blank(tabId: number): Promise<void> {
    if (intercepting.has(tabId)) {
      const done = await cdp.send(tabId, 'Page.navigate', { url: 'about:blank' }).then(() => true, () => false);
      if (done) return;
    }
    await browser.tabs.update(tabId, { url: 'about:blank' }).catch(() => {});
  }

  async function onPaused(tabId: number, paused: PausedRequest): Promise<void> {
    const { requestId } = paused;
    const url = paused.request?.url ?? '';
    const taskId = await taskOf(tabId);
    if (!taskId) {
      await cdp.send(tabId, 'Fetch.continueRequest', { requestId }).catch(() => {});
      return;
    }
    const main = await mainFrameOf(tabId);
    const frame = main === undefined || paused.frameId === undefined || paused.frameId === main ? 'main' : 'sub';
    const stage = paused.redirectedRequestId ? 'redirect' : 'request';
    const decision = await verdict({ taskId, tabId, url, frame, stage });
    if (frame === 'main') remember(tabId, url, decision.allowed);
    if (decision.allowed) {
      await cdp.send(tabId, 'Fetch.continueRequest', { requestId }).catch(() => {});
      return;
    }
    deps.log?.(`navigation blocked in tab ${tabId} (${frame}, ${stage}): ${decision.error.message}`);
    await cdp.send(tabId, 'Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => {});
    if (frame === 'main') await blank(tabId);
  }

  async function enableInterception(tabId: number): Promise<void> {
    await cdp.send(tabId, 'Fetch.enable', { patterns: DOCUMENT_REQUESTS });
    intercepting.add(tabId);
    void mainFrameOf(tabId);
  }

  async function arm(tabId: number, taskId?: string): Promise<{ guarded: true } | { guarded: false; reason: string }> {
    if (taskId) openedFor.set(tabId, taskId);
    try {
      await cdp.attach(tabId);
      if (!intercepting.has(tabId)) await enableInterception(tabId);
      return { guarded: true };
    } catch (error) {
      return { guarded: false, reason: messageOf(error) };
    }
  }

  /** Backstop: a task tab shows a URL the guard did not decide (or decided to block). */
  async function urlChanged(tabId: number, url: string): Promise<void> {
    if (!url || url === 'about:blank' || url.startsWith('chrome-error:') || url.startsWith('chrome-extension:')) return;
    const taskId = await taskOf(tabId);
    if (!taskId) return;
    const known = decided.get(tabId)?.get(withoutFragment(url));
    if (known === true) return;
    if (known === false) return void blank(tabId); // the error page of a refused navigation
    const decision = await verdict({ taskId, tabId, url, frame: 'main', stage: 'committed' });
    remember(tabId, url, decision.allowed);
    if (!decision.allowed) {
      deps.log?.(`blocked page replaced by about:blank in tab ${tabId}: ${decision.error.message}`);
      await blank(tabId);
    }
  }

  browser.debugger?.onEvent.addListener((source: DebuggeeTarget, method: string, params?: unknown) => {
    if (method !== 'Fetch.requestPaused' || source.tabId === undefined || (source as { sessionId?: string }).sessionId) return;
    void onPaused(source.tabId, params as PausedRequest);
  });
  browser.debugger?.onDetach.addListener((source) => {
    if (source.tabId === undefined) return;
    intercepting.delete(source.tabId);
    mainFrames.delete(source.tabId);
  });

  // A tab opened from a task tab: attach before its first navigation gets going.
  browser.tabs.onCreated.addListener((tab: BrowserTab) => {
    const tabId = tab.id;
    if (tabId === undefined) return;
    void deps.taskTabs.all().then(async (records) => {
      const record = records.find((r) => (tab.openerTabId !== undefined && r.tabs.includes(tab.openerTabId)) || (tab.groupId !== undefined && tab.groupId >= 0 && r.groupId === tab.groupId));
      // (task-tabs may have adopted it already: same tab, same decision.)
      if (!record || intercepting.has(tabId)) return;
      const armed = await arm(tabId, record.taskId);
      if (!armed.guarded) deps.log?.(`tab ${tabId} opened by task ${record.taskId} is not intercepted: ${armed.reason}`);
      // If its first request left before the attach, judge what it is loading now.
      const now = await browser.tabs.get(tabId).catch(() => undefined);
      const loading = now?.pendingUrl || now?.url;
      if (loading) await urlChanged(tabId, loading);
    });
  });
  browser.tabs.onUpdated.addListener((tabId, changeInfo) => {
    if (changeInfo.url) void urlChanged(tabId, changeInfo.url);
  });
  browser.tabs.onRemoved.addListener((tabId) => {
    intercepting.delete(tabId);
    mainFrames.delete(tabId);
    openedFor.delete(tabId);
    decided.delete(tabId);
  });

  return {
    arm,
    async attached(tabId) {
      intercepting.delete(tabId);
      await enableInterception(tabId).catch((error) => deps.log?.(`Fetch.enable failed in tab ${tabId}: ${messageOf(error)}`));
    },
    isGuarded: (tabId) => intercepting.has(tabId),
  };
}

/** navigation_check as sent on the wire. */
export function navigationCheckMessage(question: NavigationQuestion, clientId: string, id: string, now: number): NavigationCheck {
  return { v: PROTOCOL_VERSION, type: 'navigation_check', id, clientId, timestamp: now, ...question };
}
