// Pairing ("Connect this browser" in the web UI): a web UI page hands the server's
// token to the extension through the page bridge. The server URL is the sending page's own
// origin, never a value from the message: a web UI page can only pair the extension with the
// server that served it. The page must match the web UI patterns (checked by the content script
// on event.origin and here again on the sender's URL). The settings are written (the background
// reconnects on the change), then the outcome is read from the socket: connected, wrong token,
// refused (Origin), or unreachable. When the socket only says "failed", one HTTP probe tells a
// wrong token (401) from a refused extension (403) from no server at all.
// Pairing with a server other than the one this browser already holds a token for
// (and the first pairing) waits for the person's yes in the extension (pairing-consent.ts);
// without it nothing is changed and the page hears `declined`. Refreshing the token of the
// server already configured, from that server's own web UI, needs no question.
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../transport/contracts/index.ts';
import type { PairingOutcome } from '../../transport/contracts/index.ts';
import type { ConnectionStatus } from '../shared/internal-messages.ts';
import type { Settings } from '../shared/settings.ts';
import type { StorageArea } from '../shared/browser-api.ts';
import { writeSettings } from '../shared/settings.ts';

/** How long the socket gets to connect with the new settings before the outcome is judged. */
export const PAIRING_SETTLE_MS = 8_000;
const POLL_MS = 100;

export interface PairingDeps {
  storage: StorageArea;
  settings(): Settings;
  status(): ConnectionStatus;
  /** Asks the person "Connect this browser to <serverUrl>?" in the extension; true only on their yes. */
  confirm(serverUrl: string): Promise<boolean>;
  /** Uses the settings just written and reconnects with them. */
  apply(settings: Settings): Promise<void>;
  fetch: typeof fetch;
  sleep(ms: number): Promise<void>;
  now(): number;
  settleMs?: number;
}

/** Origin of an http(s) page URL, or null. */
export function pageOrigin(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

async function probe(deps: PairingDeps, serverUrl: string, token: string): Promise<PairingOutcome['status']> {
  const headers: Record<string, string> = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await deps.fetch(`${serverUrl}/api/extension/extension-list`, { headers });
    if (response.status === 401) return 'wrong_token';
    if (response.status === 403 || response.status === 421) return 'forbidden';
    return 'unreachable';
  } catch {
    return 'unreachable';
  }
}

function outcome(status: PairingOutcome['status'], serverUrl: string, clientId?: string | null): PairingOutcome {
  const messages: Record<PairingOutcome['status'], string> = {
    connected: `This browser is connected to the Mimo server at ${serverUrl}.`,
    wrong_token: `The Mimo server at ${serverUrl} refused the token. Reload the web UI with the one-click URL the server printed, then try again.`,
    forbidden: `The Mimo server at ${serverUrl} refused this extension (its id is not allowed: see MIMO_EXTENSION_IDS).`,
    unreachable: `No Mimo server answered at ${serverUrl}. Is it running?`,
    invalid: 'The pairing request was not valid; nothing was changed.',
    declined: `This browser was not connected to ${serverUrl}: the person did not confirm it in the Mimo extension. Nothing was changed.`,
  };
  const result: PairingOutcome = { ok: status === 'connected', status, message: messages[status], serverUrl };
  if (clientId) result.clientId = clientId;
  return result;
}

export async function pairBrowser(
  deps: PairingDeps,
  request: { token: string; pageUrl: string | undefined },
): Promise<PairingOutcome> {
  const serverUrl = pageOrigin(request.pageUrl);
  if (!serverUrl)
    return {
      ...outcome('invalid', ''),
      message: 'Only an http(s) web UI page can connect this browser; nothing was changed.',
    };
  const current = deps.settings();
  const known = current.serverUrl === serverUrl && current.token !== '';
  if (!known && !(await deps.confirm(serverUrl).catch(() => false))) return outcome('declined', serverUrl);
  const written = await writeSettings(deps.storage, { ...current, serverUrl, token: request.token });
  if (!written.ok)
    return { ...outcome('invalid', serverUrl), message: `${written.error.message}; nothing was changed.` };
  await deps.apply(written.settings);

  const deadline = deps.now() + (deps.settleMs ?? PAIRING_SETTLE_MS);
  for (;;) {
    const status = deps.status();
    if (status.serverUrl === serverUrl) {
      if (status.connected) return outcome('connected', serverUrl, status.clientId);
      if (status.errorKind === 'unauthorized') return outcome('wrong_token', serverUrl);
      if (status.errorKind === 'forbidden') return outcome('forbidden', serverUrl);
      if (status.errorKind === 'unreachable' || status.errorKind === 'disconnected')
        return outcome(await probe(deps, serverUrl, request.token), serverUrl);
    }
    if (deps.now() >= deadline) return outcome(await probe(deps, serverUrl, request.token), serverUrl);
    await deps.sleep(POLL_MS);
  }
}
