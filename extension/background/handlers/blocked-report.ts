// The action that caused a refused navigation says so: its result is URL_BLOCKED with
// the policy's reason (the server's verdict, details included) and the URL that was refused,
// once the guard's decisions in flight for the tab are done (so the tab is on about:blank by
// the time the caller reads it again), waiting at most a bound that fits the action's T_exec. A
// refusal is reported once.
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

/** After an input action (T_exec 5-10 s, the commit wait already spent): the verdict is usually in within milliseconds. */
export const INPUT_BLOCK_WAIT_MS = 1_500;
/** After a load (T_exec 20 s): the server's DNS-bound verdict (8 s) fits. */
export const LOAD_BLOCK_WAIT_MS = 8_500;

/** The guard's decisions in flight for the tab, or `waitMs`, whichever ends first. */
async function settledWithin(ctx: ActionContext, tabId: number, waitMs: number): Promise<void> {
  let timer: unknown = null;
  const bound = new Promise<void>((resolve) => (timer = ctx.timers.setTimeout(resolve, waitMs)));
  await Promise.race([ctx.navigationGuard!.blocks.settled(tabId), bound]);
  ctx.timers.clearTimeout(timer);
}

/** The guard's refusal count of the tab before an input action (null: no guard). */
export function blockMark(ctx: ActionContext, tabId: number): number | null {
  return ctx.navigationGuard ? ctx.navigationGuard.blocks.count(tabId) : null;
}

/** Throws URL_BLOCKED when a navigation of the tab was refused after `mark`. */
export async function failIfBlockedSince(
  ctx: ActionContext,
  tabId: number,
  mark: number | null,
  waitMs = INPUT_BLOCK_WAIT_MS,
): Promise<void> {
  const blocks = ctx.navigationGuard?.blocks;
  if (!blocks || mark === null) return;
  await settledWithin(ctx, tabId, waitMs);
  const blocked = blocks.since(tabId, mark);
  if (!blocked) return;
  blocks.reported(tabId);
  throw blockedFailure(blocked);
}

/** Throws URL_BLOCKED for a refusal nobody was told of yet (a load's redirect hop, a script's navigation). */
export async function failIfUnreportedBlock(
  ctx: ActionContext,
  tabId: number,
  waitMs = LOAD_BLOCK_WAIT_MS,
): Promise<void> {
  const blocks = ctx.navigationGuard?.blocks;
  if (!blocks) return;
  await settledWithin(ctx, tabId, waitMs);
  const blocked = blocks.unreported(tabId);
  if (!blocked) return;
  blocks.reported(tabId);
  throw blockedFailure(blocked);
}
