// POST /api/extension/extension-id (seed 001 §2.3) on every (re)connect, with a capped retry of
// transient failures (network errors, 5xx, 408, 429). Returns an error value, never throws.
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../transport/contracts/index.ts';
import type { ExtensionRegistration, ProtocolError } from '../../transport/contracts/index.ts';
import { protocolError } from '../../transport/contracts/index.ts';
import { retryTransient } from '../shared/retry.ts';
import { messageOf } from './action-failure.ts';

export const REGISTRATION_RETRY_DELAYS_MS = [500, 2_000] as const;

class TransientStatus extends Error {}

export interface RegistrationDeps {
  fetch: typeof fetch;
  sleep(ms: number): Promise<void>;
}

export async function registerExtension(
  deps: RegistrationDeps,
  serverUrl: string,
  token: string,
  registration: ExtensionRegistration,
): Promise<{ ok: true } | { ok: false; error: ProtocolError }> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await retryTransient(
      async () => {
        const response = await deps.fetch(`${serverUrl}/api/extension/extension-id`, {
          method: 'POST',
          headers,
          body: JSON.stringify(registration),
        });
        if (response.status >= 500 || response.status === 408 || response.status === 429)
          throw new TransientStatus(`HTTP ${response.status}`);
        const body = (await response.json().catch(() => null)) as {
          ok?: boolean;
          error?: { code?: string; message?: string };
        } | null;
        if (response.ok && body?.ok === true) return { ok: true as const };
        const reason = body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`;
        return { ok: false as const, error: protocolError('PLUGIN_ERROR', `registration refused (${reason})`) };
      },
      {
        delaysMs: REGISTRATION_RETRY_DELAYS_MS,
        isTransient: (e) => e instanceof TransientStatus || e instanceof TypeError,
        sleep: deps.sleep,
      },
    );
  } catch (error) {
    return { ok: false, error: protocolError('PLUGIN_OFFLINE', `registration failed: ${messageOf(error)}`) };
  }
}
