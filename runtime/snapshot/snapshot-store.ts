// SnapshotStore (seed 000 §1): the authoritative per-plugin snapshot of windows, tabs and tab
// groups, built from full_state_sync and tab_event (seed 001 §3.5), numbered with a
// process-wide `seq` and served with its freshness (seed 001 §2.2).
import * as v from 'valibot';
import {
  SNAPSHOT_STALE_AFTER_MS,
  snapshotContentEntries,
  TabEventSchema,
  TimestampSchema,
  validate,
} from '../../transport/contracts/index.ts';
import type { SnapshotState } from '../../transport/contracts/index.ts';
import { applyTabEventToDraft } from './apply-tab-event.ts';
import { draftOf, reconcileActive, stateOf } from './snapshot-draft.ts';
import type { SnapshotDraft } from './snapshot-draft.ts';
import type {
  ApplyResult,
  CurrentSnapshot,
  SnapshotCause,
  SnapshotStore,
  SnapshotStoreOptions,
} from './snapshot-types.ts';

/** The content of a full_state_sync; `v`, `type` and other envelope fields are allowed and ignored. */
const FullSyncContentSchema = v.object({ ...snapshotContentEntries, timestamp: v.optional(TimestampSchema) });

interface Entry {
  state: SnapshotState;
  seq: number;
}

const EMPTY_STATE = { windows: [], tabs: [], tabGroups: [], activeWindowId: null, activeTabId: null } as const;

function badClientId(): ApplyResult {
  const message = 'clientId must be a non-empty string';
  return {
    ok: false,
    error: { code: 'SCHEMA_VALIDATION_FAILED', message, fieldErrors: [{ field: 'clientId', message }] },
  };
}

export function createSnapshotStore(options: SnapshotStoreOptions): SnapshotStore {
  const { clock, onChange, debugLog } = options;
  const entries = new Map<string, Entry>();
  let seq = 0;
  let latest: string | undefined;

  function commit(
    clientId: string,
    draft: SnapshotDraft,
    cause: SnapshotCause,
    warning: string | undefined,
  ): ApplyResult {
    reconcileActive(draft);
    const state = stateOf(draft, clock.now());
    seq += 1;
    entries.set(clientId, { state, seq });
    latest = clientId;
    if (debugLog !== undefined) {
      const summary = `windows=${state.windows.length} tabs=${state.tabs.length} groups=${state.tabGroups.length} activeWindowId=${state.activeWindowId} activeTabId=${state.activeTabId}`;
      debugLog(
        `[snapshot] seq=${seq} client=${clientId} ${cause} ${summary}${warning === undefined ? '' : ` warning="${warning}"`}`,
      );
    }
    onChange?.({ clientId, seq, state, cause });
    return warning === undefined ? { ok: true, seq, state } : { ok: true, seq, state, warning };
  }

  return {
    applyFullSync(clientId, message) {
      if (typeof clientId !== 'string' || clientId === '') return badClientId();
      const checked = validate(FullSyncContentSchema, message, 'SCHEMA_VALIDATION_FAILED');
      if (!checked.ok) return checked;
      return commit(clientId, draftOf(checked.value), 'full_state_sync', undefined);
    },

    applyTabEvent(clientId, message) {
      if (typeof clientId !== 'string' || clientId === '') return badClientId();
      const checked = validate(TabEventSchema, message, 'SCHEMA_VALIDATION_FAILED');
      if (!checked.ok) return checked;
      const draft = draftOf(entries.get(clientId)?.state ?? EMPTY_STATE);
      const warning = applyTabEventToDraft(draft, checked.value);
      return commit(clientId, draft, checked.value.eventType, warning);
    },

    current(clientId, { connected } = { connected: false }): CurrentSnapshot {
      const id = clientId === undefined || clientId === null || clientId === '' ? latest : clientId;
      const entry = id === undefined ? undefined : entries.get(id);
      if (entry === undefined) {
        return {
          ...EMPTY_STATE,
          windows: [],
          tabs: [],
          tabGroups: [],
          lastUpdated: null,
          connected,
          ageMs: null,
          stale: true,
          clientId: id ?? null,
          seq: null,
        };
      }
      const ageMs = Math.max(0, clock.now() - entry.state.lastUpdated);
      return {
        ...entry.state,
        connected,
        ageMs,
        stale: !connected || ageMs > SNAPSHOT_STALE_AFTER_MS,
        clientId: id!,
        seq: entry.seq,
      };
    },

    latestClientId: () => latest,

    state: (clientId) => entries.get(clientId)?.state,

    forget(clientId) {
      entries.delete(clientId);
      if (latest === clientId) {
        let best: [string, Entry] | undefined;
        for (const pair of entries) if (best === undefined || pair[1].seq > best[1].seq) best = pair;
        latest = best?.[0];
      }
    },
  };
}
