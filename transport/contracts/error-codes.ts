// Error code lists of the seeds, their picklists, and the error value that crosses boundaries.
import * as v from 'valibot';

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
export const HttpErrorCodeSchema = v.picklist(httpErrorCodes);
export type HttpErrorCode = v.InferOutput<typeof HttpErrorCodeSchema>;

/** HTTP status for each envelope code (seed 001 §0.3). */
export const httpStatusByCode = {
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const satisfies Record<HttpErrorCode, number>;

/**
 * Plugin / scheduler / page-preparation codes (seed 001 §3.5, seed 000 §4.5-4.7, §5.1).
 * `PLUGIN_ERROR` is ours, not the seeds': the catch-all for a plugin failure that names no known
 * code (e.g. a legacy result whose `error` is a free-form string, see normalizeActionResult).
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
  // Issue 13: the page could not be loaded at all (refused, DNS, TLS...); details.netError names it.
  'NAVIGATION_FAILED',
] as const;
export const ActionErrorCodeSchema = v.picklist(actionErrorCodes);
export type ActionErrorCode = v.InferOutput<typeof ActionErrorCodeSchema>;

/**
 * Default `retryable` per code. Seed 000 §5.1 fixes PLUGIN_OFFLINE, PLUGIN_TIMEOUT_ACK/EXEC,
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
} as const satisfies Record<ActionErrorCode, boolean>;

/** MCP tool-layer codes (seed 003 §7.1). */
export const mcpToolErrorCodes = [
  'ELEMENT_NOT_FOUND',
  'NAVIGATION_TIMEOUT',
  'SESSION_NOT_FOUND',
  'PAGE_CRASHED',
  'INVALID_PARAMETER',
  'EXECUTION_ERROR',
] as const;
export const McpToolErrorCodeSchema = v.picklist(mcpToolErrorCodes);
export type McpToolErrorCode = v.InferOutput<typeof McpToolErrorCodeSchema>;

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
export const McpRunErrorCodeSchema = v.picklist(mcpRunErrorCodes);
export type McpRunErrorCode = v.InferOutput<typeof McpRunErrorCodeSchema>;

/** Every code named by a seed (plus PLUGIN_ERROR). */
export type KnownErrorCode = HttpErrorCode | ActionErrorCode | McpToolErrorCode | McpRunErrorCode;
const knownErrorCodes: ReadonlySet<string> = new Set<string>([
  ...httpErrorCodes,
  ...actionErrorCodes,
  ...mcpToolErrorCodes,
  ...mcpRunErrorCodes,
]);

export function isKnownErrorCode(code: string): code is KnownErrorCode {
  return knownErrorCodes.has(code);
}

export function isActionErrorCode(code: string): code is ActionErrorCode {
  return (actionErrorCodes as readonly string[]).includes(code);
}

/** `retryable` for a code: the default table for action codes, false for anything else. */
export function defaultRetryable(code: string): boolean {
  return isActionErrorCode(code) ? retryableByDefault[code] : false;
}

/**
 * The error value on the socket and in tool results: `{ code, message, retryable?, details? }`.
 * `code` is any non-empty string on the wire (LLM gateway errors carry provider codes, and a
 * newer plugin may send a code we do not know yet); compare against the lists above.
 */
export const ProtocolErrorSchema = v.object({
  code: v.pipe(v.string(), v.nonEmpty('error code must be a non-empty string')),
  message: v.string(),
  retryable: v.optional(v.boolean()),
  details: v.optional(v.record(v.string(), v.unknown())),
});
export type ProtocolError = v.InferOutput<typeof ProtocolErrorSchema>;

/** Same shape, named for browser_action failures. */
export const ActionErrorSchema = ProtocolErrorSchema;
export type ActionError = ProtocolError;

/** Build an error value, filling `retryable` from the default table when not given. */
export function protocolError(
  code: KnownErrorCode | (string & {}),
  message: string,
  extra: { retryable?: boolean; details?: Record<string, unknown> } = {},
): ProtocolError {
  const error: ProtocolError = { code, message, retryable: extra.retryable ?? defaultRetryable(code) };
  if (extra.details !== undefined) error.details = extra.details;
  return error;
}
