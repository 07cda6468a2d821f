// After an input action: did it navigate the main frame, and where to? Marked before the input,
// read after it (waiting, bounded, for a requested navigation to commit), so the caller knows
// at once that the page is a new one. And when a submit did not navigate: the fields the
// browser refused, with its validation messages. A navigation it caused that the URL policy
// refused makes the action fail with URL_BLOCKED (blocked-report.ts).
import type { InvalidField, Navigation } from '../../../transport/contracts/index.ts';
import type { ActionContext } from '../action-context.ts';
import type { TargetSpec } from '../../page/page-ops.ts';
import { liveTab } from '../tab-guard.ts';
import { blockMark, failIfBlockedSince } from './blocked-report.ts';
import { runPageOp } from './page-op.ts';

/** How long a pointer action (5 s T_exec) waits for the navigation it started to commit. */
export const POINTER_COMMIT_WAIT_MS = 2_500;
/** The same for form input (select, press, type: 10 s T_exec). */
export const INPUT_COMMIT_WAIT_MS = 6_000;

export interface NavigationReport {
  navigated?: boolean;
  navigation?: Navigation;
}

/** Lets tasks the input queued run (a form submission, a handler's location change). */
const SETTLE_EXPRESSION = 'new Promise((resolve) => setTimeout(resolve, 0))';

export async function watchNavigation(
  ctx: ActionContext,
  tabId: number,
): Promise<(commitWaitMs: number) => Promise<NavigationReport>> {
  const mark = (await ctx.nav.tracking(tabId)) ? ctx.nav.mark(tabId) : null;
  const blocks = blockMark(ctx, tabId);
  if (mark) {
    return async (commitWaitMs) => {
      await ctx.cdp
        .send(tabId, 'Runtime.evaluate', { expression: SETTLE_EXPRESSION, awaitPromise: true })
        .catch(() => {});
      const navigation = await ctx.nav.since(tabId, mark, commitWaitMs);
      await failIfBlockedSince(ctx, tabId, blocks);
      return navigation ? { navigated: true, navigation } : { navigated: false };
    };
  }
  // Untracked (no CDP): the tab's URL and status, as chrome.tabs sees them.
  const before = await liveTab(ctx.browser, tabId);
  return async () => {
    const after = await liveTab(ctx.browser, tabId);
    if (!before || !after) return {};
    const url = after.pendingUrl || after.url || '';
    if (url === (before.url ?? '') && !after.pendingUrl) return { navigated: false };
    const sameDocument = !after.pendingUrl && url.split('#')[0] === (before.url ?? '').split('#')[0];
    return { navigated: true, navigation: { url, sameDocument, committed: !after.pendingUrl } };
  };
}

/** Invalid fields of the target's (or the focused element's) form; empty when it has none. */
export async function invalidFields(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec | null,
): Promise<InvalidField[]> {
  const current = await ctx.refs.current(tabId);
  const report = await runPageOp(ctx, tabId, 'formValidity', { target, attr: current?.attr ?? null }).catch(() => null);
  return report?.invalid ?? [];
}

/** Adds `navigated` / `navigation` and, for a submit that stayed, `invalidFields` + a warning. */
export async function reportAfterInput<T extends Record<string, unknown>>(
  ctx: ActionContext,
  tabId: number,
  result: T,
  nav: NavigationReport,
  submit: { target: TargetSpec | null } | null,
  warnings: string[],
): Promise<T & NavigationReport & { invalidFields?: InvalidField[]; warnings?: string[] }> {
  const out: T & NavigationReport & { invalidFields?: InvalidField[]; warnings?: string[] } = { ...result, ...nav };
  if (submit && nav.navigated !== true) {
    const invalid = await invalidFields(ctx, tabId, submit.target);
    if (invalid.length > 0) {
      out.invalidFields = invalid;
      warnings.push(`the form was not submitted: ${invalid.map((f) => `${f.field}: ${f.message}`).join('; ')}`);
    }
  }
  if (warnings.length > 0) out.warnings = warnings;
  return out;
}
