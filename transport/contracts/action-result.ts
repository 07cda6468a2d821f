// browser_action results from the plugin (seed 001 §3.5): the v1 message with `type`, the
// legacy shape without it, the Socket.IO ack, and normalizeActionResult that folds both
// result formats into one value for the scheduler.
import * as v from 'valibot';
import { defaultRetryable, isKnownErrorCode, ProtocolErrorSchema } from './error-codes.ts';
import type { KnownErrorCode } from './error-codes.ts';
import { ActionIdSchema, ClientIdSchema, IdSchema, TaskIdSchema, TimestampSchema } from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';

export const ActionStatusSchema = v.picklist(['success', 'error', 'partial']);
export type ActionStatus = v.InferOutput<typeof ActionStatusSchema>;

/** A result payload; checked per action against actionResultSchemas by whoever knows the action. */
const ResultPayloadSchema = v.record(v.string(), v.unknown());
/** `partial` must say what is missing in result.warnings (seed 001 §3.5). */
const PartialResultPayloadSchema = v.looseObject({
  warnings: v.pipe(v.array(v.string()), v.nonEmpty('a partial result must list what is missing in warnings')),
});

function resultMessage<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.object({
    v: ProtocolVersionSchema,
    type: v.literal('browser_action_result'),
    actionId: ActionIdSchema,
    taskId: TaskIdSchema,
    clientId: ClientIdSchema,
    timestamp: v.optional(TimestampSchema),
    traceId: v.optional(v.string()),
    ...entries,
  });
}

/** v1 result: a variant on `status`, so `error` is required exactly when status is "error". */
export const BrowserActionResultMessageSchema = v.variant('status', [
  resultMessage({ status: v.literal('success'), result: v.optional(ResultPayloadSchema) }),
  resultMessage({ status: v.literal('partial'), result: PartialResultPayloadSchema }),
  resultMessage({ status: v.literal('error'), error: ProtocolErrorSchema, result: v.optional(ResultPayloadSchema) }),
]);
export type BrowserActionResultMessage = v.InferOutput<typeof BrowserActionResultMessageSchema>;

/** Legacy result: no `v`, no `type`; recognised by actionId + status; error may be a bare string. */
export const LegacyBrowserActionResultSchema = v.object({
  actionId: ActionIdSchema,
  taskId: v.optional(IdSchema),
  clientId: v.optional(ClientIdSchema),
  status: ActionStatusSchema,
  result: v.optional(ResultPayloadSchema),
  error: v.optional(v.union([v.string(), ProtocolErrorSchema])),
});
export type LegacyBrowserActionResult = v.InferOutput<typeof LegacyBrowserActionResultSchema>;

/** Either format; dispatches on the presence of `type` so errors point at the right fields. */
export const AnyBrowserActionResultSchema = v.lazy((input) =>
  typeof input === 'object' && input !== null && 'type' in input
    ? BrowserActionResultMessageSchema
    : LegacyBrowserActionResultSchema,
);
export type AnyBrowserActionResult = BrowserActionResultMessage | LegacyBrowserActionResult;

/** The plugin's Socket.IO ack for browser_action: received and started, not succeeded. */
export const BrowserActionAckSchema = v.object({
  ok: v.boolean(),
  error: v.optional(ProtocolErrorSchema),
});
export type BrowserActionAck = v.InferOutput<typeof BrowserActionAckSchema>;

/** One shape for both formats; `error.retryable` is always filled (default table when absent). */
export type NormalizedActionResult = {
  actionId: string;
  taskId?: string;
  clientId?: string;
  status: ActionStatus;
  result?: Record<string, unknown>;
  error?: { code: string; message: string; retryable: boolean; details?: Record<string, unknown> };
  format: 'v1' | 'legacy';
};

const TIMEOUT_WORDS = /time(d)?[\s_-]?out/i;

/**
 * Code for a legacy string error: the string itself when it is a known code (any case, spaces
 * or dashes for underscores), PLUGIN_TIMEOUT_EXEC when it speaks of a timeout (the seed pairs
 * legacy `"timeout"` with the v1 PLUGIN_TIMEOUT_EXEC example), else PLUGIN_ERROR.
 */
export function codeFromLegacyError(text: string): KnownErrorCode {
  const candidate = text
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (isKnownErrorCode(candidate)) return candidate;
  if (TIMEOUT_WORDS.test(text)) return 'PLUGIN_TIMEOUT_EXEC';
  return 'PLUGIN_ERROR';
}

function normalizeError(
  error: string | v.InferOutput<typeof ProtocolErrorSchema> | undefined,
): NonNullable<NormalizedActionResult['error']> {
  if (error === undefined) {
    return { code: 'PLUGIN_ERROR', message: 'the plugin reported an error without details', retryable: false };
  }
  if (typeof error === 'string') {
    const code = codeFromLegacyError(error);
    return {
      code,
      message: error === '' ? 'the plugin reported an empty error' : error,
      retryable: defaultRetryable(code),
    };
  }
  const normalized: NonNullable<NormalizedActionResult['error']> = {
    code: error.code,
    message: error.message,
    retryable: error.retryable ?? defaultRetryable(error.code),
  };
  if (error.details !== undefined) normalized.details = error.details;
  return normalized;
}

/**
 * Fold a validated v1 or legacy result into NormalizedActionResult. Pure, never throws.
 * `error` is present exactly when status is "error"; an error sent with another status is dropped.
 */
export function normalizeActionResult(input: AnyBrowserActionResult): NormalizedActionResult {
  const format = 'type' in input ? 'v1' : 'legacy';
  const out: NormalizedActionResult = { actionId: input.actionId, status: input.status, format };
  if (input.taskId !== undefined) out.taskId = input.taskId;
  if (input.clientId !== undefined) out.clientId = input.clientId;
  if (input.result !== undefined) out.result = input.result;
  if (input.status === 'error') out.error = normalizeError('error' in input ? input.error : undefined);
  return out;
}
