// Every read of a task tab re-checks the URL policy (issue 12): a page opened under the policy
// can navigate itself (script, click, form, meta refresh, redirect) to a blocked host, and its
// snapshot, screenshot, text, DOM index or HTML must then not reach any client (MCP or the LLM,
// nor the web UI's tool steps). One guard, called by TaskBrowser.action for the read actions
// of both paths (the agent's page preparation and tool calls, MCP's page driver):
//  - before the read: the tab's current URL must pass (else no read at all);
//  - after the read, before the result is reported: it must still pass (the page may have
//    moved while it was being read).
// A blocked page answers URL_BLOCKED and the tab is sent to about:blank (the caller's navigate).

export type ReadCheck = (url: string) => Promise<{ ok: true } | { ok: false; error: { code: string; message: string; retryable?: boolean; details?: unknown } }>;

/** The actions that return page content. */
export const PAGE_READ_ACTIONS: ReadonlySet<string> = new Set(['browser_screenshot', 'browser_readability_extract', 'browser_dom_index', 'browser_xpath_scan', 'browser_get_html']);

export function isPageRead(actionName: string): boolean {
  return PAGE_READ_ACTIONS.has(actionName);
}

/** URLs the policy does not apply to: the blank page we park tabs on, and no URL known yet. */
function exempt(url: string | undefined): boolean {
  return url === undefined || url === '' || /^about:blank$/i.test(url.trim());
}

/**
 * Checks the tab's current URL with the policy's final-URL rules. `urlOf` answers the URL the
 * extension last reported for the tab (the snapshot store follows its tab events).
 */
export async function checkPageRead(check: ReadCheck, url: string | undefined): Promise<{ ok: true } | { ok: false; error: { code: string; message: string; retryable?: boolean; details?: unknown } }> {
  if (exempt(url)) return { ok: true };
  return check(url!);
}
