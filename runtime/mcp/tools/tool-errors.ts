// The seed 003 §7.2 error format, `{ error, errorCode, recoverHint, details }`, with the codes of
// §7.1 (tool layer and run layer) and a recover hint per code.

export type SeedErrorCode =
  | 'TEMPLATE_NOT_FOUND'
  | 'TEMPLATE_VERSION_UNSUPPORTED'
  | 'TRUST_LEVEL_NOT_ALLOWED'
  | 'RUN_NOT_FOUND'
  | 'RUN_TIMEOUT'
  | 'RUN_CANCELED'
  | 'STEP_EXECUTION_FAILED'
  | 'ARTIFACT_NOT_FOUND'
  | 'ARTIFACT_EXPIRED'
  | 'ELEMENT_NOT_FOUND'
  | 'NAVIGATION_TIMEOUT'
  | 'SESSION_NOT_FOUND'
  | 'PAGE_CRASHED'
  | 'INVALID_PARAMETER'
  | 'EXECUTION_ERROR';

export interface SeedError {
  error: string;
  errorCode: SeedErrorCode;
  recoverHint: string;
  details: Record<string, unknown>;
}

export const recoverHints: Record<SeedErrorCode, string> = {
  TEMPLATE_NOT_FOUND: 'call list_task_templates for the available templates',
  TEMPLATE_VERSION_UNSUPPORTED: 'use a version list_task_templates reports (same major version)',
  TRUST_LEVEL_NOT_ALLOWED:
    "switch to a local connection or pick a template whose trustLevelSupport includes this connection's trust level",
  RUN_NOT_FOUND: 'check the runId (list_task_runs lists the stored runs)',
  RUN_TIMEOUT: 'raise options.timeoutMs (up to the template and runtime maximum) or split the task into smaller runs',
  RUN_CANCELED: 'create a new run',
  STEP_EXECUTION_FAILED: 'see details.failedStep and details.stepErrorCode; retry with fewer or different inputs',
  ARTIFACT_NOT_FOUND: "check the artifactId (get_task_run lists a run's artifacts)",
  ARTIFACT_EXPIRED: 'artifacts are kept 24 h after the run ends: run the template again',
  ELEMENT_NOT_FOUND: 'take a fresh snapshot and use a current element reference',
  NAVIGATION_TIMEOUT: 'retry, or raise the timeout',
  SESSION_NOT_FOUND: 'omit sessionId for a fresh session, or use one that exists (e.g. returned by login_keep_session)',
  PAGE_CRASHED: 'open the page again',
  INVALID_PARAMETER: "fix the arguments as details describe (the tool's inputSchema has the rules)",
  EXECUTION_ERROR: 'retry; if it persists, check that the browser extension is connected',
};

export function seedError(
  errorCode: SeedErrorCode,
  error: string,
  details: Record<string, unknown> = {},
  recoverHint?: string,
): SeedError {
  return { error, errorCode, recoverHint: recoverHint ?? recoverHints[errorCode], details };
}
