// The valibot side of the seeds' error codes: picklists and the wire schema of the error value.
// The lists, the retryable table and the ErrorValue type live once, in spec/ (no
// dependencies); this file only validates against them.
import * as v from 'valibot';
import {
  actionErrorCodes,
  httpErrorCodes,
  mcpRunErrorCodes,
  mcpToolErrorCodes,
  retryableByDefault,
  type ErrorValue,
} from '../../spec/index.ts';

export { actionErrorCodes, httpErrorCodes, mcpRunErrorCodes, mcpToolErrorCodes, retryableByDefault };

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

export const ActionErrorCodeSchema = v.picklist(actionErrorCodes);
export type ActionErrorCode = v.InferOutput<typeof ActionErrorCodeSchema>;

export const McpToolErrorCodeSchema = v.picklist(mcpToolErrorCodes);
export type McpToolErrorCode = v.InferOutput<typeof McpToolErrorCodeSchema>;

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
// The schema's output is exactly the shared error value (both directions).
const _sameShape: [ProtocolError, ErrorValue] = [{} as ErrorValue, {} as ProtocolError];
void _sameShape;

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
