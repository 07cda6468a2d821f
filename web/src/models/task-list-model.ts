// The sidebar's tasks (GET /api/task/list?limit=&cursor=, page by page), newest activity first,
// kept current by taskStatus events and by local entries for a task whose first message is on its
// way. Filter, search and counts work on the loaded tasks; `hasMore` says the server holds more.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { TaskStatus, TurnOutcome } from '../../../transport/contracts/task-status.ts';
import type { TaskSummary } from '../../../transport/contracts/http.ts';
import type { ApiClient, ApiError } from '../io/api-client.ts';
import { readableTitle } from '../text/task-title.ts';
import { matchesFilter, taskStateOf, type TaskFilter, type TaskState } from './task-state.ts';

/** A listed task as the sidebar shows it. */
export interface TaskRow extends TaskSummary {
  state: TaskState;
  displayTitle: string;
}

export interface TaskListModel {
  tasks: ReadonlySignal<readonly TaskSummary[]>;
  /** The tasks that pass the filter and the search, newest activity first. */
  visible: ReadonlySignal<readonly TaskRow[]>;
  /** How many tasks each filter holds (before the search). */
  counts: ReadonlySignal<Readonly<Record<TaskFilter, number>>>;
  filter: ReadonlySignal<TaskFilter>;
  query: ReadonlySignal<string>;
  setFilter(filter: TaskFilter): void;
  setQuery(query: string): void;
  loading: ReadonlySignal<boolean>;
  error: ReadonlySignal<ApiError | null>;
  /** Reads the first page again and merges it (pages loaded further down stay). */
  refresh(): Promise<void>;
  /** True while the server holds older tasks not loaded yet. */
  hasMore: ReadonlySignal<boolean>;
  /** Loads the next page; does nothing while one is on its way or when all are loaded. */
  loadMore(): Promise<void>;
  /** Adds or replaces one entry (e.g. a task created by this page before the server lists it). */
  upsert(summary: TaskSummary): void;
  /** `outcome` comes with `error` (failed or interrupted); any other status clears it. */
  applyStatus(taskId: string, status: TaskStatus, timestamp: number, outcome?: TurnOutcome): void;
  find(taskId: string): TaskSummary | undefined;
  /**
   * A `taskListChanged` event (any client's task): updates a known entry, adds a new one, or
   * refreshes the list when the event does not carry enough to show the task.
   */
  applyListChange(change: {
    taskId: string;
    status: TaskStatus;
    timestamp: number;
    outcome?: TurnOutcome;
    title?: string;
    createdAt?: number;
  }): void;
}

export const TASK_PAGE_SIZE = 50;

export function createTaskListModel(deps: { api: Pick<ApiClient, 'listTaskPage'>; pageSize?: number }): TaskListModel {
  const pageSize = deps.pageSize ?? TASK_PAGE_SIZE;
  const byId = signal<ReadonlyMap<string, TaskSummary>>(new Map());
  const loading = signal(false);
  const error = signal<ApiError | null>(null);
  /** Where the next page starts; null once the last page is loaded. */
  const cursor = signal<string | null>(null);
  let pagesLoaded = 0;
  let latestRequest = 0;
  let moreInFlight: Promise<void> | null = null;

  const filter = signal<TaskFilter>('all');
  const query = signal('');

  const tasks = computed(() =>
    [...byId.value.values()].sort((a, b) => b.updatedAt - a.updatedAt || (a.taskId < b.taskId ? 1 : -1)),
  );
  const rows = computed<TaskRow[]>(() =>
    tasks.value.map((t) => ({ ...t, state: taskStateOf(t.status, t.outcome), displayTitle: readableTitle(t.title) })),
  );
  const counts = computed(() => {
    const out: Record<TaskFilter, number> = { all: 0, running: 0, 'needs-you': 0, done: 0, failed: 0 };
    for (const row of rows.value)
      for (const f of Object.keys(out) as TaskFilter[]) if (matchesFilter(row.state, f)) out[f] += 1;
    return out;
  });
  const visible = computed(() => {
    const words = query.value.toLowerCase().split(/\s+/).filter(Boolean);
    return rows.value.filter((row) => {
      if (!matchesFilter(row.state, filter.value)) return false;
      if (words.length === 0) return true;
      const hay = `${row.displayTitle} ${row.title}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
  });

  /** Merges listed tasks, keeping local entries and statuses newer than the listing. */
  function merge(listed: readonly TaskSummary[]) {
    const next = new Map(byId.value);
    for (const task of listed) {
      const local = next.get(task.taskId);
      if (!local || local.updatedAt <= task.updatedAt) {
        next.set(task.taskId, task);
        continue;
      }
      const { outcome: _listed, ...listed } = task;
      next.set(task.taskId, {
        ...listed,
        status: local.status,
        updatedAt: local.updatedAt,
        ...(local.outcome ? { outcome: local.outcome } : {}),
      });
    }
    byId.value = next;
  }

  function put(summary: TaskSummary) {
    const next = new Map(byId.value);
    next.set(summary.taskId, summary);
    byId.value = next;
  }

  let refreshQueued = false;
  const self: TaskListModel = {
    tasks,
    visible,
    counts,
    filter,
    query,
    setFilter(next) {
      filter.value = next;
    },
    setQuery(next) {
      query.value = next;
    },
    loading,
    error,
    async refresh() {
      const request = ++latestRequest;
      loading.value = true;
      const result = await deps.api.listTaskPage(pageSize);
      if (request !== latestRequest) return; // a newer refresh owns the list
      loading.value = false;
      if (!result.ok) {
        error.value = result.error;
        return;
      }
      error.value = null;
      merge(result.data.tasks);
      // The keyset cursor of a deeper page stays valid: keep it once more pages are loaded.
      if (pagesLoaded <= 1) {
        cursor.value = result.data.nextCursor;
        pagesLoaded = 1;
      }
    },
    hasMore: computed(() => cursor.value !== null),
    loadMore() {
      const from = cursor.value;
      if (from === null || pagesLoaded === 0) return Promise.resolve();
      moreInFlight ??= (async () => {
        const result = await deps.api.listTaskPage(pageSize, from);
        if (!result.ok) {
          error.value = result.error;
          return;
        }
        error.value = null;
        merge(result.data.tasks);
        cursor.value = result.data.nextCursor;
        pagesLoaded += 1;
      })().finally(() => (moreInFlight = null));
      return moreInFlight;
    },
    upsert: put,
    applyStatus(taskId, status, timestamp, outcome) {
      const current = byId.value.get(taskId);
      if (!current || timestamp < current.updatedAt) return;
      const { outcome: _previous, ...rest } = current;
      put({ ...rest, status, updatedAt: timestamp, ...(status === 'error' && outcome ? { outcome } : {}) });
    },
    find: (taskId) => byId.value.get(taskId),
    applyListChange(change) {
      const current = byId.value.get(change.taskId);
      if (current) {
        self.applyStatus(change.taskId, change.status, change.timestamp, change.outcome);
        return;
      }
      if (change.title !== undefined && change.createdAt !== undefined) {
        put({
          taskId: change.taskId,
          title: change.title,
          status: change.status,
          createdAt: change.createdAt,
          updatedAt: change.timestamp,
          ...(change.status === 'error' && change.outcome ? { outcome: change.outcome } : {}),
        });
        return;
      }
      if (refreshQueued) return;
      refreshQueued = true;
      void self.refresh().finally(() => (refreshQueued = false));
    },
  };
  return self;
}
