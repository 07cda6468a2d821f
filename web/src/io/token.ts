// The access token: taken from `?token=` once, kept in localStorage, removed from the address bar.
export const TOKEN_STORAGE_KEY = 'mimo.token';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ResolvedToken {
  token: string | undefined;
  /** The address without `token` when it carried one (for history.replaceState), else null. */
  cleanedHref: string | null;
}

/** Never throws: a storage that refuses (private mode, quota) only loses persistence. */
export function resolveToken(href: string, storage: KeyValueStorage | undefined): ResolvedToken {
  const url = new URL(href);
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null) {
    url.searchParams.delete('token');
    const token = fromQuery.trim();
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, token);
    } catch {
      // Kept for this page only.
    }
    return { token: token === '' ? undefined : token, cleanedHref: url.href };
  }
  let stored: string | null = null;
  try {
    stored = storage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    stored = null;
  }
  return { token: stored ? stored : undefined, cleanedHref: null };
}
