// `frontend_message`: web -> server (seed 001 §3.3). The seed keeps only user_message; the
// control messages below are what the product adds (takeover/resume/stop from the web,
// subscriptions to a task's events and to its live machine inspection, extension choice).
import * as v from 'valibot';
import { variantMessage } from './variant-message.ts';
import { ClientIdSchema, IdSchema, TaskIdSchema, TimestampSchema } from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';

/** Socket.IO event name. */
export const FRONTEND_MESSAGE_EVENT = 'frontend_message';

function frontendMessage<const TType extends string, const TEntries extends v.ObjectEntries>(
  type: TType,
  entries: TEntries,
) {
  return v.object({
    v: ProtocolVersionSchema,
    type: v.literal(type),
    id: IdSchema,
    timestamp: TimestampSchema,
    taskId: TaskIdSchema,
    traceId: v.optional(v.string()),
    ...entries,
  });
}

export const UserMessageSchema = frontendMessage('user_message', {
  content: v.pipe(v.string(), v.nonEmpty('content must not be empty')),
});
export type UserMessage = v.InferOutput<typeof UserMessageSchema>;

/** Hand control back to the agent after a takeover. */
export const ResumeTaskSchema = frontendMessage('resume_task', {});
export type ResumeTask = v.InferOutput<typeof ResumeTaskSchema>;

/** Stop the task for good (-> completed). */
export const StopTaskSchema = frontendMessage('stop_task', { reason: v.optional(v.string()) });
export type StopTask = v.InferOutput<typeof StopTaskSchema>;

/** The user takes over from the web UI (the plugin's own detection sends takeover_report). */
export const TakeoverTaskSchema = frontendMessage('takeover_task', { reason: v.optional(v.string()) });
export type TakeoverTask = v.InferOutput<typeof TakeoverTaskSchema>;

/** Join / leave the `task:{taskId}` room. */
export const SubscribeTaskSchema = frontendMessage('subscribe_task', {});
export type SubscribeTask = v.InferOutput<typeof SubscribeTaskSchema>;
export const UnsubscribeTaskSchema = frontendMessage('unsubscribe_task', {});
export type UnsubscribeTask = v.InferOutput<typeof UnsubscribeTaskSchema>;

/** Start / stop receiving `inspection` events for the task's actors. */
export const SubscribeInspectionSchema = frontendMessage('subscribe_inspection', {});
export type SubscribeInspection = v.InferOutput<typeof SubscribeInspectionSchema>;
export const UnsubscribeInspectionSchema = frontendMessage('unsubscribe_inspection', {});
export type UnsubscribeInspection = v.InferOutput<typeof UnsubscribeInspectionSchema>;

/** Bind the task to an explicit plugin instance (explicit > single > most recently used). */
export const SelectExtensionSchema = frontendMessage('select_extension', { clientId: ClientIdSchema });
export type SelectExtension = v.InferOutput<typeof SelectExtensionSchema>;

/** Start / stop receiving the task tab's live frames (`live_frame`, live-view.ts). */
export const SubscribeLiveSchema = frontendMessage('subscribe_live', {});
export type SubscribeLive = v.InferOutput<typeof SubscribeLiveSchema>;
export const UnsubscribeLiveSchema = frontendMessage('unsubscribe_live', {});
export type UnsubscribeLive = v.InferOutput<typeof UnsubscribeLiveSchema>;

/** The person's answer to a `confirmationRequested` event. */
export const ConfirmationAnswerSchema = frontendMessage('confirmation_answer', {
  requestId: IdSchema,
  decision: v.picklist(['allow_once', 'allow_site', 'deny']),
});
export type ConfirmationAnswer = v.InferOutput<typeof ConfirmationAnswerSchema>;

/** The person's edit of the task's scope: the whole list of sites (domains, host:port or URLs). */
export const SetTaskScopeSchema = frontendMessage('set_task_scope', {
  sites: v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(50)),
});
export type SetTaskScope = v.InferOutput<typeof SetTaskScopeSchema>;

/** Bring the task's tab to the front (the only time Mimo focuses a tab, on the person's request). */
export const ShowTaskTabSchema = frontendMessage('show_task_tab', {});
export type ShowTaskTab = v.InferOutput<typeof ShowTaskTabSchema>;

/**
 * A credential for this task only, used as `{{secret:name}}`: the model sees the placeholder,
 * the runtime puts the value in at typing time. Kept in memory, never stored or relayed.
 */
export const SetTaskSecretSchema = frontendMessage('set_task_secret', {
  name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'a secret name is 1-40 letters, digits, _ or -')),
  value: v.pipe(v.string(), v.nonEmpty(), v.maxLength(1000)),
});
export type SetTaskSecret = v.InferOutput<typeof SetTaskSecretSchema>;

export const FrontendMessageSchema = v.variant(
  'type',
  [
    UserMessageSchema,
    ResumeTaskSchema,
    StopTaskSchema,
    TakeoverTaskSchema,
    SubscribeTaskSchema,
    UnsubscribeTaskSchema,
    SubscribeInspectionSchema,
    UnsubscribeInspectionSchema,
    SelectExtensionSchema,
    SubscribeLiveSchema,
    UnsubscribeLiveSchema,
    ConfirmationAnswerSchema,
    SetTaskScopeSchema,
    ShowTaskTabSchema,
    SetTaskSecretSchema,
  ],
  variantMessage,
);
export type FrontendMessage = v.InferOutput<typeof FrontendMessageSchema>;
export type FrontendMessageType = FrontendMessage['type'];
