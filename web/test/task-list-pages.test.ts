// The sidebar's task list page by page: the first page at start, the next on demand with the
// server's cursor, live changes and filters on what is loaded. The fake API pages its tasks with
// an index cursor, as the server's `GET /api/task/list?limit=&cursor=` answers `{ tasks, nextCursor }`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTaskListModel } from '../src/models/task-list-model.ts';
import { FakeApi, summary } from './util.ts';

const pages = suite('task list: pages');

/** Tasks t00..t(n-1), newest first (t00 has the latest activity). */
function taskIds(n: number) {
  return Array.from({ length: n }, (_, i) => `01HR00000000000000000000${String(i).padStart(2, '0')}`);
}
function listOf(n: number, pageSize: number) {
  const api = new FakeApi();
  const ids = taskIds(n);
  api.tasks = {
    ok: true,
    data: ids.map((id, i) =>
      summary(id, { title: `task ${i}`, status: i % 2 ? 'error' : 'ongoing', updatedAt: 1_000 - i }),
    ),
  };
  return { api, ids, model: createTaskListModel({ api, pageSize }) };
}

pages('start loads the first page only; loadMore follows the cursor until the last page', async () => {
  const { api, ids, model } = listOf(7, 3);
  await model.refresh();
  assert.equal(
    model.tasks.value.map((t) => t.taskId),
    ids.slice(0, 3),
  );
  assert.is(model.hasMore.value, true);
  await model.loadMore();
  assert.equal(
    model.tasks.value.map((t) => t.taskId),
    ids.slice(0, 6),
  );
  await model.loadMore();
  assert.equal(
    model.tasks.value.map((t) => t.taskId),
    ids,
  );
  assert.is(model.hasMore.value, false);
  await model.loadMore();
  assert.equal(api.calls, ['listTaskPage 3', 'listTaskPage 3 3', 'listTaskPage 3 6'], 'no request after the last page');
});

pages('loadMore before the first page, or twice at once, sends one request', async () => {
  const { api, model } = listOf(7, 3);
  await model.loadMore();
  assert.equal(api.calls, [], 'nothing to continue from yet');
  await model.refresh();
  await Promise.all([model.loadMore(), model.loadMore()]);
  assert.equal(api.calls, ['listTaskPage 3', 'listTaskPage 3 3']);
  assert.is(model.tasks.value.length, 6);
});

pages('refresh reads the first page again and keeps deeper pages and their cursor', async () => {
  const { api, ids, model } = listOf(7, 3);
  await model.refresh();
  await model.loadMore();
  api.tasks = api.tasks.ok
    ? { ok: true, data: api.tasks.data.map((t, i) => (i === 0 ? { ...t, status: 'running' as const } : t)) }
    : api.tasks;
  await model.refresh();
  assert.is(model.find(ids[0]!)?.status, 'running');
  assert.is(model.tasks.value.length, 6, 'the second page stays loaded');
  await model.loadMore();
  assert.equal(api.calls.at(-1), 'listTaskPage 3 6', 'continues after the second page, not the first');
  assert.is(model.hasMore.value, false);
});

pages('a failed page is an error value; the same page is asked again on retry', async () => {
  const { api, model } = listOf(5, 3);
  await model.refresh();
  const all = api.tasks;
  api.tasks = { ok: false, error: { code: 'UNAVAILABLE', message: 'the server is not reachable' } };
  await model.loadMore();
  assert.is(model.error.value?.code, 'UNAVAILABLE');
  assert.is(model.hasMore.value, true);
  assert.is(model.tasks.value.length, 3);
  api.tasks = all;
  await model.loadMore();
  assert.is(model.error.value, null);
  assert.is(model.tasks.value.length, 5);
  assert.equal(api.calls, ['listTaskPage 3', 'listTaskPage 3 3', 'listTaskPage 3 3']);
});

pages('filters, search and live changes work on the loaded tasks', async () => {
  const { model } = listOf(7, 3);
  await model.refresh();
  assert.equal(model.counts.value.failed, 1, 'task 1 of the 3 loaded');
  model.setFilter('failed');
  await model.loadMore();
  assert.equal(
    model.visible.value.map((t) => t.title),
    ['task 1', 'task 3', 'task 5'],
  );
  model.setFilter('all');
  model.setQuery('task 6');
  assert.equal(model.visible.value.length, 0, 'task 6 is not loaded yet');
  const newcomer = '01HR0000000000000000000099';
  model.applyListChange({
    taskId: newcomer,
    status: 'created',
    timestamp: 5_000,
    title: 'task 6 again',
    createdAt: 5_000,
  });
  assert.equal(
    model.visible.value.map((t) => t.taskId),
    [newcomer],
    'a live change inserts a task beyond the loaded pages',
  );
  await model.loadMore();
  assert.equal(
    model.visible.value.map((t) => t.title),
    ['task 6 again', 'task 6'],
  );
});

pages.run();
