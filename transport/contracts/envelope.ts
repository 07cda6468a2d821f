// The HTTP response envelope (seed 001 §0.3): `{ ok: true, data }` or `{ ok: false, error }`.
import * as v from 'valibot';
import { HttpErrorCodeSchema } from './error-codes.ts';
import type { HttpErrorCode } from './error-codes.ts';

export const FieldErrorSchema = v.object({
  field: v.string(),
  message: v.string(),
});
export type FieldError = v.InferOutput<typeof FieldErrorSchema>;

export const ErrorDetailsSchema = v.object({
  retryable: v.optional(v.boolean()),
  context: v.optional(v.record(v.string(), v.unknown())),
  fieldErrors: v.optional(v.array(FieldErrorSchema)),
});
export type ErrorDetails = v.InferOutput<typeof ErrorDetailsSchema>;

export const HttpErrorSchema = v.object({
  code: HttpErrorCodeSchema,
  message: v.string(),
  details: v.optional(ErrorDetailsSchema),
});
export type HttpError = v.InferOutput<typeof HttpErrorSchema>;

export const ErrorEnvelopeSchema = v.object({
  ok: v.literal(false),
  error: HttpErrorSchema,
});
export type ErrorEnvelope = v.InferOutput<typeof ErrorEnvelopeSchema>;

/** Schema of `{ ok: true, data }` for a given data schema. */
export function okEnvelopeSchema<const TData extends v.GenericSchema>(data: TData) {
  return v.object({ ok: v.literal(true), data });
}

/** Schema of either envelope for a given data schema (variant on `ok`). */
export function envelopeSchema<const TData extends v.GenericSchema>(data: TData) {
  return v.variant('ok', [okEnvelopeSchema(data), ErrorEnvelopeSchema]);
}

export type OkEnvelope<TData> = { ok: true; data: TData };
export type Envelope<TData> = OkEnvelope<TData> | ErrorEnvelope;

export function okEnvelope<TData>(data: TData): OkEnvelope<TData> {
  return { ok: true, data };
}

export function errorEnvelope(code: HttpErrorCode, message: string, details?: ErrorDetails): ErrorEnvelope {
  return details === undefined
    ? { ok: false, error: { code, message } }
    : { ok: false, error: { code, message, details } };
}
