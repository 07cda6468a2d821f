// Per-tab navigation tracking over the task tab's CDP session (nav-state.ts folds the events):
// started right after chrome.debugger.attach (Page lifecycle events + Network for the main
// document's status), it lets wait_for_loaded wait for the *new* document's load, and input
// actions say whether they navigated. Tabs without CDP are not tracked (callers fall back to
// chrome.tabs).
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';
import {
  applyNavEvent,
  emptyNavState,
  navigationSince,
  seedNavState,
  type NavDocument,
  type NavState,
} from './nav-state.ts';

export type Navigation = NonNullable<ReturnType<typeof navigationSince>>;
export type CdpSend = <T = unknown>(method: string, params?: Record<string, unknown>) => Promise<T>;

export interface NavMark {
  seq: number;
  pending: boolean;
}

export interface NavTracker {
  /** Enables the CDP domains on a freshly attached tab and seeds its state. */
  start(tabId: number, send: CdpSend): Promise<void>;
  stop(tabId: number): void;
  /** Whether the tab is tracked (resolves once seeding finished). */
  tracking(tabId: number): Promise<boolean>;
  mark(tabId: number): NavMark | null;
  /** A navigation this side started (tabs.update): pending at once, before its first event. */
  expect(tabId: number, url: string): void;
  /** What navigated since `mark`; waits up to `commitWaitMs` for a requested navigation to commit. */
  since(tabId: number, mark: NavMark, commitWaitMs: number): Promise<Navigation | null>;
  /**
   * The current (or pending) document once it has loaded or failed; rejects with 'timeout'
   * after `timeoutMs`, with 'untracked' when tracking stopped meanwhile.
   */
  loaded(tabId: number, timeoutMs: number): Promise<NavDocument>;
  state(tabId: number): NavState | undefined;
}

export interface NavTrackerDeps {
  browser: BrowserApi;
  timers: Timers;
}

/** Reads the net error name off Chromium's error page (the event may have been missed). */
const ERROR_PAGE_CODE = `(() => { try { return (window.loadTimeData && loadTimeData.data_ && loadTimeData.data_.errorCode) || (document.querySelector('.error-code') || {}).textContent || ''; } catch (e) { return ''; } })()`;

