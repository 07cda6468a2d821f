// The access token: taken from `?token=` once, kept in localStorage, removed from the address bar.
// A link's `?token=` never silently replaces a stored token that works. A cross-site
// link to `/?token=<garbage>` used to overwrite it (denial of service). Now an offered token that
// differs from the stored one is only held aside (`offered`); settleOfferedToken asks the server
// whether the stored one still works and adopts the offered one only when it does not and the
// offered one does.
export const TOKEN_STORAGE_KEY = 'mimo.token';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ResolvedToken {
  token: string | undefined;
  /** The address without `token` when it carried one (for history.replaceState), else null. */
  cleanedHref: string | null;
  /** A different token from `?token=` while one is stored: not used until settleOfferedToken decides. */
  offered?: string;
}

function readStored(storage: KeyValueStorage | undefined): string | null {
  try {
    return storage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function store(storage: KeyValueStorage | undefined, token: string): void {
  try {
    storage?.setItem(TOKEN_STORAGE_KEY, token);
  } catch {
    // Kept for this page only.
  }
}

/** Never throws: a storage that refuses (private mode, quota) only loses persistence. */
export function resolveToken(href: string, storage: KeyValueStorage | undefined): ResolvedToken {
  const url = new URL(href);
  const fromQuery = url.searchParams.get('token');
  const stored = readStored(storage);
  if (fromQuery !== null) {
    url.searchParams.delete('token');
    const token = fromQuery.trim();
    if (stored && token !== stored) return { token: stored, cleanedHref: url.href, offered: token };
    store(storage, token);
    return { token: token === '' ? undefined : token, cleanedHref: url.href };
  }
  return { token: stored ? stored : undefined, cleanedHref: null };
}

/** ok: the server took it; refused: 401; unknown: no answer or anything else. */
export type TokenCheck = (token: string) => Promise<'ok' | 'refused' | 'unknown'>;

export type OfferedTokenOutcome =
  { kept: true; reason: 'stored_works' | 'offered_refused' | 'unknown' } | { kept: false; token: string };

/** Decides between the stored token and one a link offered; stores the offered one only when it is adopted. */
export async function settleOfferedToken(
  stored: string,
  offered: string,
  check: TokenCheck,
  storage: KeyValueStorage | undefined,
): Promise<OfferedTokenOutcome> {
  const storedVerdict = await check(stored).catch(() => 'unknown' as const);
  if (storedVerdict === 'ok') return { kept: true, reason: 'stored_works' };
  if (storedVerdict === 'unknown') return { kept: true, reason: 'unknown' };
  const offeredVerdict = offered === '' ? 'refused' : await check(offered).catch(() => 'unknown' as const);
  if (offeredVerdict !== 'ok')
    return { kept: true, reason: offeredVerdict === 'refused' ? 'offered_refused' : 'unknown' };
  store(storage, offered);
  return { kept: false, token: offered };
}

/** A TokenCheck over fetch: an authenticated GET that every token-holder may make. */
export function fetchTokenCheck(fetchFn: typeof fetch, origin: string): TokenCheck {
  return async (token) => {
    const response = await fetchFn(`${origin}/api/extension/extension-list`, {
      headers: { Authorization: `Bearer ${token}` },
      cache: 'no-store',
    }).catch(() => null);
    if (!response) return 'unknown';
    if (response.status === 401) return 'refused';
    return response.ok ? 'ok' : 'unknown';
  };
}
