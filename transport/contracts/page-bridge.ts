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
