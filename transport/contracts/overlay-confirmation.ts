// The page overlay's side of a held step. Server -> plugin `confirmation_state`: the
// steps of a task that wait for the person's yes (empty when none), so the overlay on the task's
// tab shows "Needs you: confirm" too. Plugin -> server `confirmation_answer`: the person pressed
// Allow once / Always for this site / Deny there (trusted clicks only).
import * as v from 'valibot';
import { ClientIdSchema, IdSchema, TaskIdSchema, TimestampSchema } from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';
import { ConfirmationDecisionSchema, HeldStepSchema } from './frontend-event.ts';

export const WaitingStepSchema = v.object({ requestId: IdSchema, step: HeldStepSchema });
export type WaitingStepWire = v.InferOutput<typeof WaitingStepSchema>;

export const ConfirmationStateSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('confirmation_state'),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  waiting: v.pipe(v.array(WaitingStepSchema), v.maxLength(50)),
});
export type ConfirmationState = v.InferOutput<typeof ConfirmationStateSchema>;

export const PluginConfirmationAnswerSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('confirmation_answer'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  requestId: IdSchema,
  decision: ConfirmationDecisionSchema,
  traceId: v.optional(v.string()),
});
export type PluginConfirmationAnswer = v.InferOutput<typeof PluginConfirmationAnswerSchema>;
