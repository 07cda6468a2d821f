// The Socket.IO ack of `frontend_message`: `{ ok, data? }` or `{ ok: false, error: { code, message,
// fieldErrors? } }`, as transport/contracts/socket-ack.ts declares it; read defensively here.
import type { FieldError } from '../../../transport/contracts/envelope.ts';
import type { AckError } from '../../../transport/contracts/socket-ack.ts';

export type { AckError };

export type AckResult = { ok: true; data?: unknown } | { ok: false; error: AckError };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Anything the server (or a timeout) answered, as an AckResult. Never throws. */
export function toAckResult(raw: unknown): AckResult {
  if (!isRecord(raw)) return { ok: false, error: { code: 'INTERNAL', message: 'the server answered with no result' } };
  if (raw.ok === true) return 'data' in raw ? { ok: true, data: raw.data } : { ok: true };
  const error = isRecord(raw.error) ? raw.error : {};
  const out: AckError = {
    code: typeof error.code === 'string' && error.code !== '' ? error.code : 'INTERNAL',
    message:
      typeof error.message === 'string' && error.message !== '' ? error.message : 'the server refused the request',
  };
  if (typeof error.retryable === 'boolean') out.retryable = error.retryable;
  if (Array.isArray(error.fieldErrors)) {
    out.fieldErrors = error.fieldErrors.filter(
      (e): e is FieldError => isRecord(e) && typeof e.field === 'string' && typeof e.message === 'string',
    );
  }
  return { ok: false, error: out };
}

export function ackTimeout(ms: number): AckResult {
  return {
    ok: false,
    error: {
      code: 'UNAVAILABLE',
      message: `the server did not answer within ${Math.round(ms / 1000)} s`,
      retryable: true,
    },
  };
}
