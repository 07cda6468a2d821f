// The user's browser as the server last saw it: windows, tabs, groups (seed 001 §2.2, §3.6).
// snapshotSync pushes are applied by `seq` (older or equal ones ignored); after a reconnect the
// server may have restarted with a fresh seq, so `beginRefetch()` accepts the next seq whatever
// it is and the HTTP snapshot only wins if nothing newer arrived meanwhile. Staleness uses the
// server's ageMs plus local elapsed time, so a skewed browser clock cannot mark it stale.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { SnapshotSyncEvent } from '../../../transport/contracts/frontend-event.ts';
import type { SnapshotResponse } from '../../../transport/contracts/http.ts';
import {
  SNAPSHOT_STALE_AFTER_MS,
  type BrowserWindow,
  type SnapshotState,
  type Tab,
  type TabGroup,
} from '../../../transport/contracts/snapshot.ts';

export interface SnapshotView {
  state: SnapshotState | (Omit<SnapshotState, 'lastUpdated'> & { lastUpdated: number | null });
  /** A plugin was connected when this was received. */
  connected: boolean;
  seq: number | null;
  source: 'sync' | 'http';
}

export interface WindowView {
  window: BrowserWindow;
  active: boolean;
  groups: { group: TabGroup | null; tabs: Tab[] }[];
}

export interface SnapshotModel {
  view: ReadonlySignal<SnapshotView | null>;
  stale: ReadonlySignal<boolean>;
  windows: ReadonlySignal<WindowView[]>;
  /** The tab the open task drives, when known. */
  taskTabId: ReadonlySignal<number | null>;
  applySync(event: SnapshotSyncEvent): boolean;
  /** Call before refetching over HTTP (and after every reconnect); returns the fetch's ticket. */
  beginRefetch(): number;
  applyFetched(ticket: number, response: SnapshotResponse): boolean;
  setTaskTab(tabId: number | null): void;
}

export function createSnapshotModel(deps: { now: ReadonlySignal<number> }): SnapshotModel {
  const view = signal<SnapshotView | null>(null);
  const taskTabId = signal<number | null>(null);
  /** Local time the shown snapshot was received, and its age then. */
  const received = signal<{ at: number; ageMs: number | null }>({ at: 0, ageMs: null });
  let lastSeq = -1;
  let acceptAnySeq = true;
  let ticketCounter = 0;
  /** Ticket whose fetch may still apply; a sync after it was issued invalidates older data. */
  let syncsSinceTicket = new Map<number, number>();

  const stale = computed(() => {
    const v = view.value;
    if (!v) return true;
    if (!v.connected) return true;
    const { at, ageMs } = received.value;
    if (ageMs === null) return true;
    return ageMs + Math.max(0, deps.now.value - at) > SNAPSHOT_STALE_AFTER_MS;
  });

  const windows = computed<WindowView[]>(() => {
    const v = view.value;
    if (!v) return [];
    const { state } = v;
    const groupById = new Map(state.tabGroups.map((g) => [g.groupId, g]));
    const windowIds = new Set<number>([...state.windows.map((w) => w.windowId), ...state.tabs.map((t) => t.windowId)]);
    return [...windowIds].map((windowId) => {
      const window = state.windows.find((w) => w.windowId === windowId) ?? { windowId, focused: false };
      const tabs = state.tabs.filter((t) => t.windowId === windowId).sort((a, b) => a.index - b.index);
      // Consecutive tabs of one group form one block, as in the tab strip.
      const groups: WindowView['groups'] = [];
      for (const tab of tabs) {
        const group =
          tab.groupId !== undefined && tab.groupId >= 0
            ? (groupById.get(tab.groupId) ?? { groupId: tab.groupId, windowId })
            : null;
        const last = groups[groups.length - 1];
        if (last && (last.group?.groupId ?? -1) === (group?.groupId ?? -1)) last.tabs.push(tab);
        else groups.push({ group, tabs: [tab] });
      }
      return { window, active: state.activeWindowId === windowId, groups };
    });
  });

  return {
    view,
    stale,
    windows,
    taskTabId,
    applySync(event) {
      const current = view.value;
      if (!acceptAnySeq) {
        if (event.seq <= lastSeq) return false;
        const lastUpdated = current?.state.lastUpdated ?? null;
        if (lastUpdated !== null && event.state.lastUpdated < lastUpdated) return false;
      }
      acceptAnySeq = false;
      lastSeq = event.seq;
      for (const ticket of syncsSinceTicket.keys()) syncsSinceTicket.set(ticket, event.state.lastUpdated);
      view.value = { state: event.state, connected: true, seq: event.seq, source: 'sync' };
      received.value = { at: deps.now.value, ageMs: 0 };
      return true;
    },
    beginRefetch() {
      acceptAnySeq = true;
      const ticket = ++ticketCounter;
      syncsSinceTicket = new Map([[ticket, -1]]);
      return ticket;
    },
    applyFetched(ticket, response) {
      const syncedAt = syncsSinceTicket.get(ticket);
      if (syncedAt === undefined) return false; // a newer refetch started
      syncsSinceTicket.delete(ticket);
      const { connected, ageMs, stale: _stale, ...state } = response;
      if (syncedAt >= 0 && (state.lastUpdated === null || state.lastUpdated <= syncedAt)) {
        // A push after the request is at least as new; keep it, but learn the plugin's presence.
        const current = view.value;
        if (current) view.value = { ...current, connected };
        return false;
      }
      view.value = { state, connected, seq: null, source: 'http' };
      received.value = { at: deps.now.value, ageMs };
      return true;
    },
    setTaskTab(tabId) {
      taskTabId.value = tabId;
    },
  };
}

/** `tabId=12` in a tool step's params summary names the tab the task drives. */
export function tabIdFromParams(paramsSummary: string): number | null {
  const match = /\btabId[=:]\s*(\d+)/.exec(paramsSummary);
  return match ? Number(match[1]) : null;
}
