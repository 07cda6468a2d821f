import { useEffect, useRef } from 'preact/hooks';
import type { AppState } from '../app-state.ts';
import { taskFilters } from '../models/task-state.ts';
import { formatAgo } from '../text/format.ts';
import { StatusBadge } from './status-badge.tsx';

export function TaskSidebar({ app }: { app: AppState }) {
  const { tasks } = app;
  const current = app.currentTaskId.value;
  const counts = tasks.counts.value;
  const visible = tasks.visible.value;
  const filtering = tasks.filter.value !== 'all' || tasks.query.value.trim() !== '';
  const hasMore = tasks.hasMore.value;
  const more = useRef<HTMLButtonElement>(null);
  // Scrolling the button into view (the end of the list) loads the next page.
  useEffect(() => {
    if (!more.current) return;
    const observer = new IntersectionObserver((entries) => entries.at(-1)?.isIntersecting && void tasks.loadMore());
    observer.observe(more.current);
    return () => observer.disconnect();
  }, [hasMore, tasks]);
  return (
    <nav class="sidebar" aria-label="Tasks">
      <button type="button" class="btn btn-primary new-task" onClick={() => void app.newTask()}>
        + New task
      </button>
      <div class="task-tools">
        <label for="task-search" class="visually-hidden">
          Search tasks
        </label>
        <input
          id="task-search"
          type="search"
          class="task-search"
          placeholder="Search tasks"
          value={tasks.query.value}
          onInput={(e) => tasks.setQuery(e.currentTarget.value)}
        />
        <div class="task-filters" role="group" aria-label="Show tasks">
          {taskFilters.map((f) => (
            <button
              key={f.id}
              type="button"
              class="chip"
              aria-pressed={tasks.filter.value === f.id}
              data-filter={f.id}
              onClick={() => tasks.setFilter(f.id)}
            >
              {f.label} <span class="chip-count">{counts[f.id]}</span>
            </button>
          ))}
        </div>
      </div>
      {tasks.error.value && <p class="error-text">Could not load tasks: {tasks.error.value.message}</p>}
      <ul class="task-list" data-testid="task-list">
        {visible.map((task) => (
          <li key={task.taskId}>
            <button
              type="button"
              class={`task-link state-row-${task.state}${task.taskId === current ? ' current' : ''}`}
              aria-current={task.taskId === current ? 'page' : undefined}
              data-testid="task-row"
              data-task-id={task.taskId}
              title={task.title}
              onClick={() => void app.openTask(task.taskId)}
            >
              <span class="task-title">{task.displayTitle}</span>
              <span class="task-meta">
                <StatusBadge
                  status={task.status}
                  outcome={
                    (task.taskId === current ? app.outcome.outcome.value?.outcome : undefined) ?? task.outcome ?? null
                  }
                />
                <time dateTime={new Date(task.updatedAt).toISOString()}>
                  {formatAgo(task.updatedAt, app.now.value)}
                </time>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {visible.length === 0 && !tasks.loading.value && (
        <p class="muted">
          {filtering ? `No ${hasMore ? 'loaded ' : ''}task matches.` : 'No tasks yet. Write a message to start one.'}
        </p>
      )}
      {hasMore && (
        <button
          type="button"
          ref={more}
          class="btn load-more"
          data-testid="load-more"
          onClick={() => void tasks.loadMore()}
        >
          Load more tasks
        </button>
      )}
    </nav>
  );
}
