// Whether a turn ended on a failure (seed 000 §2.1: `error` on timeouts, an offline plugin, a
// failed execution). A turn fails when what it last tried did not work: its latest browser tool
// failed (blocked URL, unknown host, refused port, exec timeout...), or the page it landed on
// did not load (HTTP 4xx/5xx, load timeout), and nothing it did after that worked; or it ran
// out of steps; or it was cut short because the plugin is unusable (offline, missed ack). Reads
// of an already loaded page (text paging, element lists, screenshots) neither fail nor clear it.
// Pure: the turn runner folds each tool outcome in and asks at the end.
import { errorValue, type ErrorValue } from '../../machines/index.ts';

/** Tools that only read what is already there: their success does not undo an earlier failure. */
const READ_ONLY_TOOLS = new Set(['browser_read_page_text', 'browser_list_elements', 'browser_screenshot']);
/**
 * Not failures of the work: the person stopped it, the call was never run, the model's own
 * call was malformed (it is told, and answers for itself; nothing was tried in the browser), or
 * the person said no to a held step (CONFIRMATION_DENIED is their decision, not a
 * failure; the model is told to ask them what to do instead). Like a stop, a denial neither fails
 * the turn nor clears an earlier failure it did not recover from. CONFIRMATION_REQUIRED (no one
 * could say yes) stays a failure: the step was needed and not done.
 */
const NOT_FAILURES = new Set(['TASK_STOPPED', 'SKIPPED', 'SCHEMA_VALIDATION_FAILED', 'CONFIRMATION_DENIED']);

export interface ToolOutcomeLike {
  ok: boolean;
  error?: ErrorValue | undefined;
  /** The page the tool read, with how its load went. */
  page?: { loadFailure?: ErrorValue | undefined } | undefined;
}

/** The turn's failure so far after one more tool outcome (null: the latest step worked). */
export function nextTurnFailure(current: ErrorValue | null, tool: string, outcome: ToolOutcomeLike): ErrorValue | null {
  if (!outcome.ok) {
    const error = outcome.error ?? errorValue('EXECUTION_ERROR', `${tool} failed`, { retryable: false });
    return NOT_FAILURES.has(error.code) ? current : error;
  }
  if (outcome.page?.loadFailure) return outcome.page.loadFailure;
  return READ_ONLY_TOOLS.has(tool) ? current : null;
}

/** The step limit ran out before a final answer: a failure, not a result. */
export function stepLimitFailure(stepLimit: number): ErrorValue {
  return errorValue('EXECUTION_ERROR', `the agent stopped after ${stepLimit} steps without finishing`, {
    retryable: true,
    details: { reason: 'step_limit', stepLimit },
  });
}

/** The load a page read waited for, as a failure: HTTP 4xx/5xx (an error page) or no complete load. */
export function loadFailureOf(
  loaded: { ok: boolean; error?: ErrorValue | undefined; result?: Record<string, unknown> | undefined },
  url: string,
): ErrorValue | undefined {
  if (!loaded.ok)
    return (
      loaded.error ??
      errorValue('NAVIGATION_TIMEOUT', `${url || 'the page'} did not finish loading`, { retryable: true })
    );
  const status = loaded.result?.httpStatus;
  if (typeof status === 'number' && status >= 400) {
    return errorValue(
      'NAVIGATION_FAILED',
      `${url || 'the page'} answered HTTP ${status}: an error page, not the content asked for`,
      { retryable: status >= 500, details: { httpStatus: status, url } },
    );
  }
  return undefined;
}