export function createNavTracker(deps: NavTrackerDeps): NavTracker {
  const states = new Map<number, NavState>();
  const seeding = new Map<number, Promise<void>>();
  const sends = new Map<number, CdpSend>();
  const waiters = new Map<number, Set<() => void>>();

  const notify = (tabId: number) => {
    for (const wake of [...(waiters.get(tabId) ?? [])]) wake();
  };

  deps.browser.debugger?.onEvent.addListener((source, method, params) => {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    const state = states.get(tabId);
    if (state && applyNavEvent(state, method, (params ?? {}) as Record<string, unknown>)) {
      if (method === 'Page.frameNavigated' && state.doc?.netError === 'net::ERR_FAILED')
        void nameNetError(tabId, state.doc);
      notify(tabId);
    }
  });
  deps.browser.debugger?.onDetach.addListener((source) => {
    if (source.tabId !== undefined) stop(source.tabId);
  });

  async function nameNetError(tabId: number, doc: NavDocument): Promise<void> {
    const send = sends.get(tabId);
    if (!send) return;
    const read = await send<{ result?: { value?: unknown } }>('Runtime.evaluate', {
      expression: ERROR_PAGE_CODE,
      returnByValue: true,
    }).catch(() => null);
    const code = typeof read?.result?.value === 'string' ? read.result.value.trim() : '';
    if (code && doc.netError === 'net::ERR_FAILED') {
      doc.netError = code.startsWith('net::') ? code : `net::${code}`;
      notify(tabId);
    }
  }

  function stop(tabId: number): void {
    states.delete(tabId);
    seeding.delete(tabId);
    sends.delete(tabId);
    notify(tabId);
  }

  /** Resolves when `ready()` holds (re-checked on every event), or rejects on timeout / stop. */
  function until<T>(tabId: number, ready: (state: NavState) => T | null, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: unknown = null;
      const set = waiters.get(tabId) ?? new Set();
      waiters.set(tabId, set);
      const finish = (outcome: { value: T } | { error: string }) => {
        set.delete(check);
        deps.timers.clearTimeout(timer);
        if ('value' in outcome) resolve(outcome.value);
        else reject(new Error(outcome.error));
      };
      const check = () => {
        const state = states.get(tabId);
        if (!state) return finish({ error: 'untracked' });
        const value = ready(state);
        if (value !== null) finish({ value });
      };
      set.add(check);
      timer = deps.timers.setTimeout(() => finish({ error: 'timeout' }), timeoutMs);
      check();
    });
  }

  return {
    async start(tabId, send) {
      const state = emptyNavState();
      states.set(tabId, state);
      sends.set(tabId, send);
      const work = (async () => {
        await send('Page.enable');
        await send('Page.setLifecycleEventsEnabled', { enabled: true });
        await send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 100_000 }).catch(() => {});
        const tree = await send<{ frameTree: { frame: Record<string, unknown> } }>('Page.getFrameTree');
        const ready = await send<{ result?: { value?: unknown } }>('Runtime.evaluate', {
          expression: 'document.readyState',
          returnByValue: true,
        }).catch(() => null);
        const tab = await deps.browser.tabs.get(tabId).catch(() => null);
        // Events that arrived while seeding already describe a newer document: keep them.
        if (state.doc === null) {
          const pendingUrl =
            tab && (tab.pendingUrl || tab.status === 'loading') ? (tab.pendingUrl ?? tab.url) : undefined;
          const frameUrl = String(tree.frameTree.frame.url ?? '');
          // A tab created with a URL is about:blank until that navigation commits.
          const stillPending = pendingUrl !== undefined && pendingUrl !== frameUrl ? pendingUrl : undefined;
          seedNavState(
            state,
            tree.frameTree.frame,
            ready?.result?.value === 'complete',
            state.pending ? undefined : stillPending,
          );
          if (state.doc!.netError) await nameNetError(tabId, state.doc!);
        }
        notify(tabId);
      })();
      seeding.set(tabId, work);
      try {
        await work;
      } catch (error) {
        stop(tabId);
        throw new Error(`navigation tracking could not start: ${messageOf(error)}`);
      }
    },
    stop,
    async tracking(tabId) {
      const pending = seeding.get(tabId);
      if (!pending) return false;
      return pending.then(
        () => states.has(tabId),
        () => false,
      );
    },
    expect(tabId, url) {
      const state = states.get(tabId);
      if (!state) return;
      state.pending = { ...(state.pending ?? {}), url };
      notify(tabId);
    },
    mark(tabId) {
      const state = states.get(tabId);
      return state ? { seq: state.seq, pending: state.pending !== null } : null;
    },
    async since(tabId, mark, commitWaitMs) {
      const state = states.get(tabId);
      if (!state) return null;
      const now = navigationSince(state, mark.seq);
      if (!now || now.committed || mark.pending) return now;
      // Requested by the action: wait (bounded) for the new document to commit.
      // A navigation that stops without committing (204, download) is no navigation.
      const settled = await until(
        tabId,
        (s) => (s.pending ? null : { nav: navigationSince(s, mark.seq) }),
        commitWaitMs,
      ).catch(() => null);
      return settled ? settled.nav : navigationSince(states.get(tabId) ?? state, mark.seq);
    },
    loaded(tabId, timeoutMs) {
      return until(
        tabId,
        (s) => (s.pending || !s.doc || !(s.doc.loaded || s.doc.netError) ? null : { ...s.doc }),
        timeoutMs,
      );
    },
    state: (tabId) => states.get(tabId),
  };
}
