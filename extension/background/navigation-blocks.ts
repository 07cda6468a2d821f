// The navigations the guard refused, per tab, so the action that caused one can say so:
// a click on a link to a refused host, a submit, a task_start whose redirect was refused. The
// guard wraps each of its decisions (a paused request, a backstop check, the swap to
// about:blank) in `track`; an action marks the count before its input and, once the tab's
// decisions in flight are done (`settled`), reads the refusal that came after its mark. Each
// refusal is reported once: `reported` moves the tab's "already told" line up to now. Pure
// bookkeeping: the decisions bound their own time (the server's verdict has a timeout).
import type { ProtocolError } from '../../transport/contracts/index.ts';

export interface BlockedNavigation {
  /** The URL the policy refused (a link's target, a redirect hop). */
  url: string;
  /** The server's verdict: URL_BLOCKED with the policy's reason in `details`. */
  error: ProtocolError;
}

export interface NavigationBlocks {
  /** How many main-frame navigations of the tab were refused so far: a mark for `since`. */
  count(tabId: number): number;
  /** Runs one decision of the tab; `settled` waits for it. */
  track<T>(tabId: number, work: Promise<T>): Promise<T>;
  record(tabId: number, blocked: BlockedNavigation): void;
  /** Resolves once every decision of the tab in flight now (and those they started) is done. */
  settled(tabId: number): Promise<void>;
  /** The latest refusal after `mark` (null when none). */
  since(tabId: number, mark: number): BlockedNavigation | null;
  /** The latest refusal nobody was told of yet. */
  unreported(tabId: number): BlockedNavigation | null;
  /** Every refusal so far has been told (to an action's caller) or is moot (a new navigation). */
  reported(tabId: number): void;
  forget(tabId: number): void;
}

interface TabBlocks {
  count: number;
  told: number;
  last: BlockedNavigation | null;
  inFlight: Set<Promise<unknown>>;
}

export function createNavigationBlocks(): NavigationBlocks {
  const tabs = new Map<number, TabBlocks>();
  const of = (tabId: number): TabBlocks => {
    let entry = tabs.get(tabId);
    if (!entry) tabs.set(tabId, (entry = { count: 0, told: 0, last: null, inFlight: new Set() }));
    return entry;
  };

  return {
    count: (tabId) => tabs.get(tabId)?.count ?? 0,
    track(tabId, work) {
      const entry = of(tabId);
      const done = work.then(
        () => undefined,
        () => undefined,
      );
      entry.inFlight.add(done);
      void done.then(() => entry.inFlight.delete(done));
      return work;
    },
    record(tabId, blocked) {
      const entry = of(tabId);
      entry.count += 1;
      entry.last = blocked;
    },
    async settled(tabId) {
      // A decision may start another (the swap to about:blank): wait until none is left.
      for (let round = 0; round < 5; round += 1) {
        const inFlight = [...(tabs.get(tabId)?.inFlight ?? [])];
        if (inFlight.length === 0) return;
        await Promise.all(inFlight);
      }
    },
    since(tabId, mark) {
      const entry = tabs.get(tabId);
      return entry && entry.count > mark ? entry.last : null;
    },
    unreported(tabId) {
      const entry = tabs.get(tabId);
      return entry && entry.count > entry.told ? entry.last : null;
    },
    reported(tabId) {
      const entry = tabs.get(tabId);
      if (entry) entry.told = entry.count;
    },
    forget: (tabId) => void tabs.delete(tabId),
  };
}
