// `frontend_event`: server -> web, one envelope around a typed event (seed 001 §3.4, §3.6).
// chatDelta, structuredOutput, snapshotSync are the seed's; toolUsed, taskStatus, inspection,
// usage are what the product adds (tool steps, status banner, live machine view, token usage).
import * as v from 'valibot';
import { variantMessage } from './variant-message.ts';
import {
  ActionIdSchema,
  ArtifactIdSchema,
  IdSchema,
  NonNegativeIntSchema,
  TaskIdSchema,
  TimestampSchema,
} from './ids.ts';
import { ProtocolErrorSchema } from './error-codes.ts';
import { ArtifactKindSchema } from './http.ts';
import { SnapshotStateSchema } from './snapshot.ts';
import { TaskStatusSchema, TurnOutcomeSchema } from './task-status.ts';

/** Socket.IO event name. */
export const FRONTEND_EVENT_EVENT = 'frontend_event';

function frontendEvent<const TType extends string, const TEntries extends v.ObjectEntries>(
  type: TType,
  entries: TEntries,
) {
  return v.object({ id: IdSchema, type: v.literal(type), timestamp: TimestampSchema, ...entries });
}

/** Streamed assistant text; `finished: true` closes the stream for targetEventId. */
export const ChatDeltaEventSchema = frontendEvent('chatDelta', {
  sender: v.literal('assistant'),
  /** The user_message id this answers. */
  targetEventId: IdSchema,
  finished: v.boolean(),
  delta: v.object({ content: v.string() }),
});
export type ChatDeltaEvent = v.InferOutput<typeof ChatDeltaEventSchema>;

/** Structured result / error fallback shown by the UI (e.g. an action failure, an LLM error). */
export const StructuredOutputEventSchema = v.variant('status', [
  frontendEvent('structuredOutput', {
    status: v.literal('error'),
    error: ProtocolErrorSchema,
    data: v.optional(v.unknown()),
    message: v.optional(v.string()),
  }),
  frontendEvent('structuredOutput', {
    status: v.picklist(['success', 'info']),
    error: v.optional(ProtocolErrorSchema),
    data: v.optional(v.unknown()),
    message: v.optional(v.string()),
  }),
]);
export type StructuredOutputEvent = v.InferOutput<typeof StructuredOutputEventSchema>;

/** Full snapshot push; the web ignores a seq not greater than the last one it applied. */
export const SnapshotSyncEventSchema = frontendEvent('snapshotSync', {
  mode: v.literal('full'),
  seq: NonNegativeIntSchema,
  state: SnapshotStateSchema,
});
export type SnapshotSyncEvent = v.InferOutput<typeof SnapshotSyncEventSchema>;

export const ToolArtifactSchema = v.object({ artifactId: ArtifactIdSchema, kind: ArtifactKindSchema, url: v.string() });
export type ToolArtifact = v.InferOutput<typeof ToolArtifactSchema>;

export const ToolPhaseSchema = v.picklist(['start', 'success', 'error', 'partial']);
export type ToolPhase = v.InferOutput<typeof ToolPhaseSchema>;

/** One step of a tool call as the UI lists it. */
export const ToolUsedEventSchema = frontendEvent('toolUsed', {
  toolCallId: IdSchema,
  actionId: v.optional(ActionIdSchema),
  /** The browser action name, or the tool name for tools that are not browser actions. */
  actionName: IdSchema,
  phase: ToolPhaseSchema,
  /** Short human-readable summary of the params, e.g. `tabId=12 clickId=4`. */
  paramsSummary: v.string(),
  /** What the step acted on, in words: the element's label for a click or type, the page's title once loaded. */
  target: v.optional(v.string()),
  /** The small fields of the action's result (ids, url, title, flags), on the settling phase. */
  result: v.optional(v.record(v.string(), v.unknown())),
  durationMs: v.optional(NonNegativeIntSchema),
  artifacts: v.optional(v.array(ToolArtifactSchema)),
  warnings: v.optional(v.array(v.string())),
  error: v.optional(ProtocolErrorSchema),
});
export type ToolUsedEvent = v.InferOutput<typeof ToolUsedEventSchema>;

export const TaskStatusEventSchema = frontendEvent('taskStatus', {
  status: TaskStatusSchema,
  previous: v.optional(TaskStatusSchema),
  reason: v.optional(v.string()),
  /** With `error`: whether the turn failed or was cut short by a restart or a failover. */
  outcome: v.optional(TurnOutcomeSchema),
});
export type TaskStatusEvent = v.InferOutput<typeof TaskStatusEventSchema>;

/** A serialisable XState inspection record; fields beyond the listed ones pass through. */
export const InspectionRecordSchema = v.looseObject({
  type: v.picklist(['@xstate.actor', '@xstate.snapshot', '@xstate.event']),
  actorId: IdSchema,
  machineId: v.optional(v.string()),
});
export type InspectionRecord = v.InferOutput<typeof InspectionRecordSchema>;

export const InspectionEventSchema = frontendEvent('inspection', { record: InspectionRecordSchema });
export type InspectionEvent = v.InferOutput<typeof InspectionEventSchema>;

/**
 * To every frontend (room `frontend`), whichever client drives the task: a task was created or
 * changed status, so other clients' task lists stay current without a reload. `title` and
 * `createdAt` come with the first event of a new task.
 */
