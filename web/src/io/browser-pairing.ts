// "Connect this browser": hands this web UI's token to the Mimo extension through the
// page bridge (window.postMessage to the extension's content script in this same tab). The
// extension answers only pages whose origin it trusts as the web UI, takes the server URL from
// this page's origin, reconnects, and says how that went. First a short probe (the client-info
// request, answered at once) tells "no extension here" apart from a slow connection.
import * as v from 'valibot';
import {
  CONNECT_BROWSER_REQUEST_TYPE,
  ConnectBrowserResultSchema,
  PLUGIN_INFO_REQUEST_TYPE,
  PluginClientInfoResultSchema,
  type PairingOutcome,
} from '../../../transport/contracts/page-bridge.ts';

export const PROBE_TIMEOUT_MS = 1_500;
/**
 * The extension first asks the person "Connect this browser to <origin>?" in a tab of its own (up
 * to 120 s), then waits up to 8 s for its socket; a little more here.
 */
export const PAIRING_TIMEOUT_MS = 135_000;

export type BrowserPairingResult = PairingOutcome | { ok: false; status: 'no_extension'; message: string };

export interface PairingWindow {
  readonly location: { readonly origin: string };
  postMessage(message: unknown, targetOrigin: string): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface BrowserPairingDeps {
  window: PairingWindow;
  newId(): string;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

function ask<T>(
  deps: BrowserPairingDeps,
  request: { type: string; requestId: string } & Record<string, unknown>,
  schema: v.GenericSchema<unknown, T & { requestId: string }>,
  timeoutMs: number,
): Promise<T | null> {
  return new Promise((resolve) => {
    const done = (value: T | null) => {
      deps.clearTimeout(timer);
      deps.window.removeEventListener('message', listener);
      resolve(value);
    };
    const listener = (event: MessageEvent) => {
      if (event.source !== (deps.window as unknown) || event.origin !== deps.window.location.origin) return;
      const parsed = v.safeParse(schema, event.data);
      if (parsed.success && parsed.output.requestId === request.requestId) done(parsed.output);
    };
    const timer = deps.setTimeout(() => done(null), timeoutMs);
    deps.window.addEventListener('message', listener);
    // Only this page's own origin can read it: the content script runs in this same window.
    deps.window.postMessage(request, deps.window.location.origin);
  });
}

export async function connectThisBrowser(
  deps: BrowserPairingDeps,
  token: string | undefined,
): Promise<BrowserPairingResult> {
  const info = await ask(
    deps,
    { type: PLUGIN_INFO_REQUEST_TYPE, requestId: `probe-${deps.newId()}` },
    PluginClientInfoResultSchema,
    PROBE_TIMEOUT_MS,
  );
  if (!info) {
    return {
      ok: false,
      status: 'no_extension',
      message: `No Mimo extension answered in this browser. Install it (Load unpacked), or if it is installed, add ${deps.window.location.origin}/* to its web UI pages on its options page.`,
    };
  }
  const answer = await ask(
    deps,
    { type: CONNECT_BROWSER_REQUEST_TYPE, requestId: `pair-${deps.newId()}`, token: token ?? '' },
    ConnectBrowserResultSchema,
    PAIRING_TIMEOUT_MS,
  );
  return (
    answer?.payload ?? {
      ok: false,
      status: 'unreachable',
      message: 'The extension did not say whether it connected; check its options page.',
    }
  );
}
