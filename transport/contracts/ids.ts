// Identifier and scalar schemas shared by every wire message (seed 001 §0.1, §0.2).
import * as v from 'valibot';

/** ULID: 26 Crockford base32 chars (no I, L, O, U); first char 0-7 so it fits 128 bits. Case-insensitive. */
const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;
/** UUID of any version (including nil), case-insensitive, canonical 8-4-4-4-12 form. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUlid(input: string): boolean {
  return ULID_PATTERN.test(input);
}

export function isUuid(input: string): boolean {
  return UUID_PATTERN.test(input);
}

/** taskId: a ULID or a UUID, nothing else (seed 001 §2.1: otherwise BAD_REQUEST). */
export const TaskIdSchema = v.pipe(
  v.string(),
  v.check(
    (input) => isUlid(input) || isUuid(input),
    (issue) => `taskId must be a ULID (26 Crockford base32 chars) or a UUID, got ${JSON.stringify(issue.input)}`,
  ),
);
export type TaskId = v.InferOutput<typeof TaskIdSchema>;

/** Non-empty string identifier (message ids, actionId, clientId, artifactId, ...). */
export const IdSchema = v.pipe(v.string(), v.nonEmpty('must be a non-empty string'));
export type Id = v.InferOutput<typeof IdSchema>;

/** clientId: the plugin instance id, persisted by the plugin. */
export const ClientIdSchema = IdSchema;
export type ClientId = v.InferOutput<typeof ClientIdSchema>;

/** actionId: the browser_action request id, also its idempotency key. */
export const ActionIdSchema = IdSchema;
export type ActionId = v.InferOutput<typeof ActionIdSchema>;

export const ArtifactIdSchema = IdSchema;
export type ArtifactId = v.InferOutput<typeof ArtifactIdSchema>;

/** Milliseconds since the Unix epoch (`Date.now()`). */
export const TimestampSchema = v.pipe(v.number(), v.integer(), v.minValue(0));
export type Timestamp = v.InferOutput<typeof TimestampSchema>;

/** Chrome tab id (non-negative integer). */
export const TabIdSchema = v.pipe(v.number(), v.integer(), v.minValue(0));
export type TabId = v.InferOutput<typeof TabIdSchema>;

/** Chrome window id; -1 (WINDOW_ID_NONE) appears in window_focus_changed when no window has focus. */
export const WindowIdSchema = v.pipe(v.number(), v.integer(), v.minValue(-1));
export type WindowId = v.InferOutput<typeof WindowIdSchema>;

/** Chrome tab group id; -1 (TAB_GROUP_ID_NONE) means "not in a group". */
export const GroupIdSchema = v.pipe(v.number(), v.integer(), v.minValue(-1));
export type GroupId = v.InferOutput<typeof GroupIdSchema>;

/** Non-negative integer duration or count. */
export const NonNegativeIntSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Absolute URL (anything `new URL()` accepts). Scheme policy is the runtime's URL policy, not this schema. */
export const UrlSchema = v.pipe(v.string(), v.url('must be an absolute URL'));