export const TaskListChangedEventSchema = frontendEvent('taskListChanged', {
  taskId: TaskIdSchema,
  status: TaskStatusSchema,
  /** With `error`: as on taskStatus. */
  outcome: v.optional(TurnOutcomeSchema),
  title: v.optional(v.string()),
  createdAt: v.optional(TimestampSchema),
});
export type TaskListChangedEvent = v.InferOutput<typeof TaskListChangedEventSchema>;

/**
 * The person's message as the server took it (its id is the user_message id): every window of
 * the task shows it in the task's order, not only the one it was typed in.
 */
export const UserMessageEventSchema = frontendEvent('userMessage', {
  messageId: IdSchema,
  content: v.string(),
});
export type UserMessageEvent = v.InferOutput<typeof UserMessageEventSchema>;

/** The tokens of one LLM call; a task's total is the sum of its usage events (also stored as task.usage). */
export const UsageEventSchema = frontendEvent('usage', {
  promptTokens: NonNegativeIntSchema,
  completionTokens: NonNegativeIntSchema,
  totalTokens: NonNegativeIntSchema,
});
export type UsageEvent = v.InferOutput<typeof UsageEventSchema>;

/**
 * A step held for the person's yes: navigating, opening a tab or submitting a form
 * outside the task's scope, a purchase/transfer/send/delete button, typing into a password,
 * payment or one-time-code field, a file upload or download. Answered by `confirmation_answer`;
 * the exact step is shown, the value with secrets masked.
 */
export const ConfirmationKindSchema = v.picklist([
  'off_scope_navigation',
  'off_scope_new_tab',
  'off_scope_submit',
  'consequential_button',
  'sensitive_field',
  'file_transfer',
]);
export type ConfirmationKind = v.InferOutput<typeof ConfirmationKindSchema>;
export const HeldStepSchema = v.object({
  kind: ConfirmationKindSchema,
  /** The tool the model called (browser_click, browser_type, browser_open, ...). */
  toolName: v.string(),
  /** The site the step acts on (a registrable domain, or host:port). */
  site: v.string(),
  url: v.optional(v.string()),
  /** The element's accessible name (text, label, placeholder). */
  element: v.optional(v.string()),
  /** The value to type, secrets masked. */
  value: v.optional(v.string()),
  /** Why it is held, in words ("the button reads \"Pay now\"", "example.org is not in this task's scope"). */
  reason: v.string(),
});
export type HeldStep = v.InferOutput<typeof HeldStepSchema>;
export const ConfirmationRequestedEventSchema = frontendEvent('confirmationRequested', {
  requestId: IdSchema,
  toolCallId: IdSchema,
  step: HeldStepSchema,
});
export type ConfirmationRequestedEvent = v.InferOutput<typeof ConfirmationRequestedEventSchema>;
export const ConfirmationDecisionSchema = v.picklist(['allow_once', 'allow_site', 'deny']);
export type ConfirmationDecision = v.InferOutput<typeof ConfirmationDecisionSchema>;
export const ConfirmationResolvedEventSchema = frontendEvent('confirmationResolved', {
  requestId: IdSchema,
  decision: ConfirmationDecisionSchema,
  /** Who answered: the web UI, the page overlay, or the task stopping (deny). */
  by: v.picklist(['web', 'overlay', 'stop']),
});
export type ConfirmationResolvedEvent = v.InferOutput<typeof ConfirmationResolvedEventSchema>;

/** The task's scope as it stands (after the person's message, an edit, or "Always for this site"). */
export const TaskScopeEventSchema = frontendEvent('taskScope', {
  sites: v.array(v.object({ site: v.string(), from: v.picklist(['request', 'person']) })),
});
export type TaskScopeEvent = v.InferOutput<typeof TaskScopeEventSchema>;

export const FrontendEventPayloadSchema = v.variant(
  'type',
  [
    ChatDeltaEventSchema,
    StructuredOutputEventSchema,
    SnapshotSyncEventSchema,
    ToolUsedEventSchema,
    TaskStatusEventSchema,
    InspectionEventSchema,
    UsageEventSchema,
    TaskListChangedEventSchema,
    UserMessageEventSchema,
    ConfirmationRequestedEventSchema,
    ConfirmationResolvedEventSchema,
    TaskScopeEventSchema,
  ],
  variantMessage,
);
export type FrontendEventPayload = v.InferOutput<typeof FrontendEventPayloadSchema>;
export type FrontendEventType = FrontendEventPayload['type'];

/**
 * The envelope emitted as `frontend_event`. `taskId` is absent only for broadcasts that belong
 * to no task (a snapshotSync to the `frontend` room before any task exists).
 */
export const FrontendEventSchema = v.object({
  type: v.literal('event'),
  id: IdSchema,
  taskId: v.optional(TaskIdSchema),
  timestamp: TimestampSchema,
  traceId: v.optional(v.string()),
  /**
   * The event's place in its task's one order (1, 2, ...), given by the server as it emits; a
   * step's result comes before the next step's start. A stored message keeps the seq of its
   * event (`meta.seq`), so history and live sort the same. Absent on broadcasts that belong to
   * no task and in recordings made before it existed.
   */
  seq: v.optional(NonNegativeIntSchema),
  event: FrontendEventPayloadSchema,
});
export type FrontendEvent = v.InferOutput<typeof FrontendEventSchema>;
