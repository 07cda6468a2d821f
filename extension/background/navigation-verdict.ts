// The navigation guard's questions and answers: the navigation_check message, the server's
// verdict read fail-closed (anything but an explicit `allowed: true` blocks), a small memory of
// recent decisions per tab, and the URL helpers they share.
import { PROTOCOL_VERSION, protocolError } from '../../transport/contracts/index.ts';
import type { NavigationCheck, NavigationVerdict, ProtocolError } from '../../transport/contracts/index.ts';
import { messageOf } from './action-failure.ts';

/** The server's DNS lookups are bounded at 5 s; a little more for the round trip. */
export const NAVIGATION_CHECK_TIMEOUT_MS = 8_000;
const REMEMBERED_PER_TAB = 32;

export type NavigationQuestion = Pick<NavigationCheck, 'taskId' | 'tabId' | 'url' | 'frame' | 'stage'>;
export type Decision = { allowed: true } | { allowed: false; error: ProtocolError };

/** navigation_check as sent on the wire. */
export function navigationCheckMessage(
  question: NavigationQuestion,
  clientId: string,
  id: string,
  now: number,
): NavigationCheck {
  return { v: PROTOCOL_VERSION, type: 'navigation_check', id, clientId, timestamp: now, ...question };
}

/** The server's verdict; no answer, an error or anything but an explicit "allowed" is a block. */
export async function askVerdict(
  ask: (question: NavigationQuestion) => Promise<unknown>,
  question: NavigationQuestion,
): Promise<Decision> {
  let answer: unknown;
  try {
    answer = await ask(question);
  } catch (error) {
    return {
      allowed: false,
      error: protocolError(
        'URL_BLOCKED',
        `the Mimo server could not check this navigation (${messageOf(error)}); it is blocked`,
        { retryable: false },
      ),
    };
  }
  // The ack is { ok: true, data: NavigationVerdict } or { ok: false, error }.
  const ack = (answer && typeof answer === 'object' ? answer : {}) as {
    ok?: unknown;
    data?: Partial<NavigationVerdict> & { error?: ProtocolError };
    error?: ProtocolError;
  };
  if (ack.ok === true && ack.data?.allowed === true) return { allowed: true };
  const error = ack.ok === true ? ack.data?.error : ack.error;
  return {
    allowed: false,
    error: error ?? protocolError('URL_BLOCKED', 'the Mimo server did not allow this navigation', { retryable: false }),
  };
}

/** The URL without its fragment (a same-document move needs no new decision). */
export const withoutFragment = (url: string): string => url.split('#', 1)[0]!;

export const httpUrl = (url: string | undefined): url is string => typeof url === 'string' && /^https?:\/\//i.test(url);

export function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Recent decisions per tab (URL without fragment -> allowed), newest kept. */
export function createDecisionMemory() {
  const byTab = new Map<number, Map<string, boolean>>();
  return {
    remember(tabId: number, url: string, allowed: boolean): void {
      let map = byTab.get(tabId);
      if (!map) byTab.set(tabId, (map = new Map()));
      const key = withoutFragment(url);
      map.delete(key);
      map.set(key, allowed);
      if (map.size > REMEMBERED_PER_TAB) map.delete(map.keys().next().value!);
    },
    lookup: (tabId: number, url: string): boolean | undefined => byTab.get(tabId)?.get(withoutFragment(url)),
    forget: (tabId: number): void => void byTab.delete(tabId),
  };
}
