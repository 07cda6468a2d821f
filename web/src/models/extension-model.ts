// The browser extension instances (GET /api/extension/extension-list): which one serves the open
// task, a picker when several are connected, and the steps to follow when none is.
// Auto-selection mirrors the server's rule (explicit > single > most recently used).
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { ExtensionListItem } from '../../../transport/contracts/http.ts';
import type { AckError, AckResult } from '../io/ack.ts';
import type { ApiClient, ApiError } from '../io/api-client.ts';

export type ExtensionViewState = 'loading' | 'none' | 'one' | 'several';

export const CONNECT_EXTENSION_STEPS: readonly string[] = [
  'Open chrome://extensions in the browser you want the agent to use and switch on Developer mode.',
  'Choose "Load unpacked" and select the Mimo extension folder (the built extension/ of this repository).',
  'Click "Connect this browser" below (or paste the token the server printed on the extension\'s options page).',
  'Keep that browser open: the extension connects by itself and shows up here within a few seconds.',
];

export interface ExtensionModel {
  list: ReadonlySignal<readonly ExtensionListItem[]>;
  connected: ReadonlySignal<readonly ExtensionListItem[]>;
  loading: ReadonlySignal<boolean>;
  error: ReadonlySignal<ApiError | AckError | null>;
  /** The instance bound to the open task (explicit choice or the server's record). */
  boundClientId: ReadonlySignal<string | null>;
  /** Which instance serves the open task: the bound one if connected, else the server's auto choice. */
  serving: ReadonlySignal<ExtensionListItem | null>;
  viewState: ReadonlySignal<ExtensionViewState>;
  selecting: ReadonlySignal<string | null>;
  refresh(): Promise<void>;
  setBound(clientId: string | null | undefined): void;
  select(clientId: string): Promise<AckResult | null>;
}

export function createExtensionModel(deps: {
  api: Pick<ApiClient, 'listExtensions'>;
  /** Sends select_extension for the open task; null when no task is open. */
  sendSelect: (clientId: string) => Promise<AckResult> | null;
}): ExtensionModel {
  const list = signal<readonly ExtensionListItem[]>([]);
  const loaded = signal(false);
  const loading = signal(false);
  const error = signal<ApiError | AckError | null>(null);
  const boundClientId = signal<string | null>(null);
  const selecting = signal<string | null>(null);
  let latest = 0;

  const connected = computed(() => list.value.filter((e) => e.socketConnected));
  const serving = computed(() => {
    const live = connected.value;
    const bound = live.find((e) => e.clientId === boundClientId.value);
    if (bound) return bound;
    if (live.length === 1) return live[0]!;
    const healthy = live.filter((e) => e.health === 'healthy');
    const pool = healthy.length > 0 ? healthy : live;
    return (
      [...pool].sort((a, b) => (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0) || b.lastSeenAt - a.lastSeenAt)[0] ?? null
    );
  });

  return {
    list,
    connected,
    loading,
    error,
    boundClientId,
    serving,
    selecting,
    viewState: computed(() => {
      if (!loaded.value) return 'loading';
      const n = connected.value.length;
      return n === 0 ? 'none' : n === 1 ? 'one' : 'several';
    }),
    async refresh() {
      const request = ++latest;
      loading.value = true;
      const result = await deps.api.listExtensions();
      if (request !== latest) return;
      loading.value = false;
      if (!result.ok) {
        error.value = result.error;
        return;
      }
      error.value = null;
      list.value = result.data;
      loaded.value = true;
    },
    setBound(clientId) {
      boundClientId.value = clientId ?? null;
    },
    async select(clientId) {
      if (selecting.value !== null) return null;
      const sent = deps.sendSelect(clientId);
      if (!sent) return null;
      selecting.value = clientId;
      const result = await sent;
      selecting.value = null;
      if (result.ok) {
        boundClientId.value = clientId;
        error.value = null;
      } else {
        error.value = result.error;
      }
      return result;
    },
  };
}
