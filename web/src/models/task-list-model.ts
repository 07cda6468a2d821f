// The sidebar's tasks (GET /api/task/list), newest activity first, kept current by taskStatus
// events and by local entries for a task whose first message is on its way.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { TaskStatus } from '../../../transport/contracts/task-status.ts';
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
  refresh(): Promise<void>;
  /** Adds or replaces one entry (e.g. a task created by this page before the server lists it). */
  upsert(summary: TaskSummary): void;
  applyStatus(taskId: string, status: TaskStatus, timestamp: number): void;
  find(taskId: string): TaskSummary | undefined;
  /**
   * A `taskListChanged` event (any client's task): updates a known entry, adds a new one, or
   * refreshes the list when the event does not carry enough to show the task.
   */
  applyListChange(change: { taskId: string; status: TaskStatus; timestamp: number; title?: string; createdAt?: number }): void;
}

export function createTaskListModel(deps: { api: Pick<ApiClient, 'listTasks'> }): TaskListModel {
  const byId = signal<ReadonlyMap<string, TaskSummary>>(new Map());
  const loading = signal(false);
  const error = signal<ApiError | null>(null);
  let latestRequest = 0;

  const filter = signal<TaskFilter>('all');
  const query = signal('');

  const tasks = computed(() => [...byId.value.values()].sort((a, b) => b.updatedAt - a.updatedAt || (a.taskId < b.taskId ? 1 : -1)));
  const rows = computed<TaskRow[]>(() => tasks.value.map((t) => ({ ...t, state: taskStateOf(t.status), displayTitle: readableTitle(t.title) })));
  const counts = computed(() => {
    const out: Record<TaskFilter, number> = { all: 0, running: 0, 'needs-you': 0, done: 0, failed: 0 };
    for (const row of rows.value) for (const f of Object.keys(out) as TaskFilter[]) if (matchesFilter(row.state, f)) out[f] += 1;
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
      const result = await deps.api.listTasks();
      if (request !== latestRequest) return; // a newer refresh owns the list
      loading.value = false;
      if (!result.ok) {
        error.value = result.error;
        return;
      }
      error.value = null;
      const next = new Map<string, TaskSummary>();
      for (const task of result.data) next.set(task.taskId, task);
      // Keep local entries the server does not list yet, and statuses newer than the listing.
      for (const [taskId, local] of byId.value) {
        const listed = next.get(taskId);
        if (!listed) next.set(taskId, local);
        else if (local.updatedAt > listed.updatedAt) next.set(taskId, { ...listed, status: local.status, updatedAt: local.updatedAt });
      }
      byId.value = next;
    },
    upsert: put,
    applyStatus(taskId, status, timestamp) {
      const current = byId.value.get(taskId);
      if (!current || timestamp < current.updatedAt) return;
      put({ ...current, status, updatedAt: timestamp });
    },
    find: (taskId) => byId.value.get(taskId),
    applyListChange(change) {
      const current = byId.value.get(change.taskId);
      if (current) {
        self.applyStatus(change.taskId, change.status, change.timestamp);
        return;
      }
      if (change.title !== undefined && change.createdAt !== undefined) {
        put({ taskId: change.taskId, title: change.title, status: change.status, createdAt: change.createdAt, updatedAt: change.timestamp });
        return;
      }
      if (refreshQueued) return;
      refreshQueued = true;
      void self.refresh().finally(() => (refreshQueued = false));
    },
  };
  return self;
}
