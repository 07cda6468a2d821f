// A tab opened from a task tab can start its first request before the extension can attach the
// debugger to it: Chrome starts a `target=_blank` link's (or a Ctrl-click's) navigation in the
// browser together with the new tab (measured: the request reached the server every time). CDP
// cannot pause that request, so a declarativeNetRequest session rule blocks it instead, inside the
// browser and synchronously: top-level requests initiated by a page on a task tab's host, in any
// tab the extension has not seen yet. Every known tab is excluded (`excludedTabIds`); a new tab is
// excluded once it is classified, and navigation-guard.ts then re-navigates the tab it belongs to
// through its CDP guard (or, for a tab of the user's, simply again).
import type { BrowserApi } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';

export const NEW_TAB_RULE_ID = 4_120;
const MAX_HOSTS = 200;

/** The slice of chrome.declarativeNetRequest this module uses. */
export interface SessionRulesApi {
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: unknown[] }): Promise<void>;
}

export interface NewTabGate {
  /** Installs the rule over the tabs that exist now. */
  start(): Promise<void>;
  /** The tab is known (a task tab, or classified): its requests are not blocked by the rule. */
  allowTab(tabId: number): Promise<void>;
  forgetTab(tabId: number): void;
  /** A task tab shows a page of this host: tabs opened from it are gated. */
  noteTaskHost(host: string): Promise<void>;
  /** Keeps only these hosts (the ones task tabs show now): the user's tabs elsewhere are left alone. */
  keepTaskHosts(hosts: Iterable<string>): Promise<void>;
  isTaskHost(host: string): boolean;
  readonly available: boolean;
}

export function createNewTabGate(deps: {
  browser: BrowserApi;
  rules: SessionRulesApi | undefined;
  log?(message: string): void;
}): NewTabGate {
  const known = new Set<number>();
  const hosts = new Set<string>();
  let writing = Promise.resolve();

  /** Rewrites the rule (serialised: the latest state wins). */
  function write(): Promise<void> {
    const rules = deps.rules;
    if (!rules) return Promise.resolve();
    writing = writing.then(async () => {
      const addRules =
        hosts.size === 0
          ? []
          : [
              {
                id: NEW_TAB_RULE_ID,
                priority: 1,
                action: { type: 'block' },
                condition: { resourceTypes: ['main_frame'], initiatorDomains: [...hosts], excludedTabIds: [...known] },
              },
            ];
      await rules
        .updateSessionRules({ removeRuleIds: [NEW_TAB_RULE_ID], addRules })
        .catch((error) => deps.log?.(`new-tab rule not updated: ${messageOf(error)}`));
    });
    return writing;
  }

  return {
    available: deps.rules !== undefined,
    async start() {
      const tabs = await deps.browser.tabs.query({}).catch(() => []);
      for (const tab of tabs) if (tab.id !== undefined) known.add(tab.id);
      await write();
    },
    async allowTab(tabId) {
      if (known.has(tabId)) return;
      known.add(tabId);
      await write();
    },
    forgetTab(tabId) {
      known.delete(tabId);
    },
    async noteTaskHost(host) {
      const name = host.toLowerCase().replace(/^\[|\]$/g, '');
      if (!name || hosts.has(name)) return;
      if (hosts.size >= MAX_HOSTS) hosts.delete(hosts.values().next().value!);
      hosts.add(name);
      await write();
    },
    async keepTaskHosts(keep) {
      const wanted = new Set([...keep].map((host) => host.toLowerCase().replace(/^\[|\]$/g, '')));
      const stale = [...hosts].filter((host) => !wanted.has(host));
      if (stale.length === 0) return;
      for (const host of stale) hosts.delete(host);
      await write();
    },
    isTaskHost: (host) => hosts.has(host.toLowerCase().replace(/^\[|\]$/g, '')),
  };
}
