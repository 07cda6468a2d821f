// The page bridge of seed 001 §2.3: a web UI page asks `mimo/get_plugin_client_info` (or the
// legacy `mimoim/get_bion_client_info`) with window.postMessage and gets the plugin's client
// info back. Only allowlisted origins get an answer, and the bridge can do nothing else: it
// never triggers an action.
// Pairing: `mimo/connect_browser` with the web UI's token; the background stores it
// with the page's own origin as the server URL and answers with the outcome. Same allowlist; the
// bridge never hands a token out.
import * as v from 'valibot';
import {
  CONNECT_BROWSER_RESULT_TYPE,
  ConnectBrowserRequestSchema,
  LEGACY_PLUGIN_INFO_REQUEST_TYPE,
  LEGACY_PLUGIN_INFO_RESULT_TYPE,
  PLUGIN_INFO_RESULT_TYPE,
  PluginClientInfoRequestSchema,
} from '../../transport/contracts/index.ts';
import type {
  ConnectBrowserResult,
  PairingOutcome,
  PluginClientInfo,
  PluginClientInfoResult,
} from '../../transport/contracts/index.ts';

export interface PageBridgeDeps {
  window: Window;
  /** Whether a page of this origin may ask (awaits the settings on first use). */
  isAllowedOrigin(origin: string): Promise<boolean>;
  clientInfo(): Promise<PluginClientInfo>;
  /** Pairing with the page's token (the background takes the server URL from the page). */
  connectBrowser?(token: string): Promise<PairingOutcome>;
}

export function installPageBridge(deps: PageBridgeDeps): () => void {
  const listener = (event: MessageEvent) => {
    if (event.source !== deps.window) return;
    const connect = v.safeParse(ConnectBrowserRequestSchema, event.data);
    if (connect.success && deps.connectBrowser) {
      const { requestId, token } = connect.output;
      const origin = event.origin;
      const connectBrowser = deps.connectBrowser;
      void (async () => {
        if (!(await deps.isAllowedOrigin(origin))) return;
        const payload = await connectBrowser(token).catch((error): PairingOutcome => ({
          ok: false,
          status: 'unreachable',
          message: `the extension could not connect: ${String(error)}`,
        }));
        const reply: ConnectBrowserResult = { type: CONNECT_BROWSER_RESULT_TYPE, requestId, payload };
        deps.window.postMessage(reply, origin);
      })();
      return;
    }
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
