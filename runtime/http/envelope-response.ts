// Envelope responses (seed 001 §0.3): `{ ok: true, data }` and `{ ok: false, error }` with the
// HTTP status of the code unless the caller names another (413, 415, 405, 410, ...).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { httpStatusByCode, okEnvelope } from '../../transport/contracts/index.ts';
import type { ErrorDetails, HttpErrorCode } from '../../transport/contracts/index.ts';

/** The seed's details plus `reason` (why, e.g. `expired`, `too_large`), as the artifact service reports it. */
export type HttpErrorDetails = ErrorDetails & { reason?: string; [key: string]: unknown };

export interface HttpErrorBody {
  code: HttpErrorCode;
  message: string;
  details?: HttpErrorDetails;
}

export function okResponse(c: Context, data: unknown, headers?: Record<string, string>): Response {
  return c.json(okEnvelope(data), 200, headers);
}

export function errorResponse(
  c: Context,
  error: HttpErrorBody,
  status?: number,
  headers?: Record<string, string>,
): Response {
  const body = { ok: false as const, error };
  return c.json(body, (status ?? httpStatusByCode[error.code]) as ContentfulStatusCode, headers);
}
