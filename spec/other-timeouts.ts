// The seeds' timeouts beside the browser_action table (action-timeouts.ts): page preparation's
// retry waits and the template run's upper bound. Dependency-free like the rest of spec/.

/**
 * Waits before page preparation's capture retries, seed 000 §4.5 ("各自最多重试 1 次（退避 500ms →
 * 1500ms）"): the schedule of waits before retry 1, 2, ... (the last value repeats).
 */
export const defaultPagePrepBackoffMs: readonly number[] = Object.freeze([500, 1_500]);

/** The longest a template run may take, seed 003 (`maxRunTimeoutMs`: 900000), also its default. */
export const maxRunTimeoutMs = 900_000;
