// Every read of a task tab re-checks the URL policy: a page opened under the policy
// can navigate itself (script, click, form, meta refresh, redirect) to a blocked host, and its
// snapshot, screenshot, text, DOM index or HTML must then not reach any client (MCP or the LLM,
// nor the web UI's tool steps). One guard, called by TaskBrowser.action for the read actions
// of both paths (the agent's page preparation and tool calls, MCP's page driver):
//  - before the read: the tab's current URL must pass (else no read at all);
//  - after the read, before the result is reported: it must still pass (the page may have
//    moved while it was being read).
// A blocked page answers URL_BLOCKED and the tab is sent to about:blank (the caller's navigate).

export type ReadCheck = (
  url: string,
) => Promise<
  { ok: true } | { ok: false; error: { code: string; message: string; retryable?: boolean; details?: unknown } }
>;

/** The actions that return page content. */
export const PAGE_READ_ACTIONS: ReadonlySet<string> = new Set([
  'browser_screenshot',
  'browser_readability_extract',
  'browser_dom_index',
  'browser_xpath_scan',
  'browser_get_html',
]);

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
export async function checkPageRead(
  check: ReadCheck,
  url: string | undefined,
): Promise<
  { ok: true } | { ok: false; error: { code: string; message: string; retryable?: boolean; details?: unknown } }
> {
  if (exempt(url)) return { ok: true };
  return check(url!);
}

type ReadError = { code: string; message: string; retryable?: boolean; details?: unknown };

export interface GuardedReadDeps<Outcome> {
  check: ReadCheck | undefined;
  /** The URL the extension last reported for the tab the params name (or the task's tab). */
  tabUrl(params: Record<string, unknown>): string | undefined;
  /** Whether a browser serves the task (no URL to check before that). */
  hasBrowser(): boolean;
  /** Runs the action; `recheck` is called with its result, before the result is reported. */
  run(recheck: (() => Promise<ReadError | null>) | undefined): Promise<Outcome>;
  /** Sends the tab to about:blank. */
  park(): Promise<void>;
  /** The outcome of a read refused before it was sent. */
  refused(error: ReadError): Outcome;
}

/** One page read under the guard: checked before it is sent and again before its result is reported. */
export async function guardedRead<Outcome>(
  actionName: string,
  params: Record<string, unknown>,
  deps: GuardedReadDeps<Outcome>,
): Promise<Outcome> {
  const check = deps.check;
  if (!check || !isPageRead(actionName)) return deps.run(undefined);
  if (deps.hasBrowser()) {
    const before = await checkPageRead(check, deps.tabUrl(params));
    if (!before.ok) {
      await deps.park();
      return deps.refused(before.error);
    }
  }
  let blocked = false;
  const outcome = await deps.run(async () => {
    const after = await checkPageRead(check, deps.tabUrl(params));
    if (after.ok) return null;
    blocked = true;
    return after.error;
  });
  if (blocked) await deps.park();
  return outcome;
}
