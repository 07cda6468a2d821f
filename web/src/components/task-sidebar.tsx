import type { AppState } from '../app-state.ts';
import { formatAgo } from '../text/format.ts';
import { StatusBadge } from './status-badge.tsx';

export function TaskSidebar({ app }: { app: AppState }) {
  const { tasks } = app;
  const current = app.currentTaskId.value;
  return (
    <nav class="sidebar" aria-label="Tasks">
      <button type="button" class="btn btn-primary new-task" onClick={() => void app.newTask()}>
        + New task
      </button>
      {tasks.error.value && <p class="error-text">Could not load tasks: {tasks.error.value.message}</p>}
      <ul class="task-list">
        {tasks.tasks.value.map((task) => (
          <li key={task.taskId}>
            <button
              type="button"
              class={`task-link${task.taskId === current ? ' current' : ''}`}
              aria-current={task.taskId === current ? 'page' : undefined}
              onClick={() => void app.openTask(task.taskId)}
            >
              <span class="task-title">{task.title || 'Untitled task'}</span>
              <span class="task-meta">
                <StatusBadge status={task.status} />
                <time dateTime={new Date(task.updatedAt).toISOString()}>{formatAgo(task.updatedAt, app.now.value)}</time>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {tasks.tasks.value.length === 0 && !tasks.loading.value && <p class="muted">No tasks yet. Write a message to start one.</p>}
    </nav>
  );
}
