// How the content script tells the extension's own CDP input from the user's. The page agent
// (injected by the background into the same isolated world as the content script) arms a
// deadline on the shared global right before the background dispatches CDP input; the content
// script ignores trusted input until it passes. No message round trip sits on the click path.

export const OWN_INPUT_GLOBAL = '__mimoOwnInputUntil';
/** When the guard was last armed: a settle sent before that belongs to an earlier action. */
export const OWN_INPUT_ARMED_AT = '__mimoOwnInputArmedAt';

/**
 * Covers the CDP dispatch that follows the page agent's locate call (a click is two CDP calls
 * right after it); typing arms for longer, by the length of the text.
 */
export const OWN_INPUT_ARM_MS = 1_000;
/** After the action settled, its events may still be in flight this long. */
export const OWN_INPUT_GRACE_MS = 150;

type GuardHost = Record<string, unknown>;

export function armOwnInput(host: GuardHost, now: number, ms = OWN_INPUT_ARM_MS): void {
  host[OWN_INPUT_GLOBAL] = Math.max(Number(host[OWN_INPUT_GLOBAL]) || 0, now + ms);
  host[OWN_INPUT_ARMED_AT] = now;
}

/**
 * The action settled: keep the guard only for the grace period. `sentAt` (when the background
 * sent the settle): a guard armed after it belongs to a later action and is left alone. Without
 * this, the late settle of a click cut the guard of the typing that followed to 150 ms, and the
 * Enter of `browser_type submit` arrived as the user's key: the spontaneous `user_key` takeover
 * (settles are posted off the critical path, so they can land after the next arm).
 */
export function settleOwnInput(host: GuardHost, now: number, sentAt?: number): void {
  if (sentAt !== undefined && (Number(host[OWN_INPUT_ARMED_AT]) || 0) > sentAt) return;
  if ((Number(host[OWN_INPUT_GLOBAL]) || 0) > now) host[OWN_INPUT_GLOBAL] = now + OWN_INPUT_GRACE_MS;
}

export function ownInputActive(host: GuardHost, now: number): boolean {
  return (Number(host[OWN_INPUT_GLOBAL]) || 0) > now;
}
