// The one table of error codes (seed 000 §4.5 / §5.1, 001 §0.3 / §3.5, 003 §7.1) and their
// default `retryable`. Dependency-free: machines/, transport/contracts (which builds its valibot
// picklists from these lists), runtime/, web/ and extension/ all read this file.

export const ErrorCode = {
  /** 000 §5.1 / 001 §3.5: no socket for the plugin, or it went away mid-action. */
  PLUGIN_OFFLINE: 'PLUGIN_OFFLINE',
  /** 001 §4.1: the plugin did not ack a browser_action within T_ack. */
  PLUGIN_TIMEOUT_ACK: 'PLUGIN_TIMEOUT_ACK',
  /** 001 §4.1: no browser_action_result within T_exec after the ack. */
  PLUGIN_TIMEOUT_EXEC: 'PLUGIN_TIMEOUT_EXEC',
  /** 000 §4.5: both screenshot and readability failed. */
  PAGE_PREP_FAILED: 'PAGE_PREP_FAILED',
  /** 003 §7.1: the run exceeded its effective timeout. */
  RUN_TIMEOUT: 'RUN_TIMEOUT',
  /** 003 §7.1: the run was canceled. */
  RUN_CANCELED: 'RUN_CANCELED',
  /** 003 §7.3: a step failed; `details.stepErrorCode` carries the step's own code. */
  STEP_EXECUTION_FAILED: 'STEP_EXECUTION_FAILED',
  /** 003 §7.1 tool layer: a step failed without a code of its own. */
  EXECUTION_ERROR: 'EXECUTION_ERROR',
  /**
   * Ours, not the seeds' (they name no code for it): the user stopped the task, so the action
   * or turn in flight was canceled.
   */
  TASK_STOPPED: 'TASK_STOPPED',
  /** Ours, not the seeds': the server restarted while the task's turn ran; it was cut short. */
  TASK_INTERRUPTED: 'TASK_INTERRUPTED',
  /** 001 §0.3: something threw that was not an error value (a bug, not a plugin answer). */
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCodeName = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP envelope codes (seed 001 §0.3). */
export const httpErrorCodes = [
  'BAD_REQUEST',
  'NOT_FOUND',
  'CONFLICT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;

/**
 * Plugin / scheduler / page-preparation codes (seed 001 §3.5, seed 000 §4.5-4.7, §5.1).
 * `PLUGIN_ERROR` is ours, not the seeds': the catch-all for a plugin failure that names no known
 * code (e.g. a legacy result whose `error` is a free-form string).
 */
export const actionErrorCodes = [
  'PLUGIN_OFFLINE',
  'PLUGIN_TIMEOUT_ACK',
  'PLUGIN_TIMEOUT_EXEC',
  'INVALID_TASK_TAB',
  'INVALID_TARGET',
  'CDP_UNAVAILABLE',
  'CDP_PERMISSION_DENIED',
  'PAGE_PREP_FAILED',
  'READABILITY_TOO_LARGE',
  'ARTIFACT_UPLOAD_FAILED',
  'NAVIGATION_TIMEOUT',
  'TASK_TAB_CLOSED',
  'SCHEMA_VALIDATION_FAILED',
  'PLUGIN_ERROR',
  // The page could not be loaded at all (refused, DNS, TLS...); details.netError names it.
  'NAVIGATION_FAILED',
  // The navigation an action caused was refused by the URL policy (seed 004 §4); the tab
  // was sent to about:blank. The server's policy code, carried by the action that caused it.
  'URL_BLOCKED',
  // A modal dialog is open and the target is behind it (a person could not reach it).
  'ELEMENT_OUTSIDE_MODAL',
] as const;
export type ActionErrorCodeName = (typeof actionErrorCodes)[number];

/**
 * Default `retryable` per action code. Seed 000 §5.1 fixes PLUGIN_OFFLINE, PLUGIN_TIMEOUT_ACK/EXEC,
 * PAGE_PREP_FAILED, CDP_UNAVAILABLE (true) and INVALID_TASK_TAB, INVALID_TARGET,
 * READABILITY_TOO_LARGE, SCHEMA_VALIDATION_FAILED (false). The rest are our choice:
 * ARTIFACT_UPLOAD_FAILED and NAVIGATION_TIMEOUT are transient (true); CDP_PERMISSION_DENIED,
 * TASK_TAB_CLOSED (needs a new task_start, not a replay) and PLUGIN_ERROR are not (false).
 * Retries still only happen on idempotent actions, at most once (seed 001 §4.2).
 */
export const retryableByDefault = {
  PLUGIN_OFFLINE: true,
  PLUGIN_TIMEOUT_ACK: true,
  PLUGIN_TIMEOUT_EXEC: true,
  PAGE_PREP_FAILED: true,
  CDP_UNAVAILABLE: true,
  ARTIFACT_UPLOAD_FAILED: true,
  NAVIGATION_TIMEOUT: true,
  INVALID_TASK_TAB: false,
  INVALID_TARGET: false,
  READABILITY_TOO_LARGE: false,
  SCHEMA_VALIDATION_FAILED: false,
  CDP_PERMISSION_DENIED: false,
  TASK_TAB_CLOSED: false,
  PLUGIN_ERROR: false,
  NAVIGATION_FAILED: false,
  URL_BLOCKED: false,
  ELEMENT_OUTSIDE_MODAL: false,
} as const satisfies Record<ActionErrorCodeName, boolean>;

/** MCP tool-layer codes (seed 003 §7.1). */
export const mcpToolErrorCodes = [
  'ELEMENT_NOT_FOUND',
  'NAVIGATION_TIMEOUT',
  'SESSION_NOT_FOUND',
  'PAGE_CRASHED',
  'INVALID_PARAMETER',
  'EXECUTION_ERROR',
] as const;

/** MCP template-run codes (seed 003 §7.1). */
export const mcpRunErrorCodes = [
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_VERSION_UNSUPPORTED',
  'TRUST_LEVEL_NOT_ALLOWED',
  'RUN_NOT_FOUND',
  'RUN_TIMEOUT',
  'RUN_CANCELED',
  'STEP_EXECUTION_FAILED',
  'ARTIFACT_NOT_FOUND',
  'ARTIFACT_EXPIRED',
] as const;

/** 000 §5.1: codes that are retryable by classification (the `true` rows of the table). */
export const retryableErrorCodes: ReadonlySet<string> = new Set(
  Object.entries(retryableByDefault)
    .filter(([, retryable]) => retryable)
    .map(([code]) => code),
);
