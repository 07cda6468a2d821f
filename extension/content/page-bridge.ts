// The page bridge of seed 001 §2.3: a web UI page asks `mimo/get_plugin_client_info` (or the
// legacy `mimoim/get_bion_client_info`) with window.postMessage and gets the plugin's client
// info back. Only allowlisted origins get an answer, and the bridge can do nothing else: it
// never triggers an action.
import * as v from 'valibot';
import {
  LEGACY_PLUGIN_INFO_REQUEST_TYPE,
  LEGACY_PLUGIN_INFO_RESULT_TYPE,
  PLUGIN_INFO_RESULT_TYPE,
  PluginClientInfoRequestSchema,
} from '../../transport/contracts/index.ts';
import type { PluginClientInfo, PluginClientInfoResult } from '../../transport/contracts/index.ts';

export interface PageBridgeDeps {
  window: Window;
  /** Whether a page of this origin may ask (awaits the settings on first use). */
  isAllowedOrigin(origin: string): Promise<boolean>;
  clientInfo(): Promise<PluginClientInfo>;
}

export function installPageBridge(deps: PageBridgeDeps): () => void {
  const listener = (event: MessageEvent) => {
    if (event.source !== deps.window) return;
    const request = v.safeParse(PluginClientInfoRequestSchema, event.data);
    if (!request.success) return;
    const { type, requestId } = request.output;
    const origin = event.origin;
    void (async () => {
      if (!(await deps.isAllowedOrigin(origin))) return;
      const payload = await deps.clientInfo().catch((): PluginClientInfo => ({ ok: false }));
      const reply: PluginClientInfoResult = {
        type: type === LEGACY_PLUGIN_INFO_REQUEST_TYPE ? LEGACY_PLUGIN_INFO_RESULT_TYPE : PLUGIN_INFO_RESULT_TYPE,
        requestId,
        payload,
      };
      deps.window.postMessage(reply, origin);
    })();
  };
  deps.window.addEventListener('message', listener);
  return () => deps.window.removeEventListener('message', listener);
}
