// The plugin's clientId (seed 001 §0.2): created once (nanoid), kept in storage.local.
import type { StorageArea } from '../shared/browser-api.ts';

export const CLIENT_ID_KEY = 'mimo.clientId';

/** Reads the stored id or creates and stores one; concurrent callers get the same id. */
export interface ClientIdentity {
  get(): Promise<string>;
  current(): string | null;
}

export function createClientIdentity(storage: StorageArea, newId: () => string): ClientIdentity {
  let current: string | null = null;
  let pending: Promise<string> | null = null;
  return {
    current: () => current,
    get() {
      pending ??= (async () => {
        const stored = (await storage.get(CLIENT_ID_KEY))[CLIENT_ID_KEY];
        if (typeof stored === 'string' && stored !== '') return (current = stored);
        const id = newId();
        await storage.set({ [CLIENT_ID_KEY]: id });
        return (current = id);
      })().catch((error) => {
        pending = null;
        throw error;
      });
      return pending;
    },
  };
}
