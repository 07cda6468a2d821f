// The Socket.IO ack every `frontend_message` and `plugin_message` gets back (socket.io's ack
// semantics: the answer to that one message): `{ ok: true, data? }` or `{ ok: false, error }`
// with a seed code. `ok: false` means the server refused the message and changed nothing.
import * as v from 'valibot';
import type { ErrorValue } from '../../spec/index.ts';
import { FieldErrorSchema } from './envelope.ts';

export const AckErrorSchema = v.object({
  code: v.pipe(v.string(), v.nonEmpty('error code must be a non-empty string')),
  message: v.string(),
  retryable: v.optional(v.boolean()),
  details: v.optional(v.record(v.string(), v.unknown())),
  fieldErrors: v.optional(v.array(FieldErrorSchema)),
});
export type AckError = v.InferOutput<typeof AckErrorSchema>;

export const SocketAckSchema = v.variant('ok', [
  v.object({ ok: v.literal(true), data: v.optional(v.record(v.string(), v.unknown())) }),
  v.object({ ok: v.literal(false), error: AckErrorSchema }),
]);
export type SocketAck = v.InferOutput<typeof SocketAckSchema>;

export function ackOk(data?: Record<string, unknown>): SocketAck {
  return data ? { ok: true, data } : { ok: true };
}

export function ackRefused(error: ErrorValue & { fieldErrors?: AckError['fieldErrors'] }): SocketAck {
  return { ok: false, error };
}
