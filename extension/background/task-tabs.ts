// The task -> tab mapping of seed 000 §4.7: the task's current tab (task_start's tabId, or the
// tab browser_switch_tab rebound to), the task's own tabs (its tab plus tabs opened from them,
// seed 002), its tab group, and the tabs the user closed. Kept in storage.local so a restarted
// service worker still knows its task tabs.
import type { StorageArea } from '../shared/browser-api.ts';

export const TASK_TABS_KEY = 'mimo.taskTabs';
const MAX_CLOSED = 50;

export interface TaskTabRecord {
  taskId: string;
  /** The tab actions must target. */
  tabId: number;
  windowId: number;
  groupId?: number;
  /** Every live tab of the task (includes tabId). */
  tabs: number[];
  /** Task tabs the user closed (most recent last). */
  closedTabs: number[];
}

export interface TaskTabs {
  get(taskId: string): Promise<TaskTabRecord | undefined>;
  put(record: TaskTabRecord): Promise<void>;
  remove(taskId: string): Promise<void>;
  /** The task whose own tabs include this tab. */
  taskOfTab(tabId: number): Promise<TaskTabRecord | undefined>;
  /** A tab went away: it leaves its task's live tabs and joins closedTabs. */
  tabRemoved(tabId: number): Promise<TaskTabRecord | undefined>;
  /**
   * A new tab opened from a task tab (its opener is one of the task's tabs) or created inside the
   * task's tab group (Chrome puts tabs opened from a grouped tab into the group; the opener it
   * reports for a background tab's link can be the active tab instead) becomes one of the
   * task's tabs. Returns the task.
   */
  adoptOpenedTab(tab: { id: number; openerTabId?: number; groupId?: number }): Promise<TaskTabRecord | undefined>;
  all(): Promise<TaskTabRecord[]>;
}

export function createTaskTabs(storage: StorageArea): TaskTabs {
  let loaded: Promise<Map<string, TaskTabRecord>> | null = null;
  const load = (): Promise<Map<string, TaskTabRecord>> =>
    (loaded ??= storage.get(TASK_TABS_KEY).then(
      (stored) => {
        const raw = stored[TASK_TABS_KEY];
        const map = new Map<string, TaskTabRecord>();
        if (raw && typeof raw === 'object') {
          for (const [taskId, record] of Object.entries(raw as Record<string, TaskTabRecord>)) {
            if (record && typeof record.tabId === 'number' && Array.isArray(record.tabs)) map.set(taskId, record);
          }
        }
        return map;
      },
      () => new Map(),
    ));
  let writing = Promise.resolve();
  const persist = async (map: Map<string, TaskTabRecord>): Promise<void> => {
    const snapshot = Object.fromEntries(map);
    writing = writing.then(() => storage.set({ [TASK_TABS_KEY]: snapshot })).catch(() => {});
    await writing;
  };
  const find = (map: Map<string, TaskTabRecord>, tabId: number) =>
    [...map.values()].find((record) => record.tabs.includes(tabId));

  return {
    async get(taskId) {
      return (await load()).get(taskId);
    },
    async put(record) {
      const map = await load();
      map.set(record.taskId, { ...record, tabs: [...new Set([record.tabId, ...record.tabs])] });
      await persist(map);
    },
    async remove(taskId) {
      const map = await load();
      if (map.delete(taskId)) await persist(map);
    },
    async taskOfTab(tabId) {
      return find(await load(), tabId);
    },
    async tabRemoved(tabId) {
      const map = await load();
      const record = find(map, tabId);
      if (!record) return undefined;
      record.tabs = record.tabs.filter((id) => id !== tabId);
      record.closedTabs = [...record.closedTabs.filter((id) => id !== tabId), tabId].slice(-MAX_CLOSED);
      await persist(map);
      return record;
    },
    async adoptOpenedTab(tab) {
      const map = await load();
      const byOpener = tab.openerTabId === undefined ? undefined : find(map, tab.openerTabId);
      const inGroup =
        tab.groupId === undefined || tab.groupId < 0
          ? undefined
          : [...map.values()].find((r) => r.groupId === tab.groupId);
      const record = byOpener ?? inGroup;
      if (!record || record.tabs.includes(tab.id)) return undefined;
      record.tabs.push(tab.id);
      await persist(map);
      return record;
    },
    async all() {
      return [...(await load()).values()];
    },
  };
}
