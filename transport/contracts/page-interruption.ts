// `page_interruption` (plugin -> server): something a page in a task tab did that would have
// reached the person's screen, and what the plugin did instead: a JS dialog answered, a new tab
// kept in the background, a blocked pop-up, a permission prompt denied, a file chooser
// intercepted, a download, focus / print / fullscreen requests and links to other applications
// (mailto:, ...) ignored. The server relays it to
// the task's events; the agent also finds it in the next action result's warnings.
import * as v from 'valibot';
import { ClientIdSchema, IdSchema, TabIdSchema, TaskIdSchema, TimestampSchema } from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';

export const pageInterruptionKinds = [
  'dialog',
  'popup',
  'popup_blocked',
  'permission',
  'file_chooser',
  'download',
  'focus',
  'print',
  'fullscreen',
  'external_app',
] as const;
export const PageInterruptionKindSchema = v.picklist(pageInterruptionKinds);
export type PageInterruptionKind = v.InferOutput<typeof PageInterruptionKindSchema>;

export const PageInterruptionSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('page_interruption'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  /** The task tab the page runs in. */
  tabId: TabIdSchema,
  kind: PageInterruptionKindSchema,
  /** One human-readable line: what the page did and what the plugin answered. */
  message: v.pipe(v.string(), v.nonEmpty('message must not be empty'), v.maxLength(2_000)),
  /** dialog: its type, text and answer. */
  dialog: v.optional(
    v.object({
      dialogType: v.picklist(['alert', 'confirm', 'prompt', 'beforeunload']),
      text: v.pipe(v.string(), v.maxLength(2_000)),
      accepted: v.boolean(),
      promptText: v.optional(v.string()),
    }),
  ),
  /** popup / popup_blocked / download: the URL concerned. */
  url: v.optional(v.pipe(v.string(), v.maxLength(4_096))),
  /** popup: the background tab opened for it. */
  newTabId: v.optional(TabIdSchema),
  /** permission: which one was denied. */
  permission: v.optional(v.pipe(v.string(), v.maxLength(100))),
  traceId: v.optional(v.string()),
});
export type PageInterruption = v.InferOutput<typeof PageInterruptionSchema>;
