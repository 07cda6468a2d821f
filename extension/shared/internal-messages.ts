// Messages between the extension's own contexts, named by direction. The receiver checks the
// sender against its allowlist first, then validates with these schemas; nothing here crosses
// the network (wire shapes live in transport/contracts).
import * as v from 'valibot';
import {
  ConfirmationDecisionSchema,
  OverlayCommandNameSchema,
  PairingTokenSchema,
  PluginClientInfoSchema,
  PluginUiStateSchema,
  WaitingStepSchema,
} from '../../transport/contracts/index.ts';

/** What the background tells a content script about the task running in its tab. */
export const TabSessionSchema = v.object({
  taskId: v.string(),
  tabId: v.number(),
  /** Desired overlay state from the server (plugin_ui_state), if any. */
  uiState: v.optional(PluginUiStateSchema),
  message: v.optional(v.string()),
  /** The content script of this tab reported a takeover the server has not answered yet. */
  takeoverPending: v.boolean(),
  /** The action executing on this tab right now. */
  action: v.optional(
    v.object({ actionId: v.string(), label: v.string(), dispatchesInput: v.boolean(), capturesPage: v.boolean() }),
  ),
});
export type TabSession = v.InferOutput<typeof TabSessionSchema>;

// --- content script -> background (runtime.sendMessage) ----------------------------------

export const ContentToBackgroundMessageSchema = v.variant('kind', [
  /** Sent on load: answered with the tab's TabSession or null. */
  v.object({ kind: v.literal('content_hello') }),
  /** Real user input on the task tab while the AI was driving it. */
  v.object({ kind: v.literal('user_takeover'), taskId: v.string(), reason: v.pipe(v.string(), v.nonEmpty()) }),
  /** The user pressed Resume or Stop on the overlay. */
  v.object({ kind: v.literal('overlay_command'), taskId: v.string(), command: OverlayCommandNameSchema }),
  /** The person answered a held step on the overlay. */
  v.object({
    kind: v.literal('confirmation_answer'),
    taskId: v.string(),
    requestId: v.string(),
    decision: ConfirmationDecisionSchema,
  }),
  /** The page bridge asks on behalf of an allowlisted page: answered with PluginClientInfo. */
  v.object({ kind: v.literal('client_info') }),
  /** "Connect this browser" on an allowlisted web UI page: answered with a PairingOutcome. */
  v.object({ kind: v.literal('connect_browser'), token: PairingTokenSchema }),
]);
export type ContentToBackgroundMessage = v.InferOutput<typeof ContentToBackgroundMessageSchema>;

// --- options page -> background ----------------------------------------------------------

export const OptionsToBackgroundMessageSchema = v.variant('kind', [
  v.object({ kind: v.literal('get_status') }),
  /** The options page opened on `#pair=<id>` asks what it should put to the person: { id, origin } or null. */
  v.object({ kind: v.literal('pairing_question'), id: v.pipe(v.string(), v.maxLength(64)) }),
  /** The person's answer to "Connect this browser to <origin>?" (pairing-consent.ts). */
  v.object({ kind: v.literal('pairing_answer'), id: v.pipe(v.string(), v.maxLength(64)), allow: v.boolean() }),
]);
export type OptionsToBackgroundMessage = v.InferOutput<typeof OptionsToBackgroundMessageSchema>;

export type ConnectionStatus = {
  clientId: string | null;
  serverUrl: string;
  connected: boolean;
  lastError: string | null;
  /** What the last failure was: the server refused the token or this extension, or did not answer. */
  errorKind?: ConnectionErrorKind | null;
};

export type ConnectionErrorKind = 'unauthorized' | 'forbidden' | 'unreachable' | 'disconnected';

// --- background -> content script (tabs.sendMessage) -------------------------------------

export const BackgroundToContentMessageSchema = v.variant('kind', [
  v.object({ kind: v.literal('session'), session: v.nullable(TabSessionSchema) }),
  v.object({
    kind: v.literal('ui_state'),
    taskId: v.string(),
    state: PluginUiStateSchema,
    message: v.optional(v.string()),
  }),
  v.object({
    kind: v.literal('action_started'),
    taskId: v.string(),
    actionId: v.string(),
    label: v.string(),
    /** CDP input follows: arm the own-input guard. */
    dispatchesInput: v.boolean(),
    /** A screenshot follows: keep the overlay out of the picture. */
    capturesPage: v.boolean(),
  }),
  /** `sentAt`: the background's clock when sent (own-input-guard.ts: a late settle must not end a later action's guard). */
  v.object({
    kind: v.literal('action_settled'),
    taskId: v.string(),
    actionId: v.string(),
    sentAt: v.optional(v.number()),
  }),
  v.object({ kind: v.literal('task_ended'), taskId: v.string() }),
  /** The steps of the task waiting for the person's yes (empty: none). */
  v.object({ kind: v.literal('confirmation'), taskId: v.string(), waiting: v.array(WaitingStepSchema) }),
]);
export type BackgroundToContentMessage = v.InferOutput<typeof BackgroundToContentMessageSchema>;

export { PluginClientInfoSchema };

/** The takeover reason of the overlay's Take over button: the one deliberate way to take over. */
export const TAKE_OVER_BUTTON = 'take_over_button';
