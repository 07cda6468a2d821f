// The tool result fed back to the LLM as the `tool` role content (seed 000 §5).
import * as v from 'valibot';
import { ProtocolErrorSchema } from './error-codes.ts';
import type { ProtocolError } from './error-codes.ts';
import { IdSchema } from './ids.ts';

export const ToolResultOkSchema = v.object({
  toolCallId: IdSchema,
  name: IdSchema,
  ok: v.literal(true),
  result: v.unknown(),
  warnings: v.optional(v.array(v.string())),
  /** Page-preparation parts that failed while the rest succeeded, e.g. ["screenshot"] (seed 000 §4.5). */
  missing: v.optional(v.array(v.string())),
});
export type ToolResultOk = v.InferOutput<typeof ToolResultOkSchema>;

export const ToolResultErrorSchema = v.object({
  toolCallId: IdSchema,
  name: IdSchema,
  ok: v.literal(false),
  error: ProtocolErrorSchema,
});
export type ToolResultError = v.InferOutput<typeof ToolResultErrorSchema>;

export const ToolResultSchema = v.variant('ok', [ToolResultOkSchema, ToolResultErrorSchema]);
export type ToolResult = v.InferOutput<typeof ToolResultSchema>;

export function toolResultOk(
  toolCallId: string,
  name: string,
  result: unknown,
  extra: { warnings?: string[]; missing?: string[] } = {},
): ToolResultOk {
  const out: ToolResultOk = { toolCallId, name, ok: true, result, warnings: extra.warnings ?? [] };
  if (extra.missing !== undefined) out.missing = extra.missing;
  return out;
}

export function toolResultError(toolCallId: string, name: string, error: ProtocolError): ToolResultError {
  return { toolCallId, name, ok: false, error };
}
