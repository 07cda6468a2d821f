// Timeouts and idempotency for browser_action, from seed 001 §4.1 / §4.2. The single source of
// the timeout table: transport/contracts re-exports it for the wire side (machines/ imports
// nothing but xstate, so the table lives here).

/** Default T_ack: the seed suggests 1–2 s; the issue fixes 1.5 s. */
export const defaultAckTimeoutMs = 1_500;

/** Default T_exec per action (001 §4.1 table, plus browser_switch_tab from seed 002). */
export const defaultExecTimeoutMs: Readonly<Record<string, number>> = Object.freeze({
  task_start: 20_000,
  browser_debugger_attach: 5_000,
  browser_wait_for_loaded: 20_000,
  browser_screenshot: 10_000,
  browser_readability_extract: 10_000,
  browser_dom_index: 10_000,
  browser_xpath_scan: 10_000,
  browser_click: 5_000,
  browser_type: 10_000,
  browser_get_html: 10_000,
  task_stop: 5_000,
  browser_switch_tab: 5_000,
  // The new input primitives, by kin: pointer actions as browser_click (5 s), form
  // input that may wait for a submit's navigation to commit as browser_type (10 s).
  browser_check: 5_000,
  browser_hover: 5_000,
  browser_dblclick: 5_000,
  browser_focus: 5_000,
  browser_select: 10_000,
  browser_press: 10_000,
});

/** T_exec for an action the table does not list: the low end of the seed's 30–120 s. */
export const fallbackExecTimeoutMs = 30_000;

/** Wait before the single retry (000 §5.1: "退避 1s"). */
export const defaultRetryBackoffMs = 1_000;

/** Read-only actions, the only ones the server may resend (001 §4.2). */
export const idempotentActions: ReadonlySet<string> = new Set([
  'browser_screenshot',
  'browser_readability_extract',
  'browser_dom_index',
  'browser_xpath_scan',
  'browser_get_html',
  'browser_wait_for_loaded',
]);

export function isIdempotentAction(actionName: string): boolean {
  return idempotentActions.has(actionName);
}

function isPositiveFinite(n: number | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0;
}

/**
 * The bound on a per-action `params.timeoutMs` (seed 001 §4.1: "T_exec 可在 action 参数中覆盖",
 * suggested 30–120 s): at least 1 s, at most 120 s, the top of the seed's suggested range. A
 * caller asking for more gets 120 s (the plugin's own wait is bounded by the frame's timeoutMs).
 */
export const minActionTimeoutMs = 1_000;
export const maxActionTimeoutMs = 120_000;

/**
 * Handlers that honour `params.timeoutMs` as their own wait (browser_wait_for_loaded answers
 * NAVIGATION_TIMEOUT when it runs out): the server waits this much longer, so the handler's
 * own answer arrives before the server's PLUGIN_TIMEOUT_EXEC.
 */
export const handlerTimeoutGraceMs = 1_000;
const handlerTimedActions: ReadonlySet<string> = new Set(['browser_wait_for_loaded']);

/**
 * browser_type: T_exec grows with the text (the table's 10 s plus 10 ms a character, within
 * the 120 s bound): a 2,000-character text gets 30 s. The extension enters long text with
 * Input.insertText, far below this rate; the slack is for a busy background tab.
 */
export const typingExecMsPerChar = 10;

export function typingExecTimeoutMs(textLength: number): number {
  const base = defaultExecTimeoutMs.browser_type!;
  return Math.min(maxActionTimeoutMs, base + Math.max(0, Math.ceil(textLength)) * typingExecMsPerChar);
}

/** A `params.timeoutMs` within [minActionTimeoutMs, maxActionTimeoutMs], or undefined. */
export function boundedActionTimeoutMs(requested: unknown): number | undefined {
  if (typeof requested !== 'number' || !isPositiveFinite(requested)) return undefined;
  return Math.min(maxActionTimeoutMs, Math.max(minActionTimeoutMs, Math.ceil(requested)));
}

/**
 * T_exec of one action: the caller's explicit `overrideMs` (a server-side setting, used as is),
 * else the action's own `params.timeoutMs` within the bound (plus the grace for handlers that
 * wait that long themselves), else browser_type's length rule, else the table, else the fallback.
 */
export function execTimeoutFor(
  actionName: string,
  overrideMs?: number,
  params?: Readonly<Record<string, unknown>>,
): number {
  if (isPositiveFinite(overrideMs)) return overrideMs;
  const requested = boundedActionTimeoutMs(params?.timeoutMs);
  if (requested !== undefined)
    return handlerTimedActions.has(actionName) ? requested + handlerTimeoutGraceMs : requested;
  if (actionName === 'browser_type' && typeof params?.text === 'string') return typingExecTimeoutMs(params.text.length);
  return Object.hasOwn(defaultExecTimeoutMs, actionName) ? defaultExecTimeoutMs[actionName]! : fallbackExecTimeoutMs;
}

export function ackTimeoutFor(overrideMs?: number): number {
  return isPositiveFinite(overrideMs) ? overrideMs : defaultAckTimeoutMs;
}
