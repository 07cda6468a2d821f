// The sidebar's tasks (GET /api/task/list), newest activity first, kept current by taskStatus
// events and by local entries for a task whose first message is on its way.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { TaskStatus } from '../../../transport/contracts/task-status.ts';
import type { TaskSummary } from '../../../transport/contracts/http.ts';
import type { ApiClient, ApiError } from '../io/api-client.ts';

export interface TaskListModel {
  tasks: ReadonlySignal<readonly TaskSummary[]>;
  loading: ReadonlySignal<boolean>;
  error: ReadonlySignal<ApiError | null>;
  refresh(): Promise<void>;
  /** Adds or replaces one entry (e.g. a task created by this page before the server lists it). */
  upsert(summary: TaskSummary): void;
  applyStatus(taskId: string, status: TaskStatus, timestamp: number): void;
  find(taskId: string): TaskSummary | undefined;
}

export function createTaskListModel(deps: { api: Pick<ApiClient, 'listTasks'> }): TaskListModel {
  const byId = signal<ReadonlyMap<string, TaskSummary>>(new Map());
  const loading = signal(false);
  const error = signal<ApiError | null>(null);
  let latestRequest = 0;

  const tasks = computed(() => [...byId.value.values()].sort((a, b) => b.updatedAt - a.updatedAt || (a.taskId < b.taskId ? 1 : -1)));

  function put(summary: TaskSummary) {
    const next = new Map(byId.value);
    next.set(summary.taskId, summary);
    byId.value = next;
  }

  return {
    tasks,
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
  };
}
