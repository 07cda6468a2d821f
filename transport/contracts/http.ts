// Response and request bodies of the HTTP API (seed 001 §2). Responses are wrapped in the
// envelope of envelope.ts; these schemas describe `data`.
import * as v from 'valibot';
import {
  ArtifactIdSchema,
  ClientIdSchema,
  IdSchema,
  TaskIdSchema,
  TimestampSchema,
  NonNegativeIntSchema,
  UrlSchema,
} from './ids.ts';
import { snapshotContentEntries } from './snapshot.ts';
import { TaskStatusSchema, TurnOutcomeSchema } from './task-status.ts';

// --- §2.1 tasks --------------------------------------------------------------------------

/** GET /api/task/id */
export const TaskIdResponseSchema = v.object({ taskId: TaskIdSchema });
export type TaskIdResponse = v.InferOutput<typeof TaskIdResponseSchema>;

export const TaskSummarySchema = v.object({
  taskId: TaskIdSchema,
  title: v.string(),
  status: TaskStatusSchema,
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /** The plugin instance bound to the task; absent or null until one is selected. */
  selectedClientId: v.optional(v.nullable(ClientIdSchema)),
  /** With status `error`: `error` (the turn failed: Retry) or `interrupted` (cut short by a restart: Resume). */
  outcome: v.optional(TurnOutcomeSchema),
});
export type TaskSummary = v.InferOutput<typeof TaskSummarySchema>;

/** GET /api/task/list */
export const TaskListResponseSchema = v.array(TaskSummarySchema);
export type TaskListResponse = v.InferOutput<typeof TaskListResponseSchema>;

export const TaskMessageRoleSchema = v.picklist(['system', 'user', 'assistant', 'tool']);
export type TaskMessageRole = v.InferOutput<typeof TaskMessageRoleSchema>;

export const TaskMessageSchema = v.object({
  id: IdSchema,
  role: TaskMessageRoleSchema,
  content: v.string(),
  timestamp: TimestampSchema,
  /** For role `tool`: the tool call this message answers. */
  toolCallId: v.optional(v.string()),
  /** Extra facts the server keeps with a message; for a `tool` step: actionId, actionName, paramsSummary, durationMs, ok. */
  meta: v.optional(v.record(v.string(), v.unknown())),
});
export type TaskMessage = v.InferOutput<typeof TaskMessageSchema>;

/** GET /api/task/:taskId */
export const TaskDetailSchema = v.object({
  task: TaskSummarySchema,
  messages: v.array(TaskMessageSchema),
});
export type TaskDetail = v.InferOutput<typeof TaskDetailSchema>;

// --- §2.2 snapshot -----------------------------------------------------------------------

/** GET /api/snapshot: the snapshot plus how fresh it is. */
export const SnapshotResponseSchema = v.object({
  ...snapshotContentEntries,
  lastUpdated: v.nullable(TimestampSchema),
  /** Whether a plugin is connected right now. */
  connected: v.boolean(),
  /** Milliseconds since lastUpdated (null when nothing was ever synced). */
  ageMs: v.nullable(NonNegativeIntSchema),
  /** Plugin offline or ageMs > 30 s. */
  stale: v.boolean(),
});
export type SnapshotResponse = v.InferOutput<typeof SnapshotResponseSchema>;

// --- §2.3 extensions ---------------------------------------------------------------------

/** POST /api/extension/extension-id */
export const ExtensionRegistrationSchema = v.object({
  extensionId: IdSchema,
  extensionName: v.optional(v.string()),
  clientId: ClientIdSchema,
  ua: v.optional(v.string()),
  version: v.string(),
  browserName: v.optional(v.string()),
  allowOtherClient: v.optional(v.boolean()),
  timestamp: v.optional(TimestampSchema),
});
export type ExtensionRegistration = v.InferOutput<typeof ExtensionRegistrationSchema>;

export const ExtensionRegisteredResponseSchema = v.object({ registered: v.literal(true) });
export type ExtensionRegisteredResponse = v.InferOutput<typeof ExtensionRegisteredResponseSchema>;

/** `unhealthy` after two exec timeouts in a row, until it reconnects (seed 001 §4.1). */
export const ExtensionHealthSchema = v.picklist(['healthy', 'unhealthy']);
export type ExtensionHealth = v.InferOutput<typeof ExtensionHealthSchema>;

export const ExtensionListItemSchema = v.object({
  clientId: ClientIdSchema,
  extensionId: v.optional(IdSchema),
  extensionName: v.optional(v.string()),
  ua: v.optional(v.string()),
  version: v.optional(v.string()),
  browserName: v.optional(v.string()),
  socketConnected: v.boolean(),
  lastSeenAt: TimestampSchema,
  /** Beyond the seed: scheduler health and the auto-selection tie-breaker. */
  health: ExtensionHealthSchema,
  lastUsedAt: v.optional(TimestampSchema),
});
export type ExtensionListItem = v.InferOutput<typeof ExtensionListItemSchema>;

/** GET /api/extension/extension-list */
export const ExtensionListResponseSchema = v.array(ExtensionListItemSchema);
export type ExtensionListResponse = v.InferOutput<typeof ExtensionListResponseSchema>;

// --- §2.4 artifacts ----------------------------------------------------------------------

export const artifactKinds = ['screenshot', 'html', 'readability', 'log', 'file'] as const;
export const ArtifactKindSchema = v.picklist(artifactKinds);
export type ArtifactKind = v.InferOutput<typeof ArtifactKindSchema>;

/** POST /api/artifacts/presign */
export const ArtifactPresignRequestSchema = v.object({
  taskId: TaskIdSchema,
  kind: ArtifactKindSchema,
  contentType: v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+-]+/, 'contentType must be a MIME type like image/png')),
});
export type ArtifactPresignRequest = v.InferOutput<typeof ArtifactPresignRequestSchema>;

export const ArtifactPresignResponseSchema = v.object({
  artifactId: ArtifactIdSchema,
  uploadUrl: UrlSchema,
  downloadUrl: UrlSchema,
  expiresAt: TimestampSchema,
});
export type ArtifactPresignResponse = v.InferOutput<typeof ArtifactPresignResponseSchema>;

/** Artifact limits (seed 001 §2.4). */
export const artifactLimits = {
  uploadUrlTtlMs: 15 * 60_000,
  downloadTtlMs: 24 * 60 * 60_000,
  maxUploadBytes: 25 * 1024 * 1024,
  uploadTimeoutMs: 60_000,
  cleanupIntervalMs: 6 * 60 * 60_000,
} as const;
