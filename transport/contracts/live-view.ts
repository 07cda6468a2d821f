// Live view: the task tab streamed to the web UI while the task runs (CDP Page.startScreencast in
// the extension). Additive to seed 001:
//   server -> plugin  plugin_message `live_view` {on}: start or stop streaming the task tab;
//   plugin -> server  Socket.IO event `live_frame` (with an ack): one JPEG frame;
//   server -> web     Socket.IO event `live_frame` (with an ack), only to the sockets watching
//                     that task (frontend_message subscribe_live / unsubscribe_live).
// Frames are not frontend_event envelopes: they are never recorded or stored, and the ack on
// each hop lets a sender drop frames instead of queuing them behind a slow peer.
import * as v from 'valibot';
import { ClientIdSchema, IdSchema, NonNegativeIntSchema, TabIdSchema, TaskIdSchema, TimestampSchema } from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';

export const LIVE_FRAME_EVENT = 'live_frame';
/** The most frames per second a plugin sends. */
export const LIVE_VIEW_MAX_FPS = 5;
/** Base64 characters in one frame at most (~450 KB of JPEG). */
export const LIVE_FRAME_MAX_CHARS = 600_000;

export const LiveViewCommandSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('live_view'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  /** The task tab to stream (required to start). */
  tabId: v.optional(TabIdSchema),
  on: v.boolean(),
  maxFps: v.optional(v.pipe(v.number(), v.minValue(0.1), v.maxValue(LIVE_VIEW_MAX_FPS))),
});
export type LiveViewCommand = v.InferOutput<typeof LiveViewCommandSchema>;

export const LiveFrameSchema = v.object({
  taskId: TaskIdSchema,
  tabId: TabIdSchema,
  /** Counts frames sent for this stream, so a viewer can tell how many were dropped. */
  seq: NonNegativeIntSchema,
  timestamp: TimestampSchema,
  width: NonNegativeIntSchema,
  height: NonNegativeIntSchema,
  mime: v.literal('image/jpeg'),
  /** Base64 JPEG. */
  data: v.pipe(v.string(), v.nonEmpty(), v.maxLength(LIVE_FRAME_MAX_CHARS, 'frame too large')),
});
export type LiveFrame = v.InferOutput<typeof LiveFrameSchema>;
