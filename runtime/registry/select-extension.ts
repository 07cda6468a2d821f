// Auto-selection of a plugin instance for a task (seed 000 §1, §3.2): pure, over a view of
// the registry's records, so the order of the rules is testable on its own.
import type { Selection } from './registry-types.ts';

export interface Candidate {
  clientId: string;
  online: boolean;
  unhealthy: boolean;
  lastUsedAt: number | undefined;
  lastSeenAt: number;
}

export const PLUGIN_OFFLINE_MESSAGE =
  'No browser extension is connected. Install the Mimo extension (extension/dist, "Load unpacked") and make sure it points at this server.';

function offline(message: string, clientId?: string): Selection {
  const error = { code: 'PLUGIN_OFFLINE' as const, message, retryable: true as const };
  return { ok: false, error: clientId === undefined ? error : { ...error, details: { clientId } } };
}

/** Most recently used first; never-used ones after, by most recently seen; clientId breaks ties. */
function byRecency(a: Candidate, b: Candidate): number {
  const used = (b.lastUsedAt ?? -Infinity) - (a.lastUsedAt ?? -Infinity);
  if (used !== 0 && !Number.isNaN(used)) return used;
  if (b.lastSeenAt !== a.lastSeenAt) return b.lastSeenAt - a.lastSeenAt;
  return a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0;
}

/**
 * 1. explicit: the client the user picked, if it is online and healthy. An explicit choice that
 *    is offline or unhealthy is an error, not a silent switch to another browser.
 * 2. task: the client the task is already bound to, if online and healthy.
 * 3. single: the only online healthy client.
 * 4. recent: of several, the most recently used.
 * An unhealthy client (two exec timeouts in a row, seed 001 §4.1) gets no work until it
 * reconnects (reconnecting clears the flag).
 */
export function selectExtension(
  candidates: readonly Candidate[],
  boundClientId: string | undefined,
  explicitClientId: string | undefined,
): Selection {
  const byId = new Map(candidates.map((c) => [c.clientId, c]));
  if (explicitClientId !== undefined) {
    const chosen = byId.get(explicitClientId);
    if (chosen?.online && !chosen.unhealthy) return { ok: true, clientId: explicitClientId, reason: 'explicit' };
    if (chosen?.online) {
      return offline(
        `The selected browser extension (${explicitClientId}) stopped answering (two action timeouts in a row). Reconnect it (reload the extension) or select another extension.`,
        explicitClientId,
      );
    }
    return offline(
      `The selected browser extension (${explicitClientId}) is not connected. Open that browser, or pick another extension.`,
      explicitClientId,
    );
  }
  const online = candidates.filter((c) => c.online);
  const healthy = online.filter((c) => !c.unhealthy);
  const bound = boundClientId === undefined ? undefined : byId.get(boundClientId);
  if (bound?.online && !bound.unhealthy) return { ok: true, clientId: bound.clientId, reason: 'task' };
  const pool = healthy;
  if (pool.length === 0) {
    return online.length > 0
      ? offline(
          'The connected browser extension stopped answering (two action timeouts in a row). Reconnect it (reload the extension) or connect another one.',
        )
      : offline(PLUGIN_OFFLINE_MESSAGE);
  }
  if (pool.length === 1) return { ok: true, clientId: pool[0]!.clientId, reason: 'single' };
  const [first] = [...pool].sort(byRecency);
  return { ok: true, clientId: first!.clientId, reason: 'recent' };
}
