// The optional web page <-> content-script probe (seed 001 §2.3, window.postMessage).
// Diagnosis and auto-selection only: it must never trigger browser actions.
import * as v from 'valibot';
import { ClientIdSchema, IdSchema } from './ids.ts';

export const PLUGIN_INFO_REQUEST_TYPE = 'mimo/get_plugin_client_info';
export const PLUGIN_INFO_RESULT_TYPE = 'mimo/get_plugin_client_info_result';
/** Legacy names a content script may also accept / answer (seed 001 §2.3). */
export const LEGACY_PLUGIN_INFO_REQUEST_TYPE = 'mimoim/get_bion_client_info';
export const LEGACY_PLUGIN_INFO_RESULT_TYPE = 'mimoim/get_bion_client_info_result';

export const PluginClientInfoRequestSchema = v.object({
  type: v.picklist([PLUGIN_INFO_REQUEST_TYPE, LEGACY_PLUGIN_INFO_REQUEST_TYPE]),
  requestId: IdSchema,
});
export type PluginClientInfoRequest = v.InferOutput<typeof PluginClientInfoRequestSchema>;

export const PluginClientInfoSchema = v.object({
  ok: v.boolean(),
  extensionId: v.optional(IdSchema),
  extensionName: v.optional(v.string()),
  version: v.optional(v.string()),
  clientId: v.optional(ClientIdSchema),
  socketConnected: v.optional(v.boolean()),
});
export type PluginClientInfo = v.InferOutput<typeof PluginClientInfoSchema>;

export const PluginClientInfoResultSchema = v.object({
  type: v.picklist([PLUGIN_INFO_RESULT_TYPE, LEGACY_PLUGIN_INFO_RESULT_TYPE]),
  requestId: IdSchema,
  payload: PluginClientInfoSchema,
});
export type PluginClientInfoResult = v.InferOutput<typeof PluginClientInfoResultSchema>;

// --- Pairing: "Connect this browser" in the web UI -----------------------------
// The web UI hands its token to the extension; the extension takes the server URL from the
// page's own origin (never from the message), stores both and reconnects. Only web UI origins
// get an answer; the bridge never hands a token out.

export const CONNECT_BROWSER_REQUEST_TYPE = 'mimo/connect_browser';
export const CONNECT_BROWSER_RESULT_TYPE = 'mimo/connect_browser_result';
export const MAX_PAIRING_TOKEN_LENGTH = 512;

export const PairingTokenSchema = v.pipe(
  v.string(),
  v.maxLength(MAX_PAIRING_TOKEN_LENGTH, `the token must be at most ${MAX_PAIRING_TOKEN_LENGTH} characters`),
  v.regex(/^[\x21-\x7e]*$/, 'the token must be printable ASCII without spaces'),
);

export const ConnectBrowserRequestSchema = v.object({
  type: v.literal(CONNECT_BROWSER_REQUEST_TYPE),
  requestId: IdSchema,
  /** The web UI's token; '' when the server runs without one (MIMO_TOKEN=off). */
  token: PairingTokenSchema,
});
export type ConnectBrowserRequest = v.InferOutput<typeof ConnectBrowserRequestSchema>;

/**
 * connected: the extension's socket is up with the new token; wrong_token: the server refused the
 * token; forbidden: the server refused this extension (its Origin); unreachable: no server
 * answered at serverUrl; invalid: the request itself was bad (nothing was changed); declined: the
 * person said no (or did not answer) when the extension asked "Connect this browser to <origin>?"
 * (pairing with a new server needs the person's yes in the extension; nothing changed).
 */
export const PairingStatusSchema = v.picklist([
  'connected',
  'wrong_token',
  'forbidden',
  'unreachable',
  'invalid',
  'declined',
]);
export type PairingStatus = v.InferOutput<typeof PairingStatusSchema>;

export const PairingOutcomeSchema = v.object({
  ok: v.boolean(),
  status: PairingStatusSchema,
  message: v.string(),
  serverUrl: v.optional(v.string()),
  clientId: v.optional(ClientIdSchema),
});
export type PairingOutcome = v.InferOutput<typeof PairingOutcomeSchema>;

export const ConnectBrowserResultSchema = v.object({
  type: v.literal(CONNECT_BROWSER_RESULT_TYPE),
  requestId: IdSchema,
  payload: PairingOutcomeSchema,
});
export type ConnectBrowserResult = v.InferOutput<typeof ConnectBrowserResultSchema>;
