// `plugin_message`: plugin <-> server (seed 001 §3.5). Plugin -> server: activate_extension,
// full_state_sync, tab_event, browser_action_result, plus the product's takeover_report and
// overlay_command. Server -> plugin: browser_action (with a Socket.IO ack) and plugin_ui_state.
import { PluginConfirmationAnswerSchema } from './overlay-confirmation.ts';
import * as v from 'valibot';
import { ActionCallSchema } from './action-call.ts';
import { ProtocolErrorSchema } from './error-codes.ts';
import { BrowserActionResultMessageSchema, LegacyBrowserActionResultSchema } from './action-result.ts';
import type { LegacyBrowserActionResult } from './action-result.ts';
import {
  ClientIdSchema,
  IdSchema,
  NonNegativeIntSchema,
  TabIdSchema,
  TaskIdSchema,
  TimestampSchema,
  UrlSchema,
} from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';
import { PageInterruptionSchema } from './page-interruption.ts';
import { snapshotContentEntries } from './snapshot.ts';
import { TabEventSchema } from './tab-event.ts';
import { PluginUiStateSchema } from './task-status.ts';
import { variantMessage } from './variant-message.ts';

/** Socket.IO event name, and the legacy alias accepted from older plugins. */
export const PLUGIN_MESSAGE_EVENT = 'plugin_message';
export const LEGACY_PLUGIN_MESSAGE_EVENT = 'my_browser_extension_message';

/** Handshake after connecting (seed 001 §3.5 (1)). */
export const ActivateExtensionSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('activate_extension'),
  id: IdSchema,
  clientId: ClientIdSchema,
  extensionId: v.optional(IdSchema),
  extensionName: v.optional(v.string()),
  ua: v.optional(v.string()),
  version: v.optional(v.string()),
  browserName: v.optional(v.string()),
  allowOtherClient: v.optional(v.boolean()),
  skipAuthorization: v.optional(v.boolean()),
  timestamp: v.optional(TimestampSchema),
  traceId: v.optional(v.string()),
});
export type ActivateExtension = v.InferOutput<typeof ActivateExtensionSchema>;

/** Full snapshot from the plugin (seed 001 §3.5 (2)). */
export const FullStateSyncSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('full_state_sync'),
  id: v.optional(IdSchema),
  clientId: v.optional(ClientIdSchema),
  ...snapshotContentEntries,
  timestamp: TimestampSchema,
  traceId: v.optional(v.string()),
});
export type FullStateSync = v.InferOutput<typeof FullStateSyncSchema>;

/** The plugin saw the user act on the task tab: the task goes to `takeover` (seed 000 §2.1 rule 4). */
export const TakeoverReportSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('takeover_report'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  /** What was detected, e.g. `user_input`, `user_click`, `overlay_button`. */
  reason: v.pipe(v.string(), v.nonEmpty('reason must not be empty')),
  tabId: v.optional(TabIdSchema),
  traceId: v.optional(v.string()),
});
export type TakeoverReport = v.InferOutput<typeof TakeoverReportSchema>;

export const OverlayCommandNameSchema = v.picklist(['resume', 'stop']);
export type OverlayCommandName = v.InferOutput<typeof OverlayCommandNameSchema>;

/** The user pressed Resume or Stop on the plugin overlay (seed 000 §2.2 `takeover`). */
export const OverlayCommandSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('overlay_command'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  command: OverlayCommandNameSchema,
  traceId: v.optional(v.string()),
});
export type OverlayCommand = v.InferOutput<typeof OverlayCommandSchema>;

/**
 * The browser enforces the URL policy: before a document request of a task tab leaves
 * the browser (a navigation, a redirect hop, a popup's first load), the plugin asks the server,
 * which holds the policy (and resolves DNS). Sent with a Socket.IO ack whose `data` is a
 * NavigationVerdict; no answer in time = blocked (the plugin fails closed).
 */
