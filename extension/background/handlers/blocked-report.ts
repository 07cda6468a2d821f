// The action that caused a refused navigation says so (issue 21): its result is URL_BLOCKED with
// the policy's reason (the server's verdict, details included) and the URL that was refused,
// once the guard's decisions in flight for the tab are done (so the tab is on about:blank by
// the time the caller reads it again). A refusal is reported once.
import type { ActionContext } from '../action-context.ts';
import { ActionFailure } from '../action-failure.ts';
import type { BlockedNavigation } from '../navigation-blocks.ts';

export function blockedFailure(blocked: BlockedNavigation): ActionFailure {
  const reason = blocked.error.message || 'the URL policy refused it';
  return new ActionFailure(
    'URL_BLOCKED',
    `the navigation to ${blocked.url} was refused: ${reason}; the tab was sent to about:blank`,
    { ...(blocked.error.details ?? {}), url: blocked.url, policyCode: blocked.error.code },
    false,
  );
}

/** The guard's refusal count of the tab before an input action (null: no guard). */
export function blockMark(ctx: ActionContext, tabId: number): number | null {
  return ctx.navigationGuard ? ctx.navigationGuard.blocks.count(tabId) : null;
}

/** Throws URL_BLOCKED when a navigation of the tab was refused after `mark`. */
export async function failIfBlockedSince(ctx: ActionContext, tabId: number, mark: number | null): Promise<void> {
  const blocks = ctx.navigationGuard?.blocks;
  if (!blocks || mark === null) return;
  await blocks.settled(tabId);
  const blocked = blocks.since(tabId, mark);
  if (!blocked) return;
  blocks.reported(tabId);
  throw blockedFailure(blocked);
}

/** Throws URL_BLOCKED for a refusal nobody was told of yet (a load's redirect hop, a script's navigation). */
export async function failIfUnreportedBlock(ctx: ActionContext, tabId: number): Promise<void> {
  const blocks = ctx.navigationGuard?.blocks;
  if (!blocks) return;
  await blocks.settled(tabId);
  const blocked = blocks.unreported(tabId);
  if (!blocked) return;
  blocks.reported(tabId);
  throw blockedFailure(blocked);
}
