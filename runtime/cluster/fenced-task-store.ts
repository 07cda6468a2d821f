// The task store of a cluster node, made to ride out the database and to respect fencing:
// - every call is retried with backoff while the database is away (db-retry.ts), so a restart of
//   up to ~30 s stalls a turn instead of failing it;
// - a write for a task this node holds waits while the node is fenced or leaving (task-fence.ts),
//   and is refused (CLUSTER_TASK_LOST) once another node runs the task: a turn that goes on here
//   after a takeover cannot store a second answer;
// - a task that ends hands its lock back (the lock table is finite); the next message claims it.
// `settled()` resolves when no write is under way (the graceful leave waits for it).
import type { TaskStore } from '../store/task-types.ts';
import { withDbRetry } from './db-retry.ts';
import type { TaskFence } from './task-fence.ts';

export function createFencedTaskStore(
  base: TaskStore,
  deps: { fence: TaskFence; onEnded: (taskId: string) => void },
): TaskStore & { settled(): Promise<void> } {
  const { fence } = deps;
  let active = 0;
  let idle: Array<() => void> = [];
  const retry = <T>(job: () => Promise<T>) => withDbRetry(job);
  async function write<T>(taskId: string, job: () => Promise<T>): Promise<T> {
    const gate = () => fence.gate(taskId);
    await gate();
    active++;
    try {
      // Once under way a write finishes even if the node starts leaving; never for a lost task.
      return await withDbRetry(job, { gate: () => fence.gate(taskId, 'open') });
    } finally {
      if (--active === 0) idle.splice(0).forEach((r) => r());
    }
  }
  return {
    ...base,
    init: () => retry(() => base.init()),
    createTaskIfAbsent: (input) => write(input.taskId, () => base.createTaskIfAbsent(input)),
    getTask: (taskId) => retry(() => base.getTask(taskId)),
    listTasks: () => retry(() => base.listTasks()),
    listTaskPage: (query) => retry(() => base.listTaskPage(query)),
    listMessages: (taskId) => retry(() => base.listMessages(taskId)),
    appendMessage: (taskId, message) => write(taskId, () => base.appendMessage(taskId, message)),
    async updateTask(taskId, patch) {
      const task = await write(taskId, () => base.updateTask(taskId, patch));
      if (task.status === 'completed' || task.status === 'error') deps.onEnded(taskId);
      return task;
    },
    settled: () => (active === 0 ? Promise.resolve() : new Promise<void>((r) => idle.push(r))),
  };
}