export const NavigationCheckSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('navigation_check'),
  id: IdSchema,
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  tabId: TabIdSchema,
  url: v.pipe(v.string(), v.maxLength(16_384, 'url must be at most 16384 characters')),
  /** main: the tab's own document; sub: an iframe's. */
  frame: v.picklist(['main', 'sub']),
  /** request: about to be sent; redirect: a redirect hop; committed: already loaded (the check came late). */
  stage: v.picklist(['request', 'redirect', 'committed']),
  timestamp: TimestampSchema,
  traceId: v.optional(v.string()),
});
export type NavigationCheck = v.InferOutput<typeof NavigationCheckSchema>;

/**
 * The verdict of navigation_check, carried as the `data` of the ack (`{ ok: true, data }`, the one
 * SocketAck shape); `{ ok: false, error }` = the check itself was refused (malformed), which the
 * plugin treats as a block.
 */
export const NavigationVerdictSchema = v.variant('allowed', [
  v.object({ allowed: v.literal(true) }),
  v.object({ allowed: v.literal(false), error: ProtocolErrorSchema }),
]);
export type NavigationVerdict = v.InferOutput<typeof NavigationVerdictSchema>;

/** Canonical plugin -> server messages, variant on `type`. */
export const PluginToServerMessageSchema = v.variant(
  'type',
  [
    ActivateExtensionSchema,
    FullStateSyncSchema,
    TabEventSchema,
    BrowserActionResultMessageSchema,
    TakeoverReportSchema,
    OverlayCommandSchema,
    PageInterruptionSchema,
    NavigationCheckSchema,
    PluginConfirmationAnswerSchema,
  ],
  variantMessage,
);
export type PluginToServerMessage = v.InferOutput<typeof PluginToServerMessageSchema>;

/**
 * What the server accepts on `plugin_message`: a canonical message, or a legacy
 * browser_action_result (no `type`, has `actionId`; seed 001 §3.5).
 */
export const IncomingPluginMessageSchema = v.lazy((input) =>
  isLegacyResultShape(input) ? LegacyBrowserActionResultSchema : PluginToServerMessageSchema,
);

/** Narrow a received plugin message to the legacy result shape (the only one without `type`). */
export function isLegacyActionResult(message: IncomingPluginMessage): message is LegacyBrowserActionResult {
  return !('type' in message);
}

/** Legacy results are recognised by `actionId` and no `type`; anything else is judged as canonical. */
function isLegacyResultShape(input: unknown): boolean {
  return typeof input === 'object' && input !== null && !('type' in input) && 'actionId' in input;
}
export type IncomingPluginMessage = v.InferOutput<typeof IncomingPluginMessageSchema>;

/** Upper bound on a per-action `timeoutMs` override (10 minutes). */
export const MAX_ACTION_TIMEOUT_MS = 600_000;

/** Server -> plugin action; the plugin acks via the Socket.IO callback (BrowserActionAck). */
export const BrowserActionSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('browser_action'),
  /** The actionId: idempotency key, echoed as `actionId` in the result. */
  id: IdSchema,
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  action: ActionCallSchema,
  screenshotPresignedUrl: v.optional(UrlSchema),
  /** Overrides defaultExecTimeoutMs for this action. */
  timeoutMs: v.optional(v.pipe(NonNegativeIntSchema, v.minValue(1), v.maxValue(MAX_ACTION_TIMEOUT_MS))),
  traceId: v.optional(v.string()),
});
export type BrowserAction = v.InferOutput<typeof BrowserActionSchema>;

/** Desired overlay state for a task; the content script's pluginUiMachine follows it. */
export const PluginUiStateMessageSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('plugin_ui_state'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  state: PluginUiStateSchema,
  /** The task tab the overlay belongs on. */
  tabId: v.optional(TabIdSchema),
  /** Optional status line for the overlay. */
  message: v.optional(v.string()),
  traceId: v.optional(v.string()),
});
export type PluginUiStateMessage = v.InferOutput<typeof PluginUiStateMessageSchema>;

/** Server -> plugin messages, variant on `type`. */
export const ServerToPluginMessageSchema = v.variant(
  'type',
  [BrowserActionSchema, PluginUiStateMessageSchema],
  variantMessage,
);
export type ServerToPluginMessage = v.InferOutput<typeof ServerToPluginMessageSchema>;
