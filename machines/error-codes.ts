// Error codes the machines put into their outputs and contexts. Every name comes from the
// seeds: 000 §4.5 / §5.1 (page preparation, plugin), 001 §0.3 / §3.5 (transport, HTTP),
// 003 §7.1 (template runs). Kept here because machines/ imports nothing but xstate.

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
  /** 001 §0.3: something threw that was not an error value (a bug, not a plugin answer). */
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCodeName = (typeof ErrorCode)[keyof typeof ErrorCode];

/** 000 §5.1: codes that are retryable by classification. */
export const retryableErrorCodes: ReadonlySet<string> = new Set([
  ErrorCode.PLUGIN_OFFLINE,
  ErrorCode.PLUGIN_TIMEOUT_ACK,
  ErrorCode.PLUGIN_TIMEOUT_EXEC,
  ErrorCode.PAGE_PREP_FAILED,
  'CDP_UNAVAILABLE',
]);
