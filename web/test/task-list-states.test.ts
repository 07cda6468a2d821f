// Task states at a glance: the state derived from the server status, readable titles, the
// sidebar's filter and search, live list changes from other clients, and steps canceled by a stop.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAppState } from '../src/app-state.ts';
import { createTaskListModel } from '../src/models/task-list-model.ts';
import { matchesFilter, taskStateLabel, taskStateOf } from '../src/models/task-state.ts';
import { readableTitle } from '../src/text/task-title.ts';
import { envelope, FakeApi, FakeLink, flush, payload, summary, TASK_A, TASK_B } from './util.ts';

const TASK_C = '01HR0000000000000000000003';

const states = suite('task state: one label per meaning');

states('every server status maps to a distinct state a person understands', () => {
  assert.is(taskStateOf(null), 'new');
  assert.is(taskStateOf('created'), 'running', 'a listed task already has a message on its way');
  assert.is(taskStateOf('running'), 'running');
  assert.is(taskStateOf('takeover'), 'needs-you');
  assert.is(taskStateOf('ongoing'), 'done', 'a finished turn is done, not "waiting for you"');
  assert.is(taskStateOf('completed'), 'stopped', 'completed is reached only through STOP');
  assert.is(taskStateOf('error'), 'failed');
  const labels = Object.values(taskStateLabel);
  assert.is(new Set(labels).size, labels.length, 'labels are distinct');
  assert.ok(matchesFilter('stopped', 'done'));
  assert.not.ok(matchesFilter('failed', 'done'));
  assert.ok(matchesFilter('failed', 'all'));
});

states.run();

const titles = suite('task title: readable fallback');

titles('a URL becomes its host and "open" words are dropped', () => {
  assert.is(
    readableTitle('Open https://www.example.com/docs?x=1 and summarise the page'),
    'example.com - summarise the page',
  );
  assert.is(
    readableTitle('Open http://127.0.0.1:7612/form.html, then fill in the form.'),
    '127.0.0.1 - fill in the form',
  );
  assert.is(readableTitle('go to sqlite.org and find the SELECT syntax'), 'sqlite.org - find the SELECT syntax');
  assert.is(readableTitle('Open https://example.com'), 'example.com');
});

titles('text without a URL stays as written, clipped; empty reads "Untitled task"', () => {
  assert.is(readableTitle('Summarise my open tabs'), 'Summarise my open tabs');
  assert.is(readableTitle(''), 'Untitled task');
  const long = readableTitle('word '.repeat(40));
  assert.ok(long.length <= 60 && long.endsWith('…'));
});

titles.run();

const list = suite('task list: filter, search, live changes');

function listWith(tasks: ReturnType<typeof summary>[]) {
  const api = new FakeApi();
  api.tasks = { ok: true, data: tasks };
  return { api, model: createTaskListModel({ api }) };
}

list('filters by state and searches the readable and the raw title', async () => {
  const { model } = listWith([
    summary(TASK_A, { title: 'Open https://sqlite.org/lang_select.html and explain', status: 'running', updatedAt: 3 }),
    summary(TASK_B, { title: 'Fill the MDN form', status: 'error', updatedAt: 2 }),
    summary(TASK_C, { title: 'Open https://example.com', status: 'completed', updatedAt: 1 }),
  ]);
  await model.refresh();
  assert.equal(model.counts.value, { all: 3, running: 1, 'needs-you': 0, done: 1, failed: 1 });
  model.setFilter('failed');
  assert.equal(
    model.visible.value.map((t) => t.taskId),
    [TASK_B],
  );
  model.setFilter('all');
  model.setQuery('SQLITE explain');
  assert.equal(
    model.visible.value.map((t) => t.displayTitle),
    ['sqlite.org - explain'],
  );
  model.setQuery('lang_select');
  assert.equal(
    model.visible.value.map((t) => t.taskId),
    [TASK_A],
    'the raw title (full URL) is searched too',
  );
});

list('a task created by another client appears, and its status follows', async () => {
  const { api, model } = listWith([]);
  await model.refresh();
  model.applyListChange({
    taskId: TASK_A,
    status: 'created',
    timestamp: 10,
    title: 'Open https://example.com',
    createdAt: 10,
  });
  assert.equal(
    model.visible.value.map((t) => [t.displayTitle, t.state]),
    [['example.com', 'running']],
  );
  model.applyListChange({ taskId: TASK_A, status: 'ongoing', timestamp: 20 });
  assert.is(model.find(TASK_A)?.status, 'ongoing');
  model.applyListChange({ taskId: TASK_A, status: 'running', timestamp: 15 });
  assert.is(model.find(TASK_A)?.status, 'ongoing', 'an older change does not win');
  const before = api.calls.length;
  api.tasks = { ok: true, data: [summary(TASK_B, { title: 'Elsewhere', status: 'takeover', updatedAt: 30 })] };
  model.applyListChange({ taskId: TASK_B, status: 'takeover', timestamp: 30 });
  await flush();
  assert.is(api.calls.length, before + 1, 'an unknown task without a title refreshes the list once');
  assert.is(model.find(TASK_B)?.status, 'takeover');
});

list(
  'an interrupted task is Interrupted in the list (not Failed), live and listed; a new status clears it',
  async () => {
    const { model } = listWith([
      summary(TASK_A, { status: 'error', outcome: 'interrupted', updatedAt: 3 }),
      summary(TASK_B, { status: 'error', outcome: 'error', updatedAt: 2 }),
      summary(TASK_C, { status: 'error', updatedAt: 1 }),
    ]);
    await model.refresh();
    assert.equal(
      model.visible.value.map((t) => [t.taskId, t.state]),
      [
        [TASK_A, 'interrupted'],
        [TASK_B, 'failed'],
        [TASK_C, 'failed'],
      ],
    );
    assert.is(model.counts.value.failed, 3, 'the Failed filter holds interrupted tasks too');
    model.applyListChange({ taskId: TASK_A, status: 'running', timestamp: 10 });
    assert.is(model.visible.value.find((t) => t.taskId === TASK_A)?.state, 'running');
    assert.is(model.find(TASK_A)?.outcome, undefined, 'Resume clears the outcome');
    model.applyListChange({ taskId: TASK_A, status: 'error', outcome: 'interrupted', timestamp: 20 });
    assert.is(
      model.visible.value.find((t) => t.taskId === TASK_A)?.state,
      'interrupted',
      'an interrupted status told live shows so',
    );
    model.applyListChange({ taskId: TASK_B, status: 'ongoing', timestamp: 20 });
    model.applyListChange({ taskId: TASK_B, status: 'error', timestamp: 30 });
    assert.is(model.visible.value.find((t) => t.taskId === TASK_B)?.state, 'failed');
  },
);

list.run();

const app = suite('app: live list and canceled steps');

function setup() {
  const api = new FakeApi();
  const link = new FakeLink();
  let ids = 0;
  const state = createAppState({ api, link, clock: { now: () => 10_000 }, newId: () => `id${++ids}` });
  return { api, link, app: state };
}

app('taskListChanged from the frontend room updates the sidebar without a reload', async () => {
  const { link, app: state } = setup();
  await state.start();
  link.setStatus({ type: 'connected' });
  link.emit(
    envelope(
      payload('taskListChanged', {
        taskId: TASK_B,
        status: 'created',
        title: 'Open https://example.com and summarise',
        createdAt: 20_000,
        timestamp: 20_000,
      }),
      TASK_B,
    ),
  );
  assert.equal(
    state.tasks.visible.value.map((t) => t.displayTitle),
    ['example.com - summarise'],
  );
});

app('a fresh task is not read from the server (no 404), and a stop cancels the step in flight', async () => {
  const { api, link, app: state } = setup();
  api.nextTaskIds = [TASK_A];
  await state.start();
  link.setStatus({ type: 'connected' });
  await state.newTask();
  assert.not.ok(api.calls.includes(`getTask ${TASK_A}`));
  link.emit(
    envelope(
      payload('toolUsed', {
        toolCallId: 'c1',
        actionId: 'act-1',
        actionName: 'browser_click',
        phase: 'start',
        paramsSummary: 'tabId=1 clickId=2',
        timestamp: 11_000,
      }),
      TASK_A,
    ),
  );
  link.emit(envelope(payload('taskStatus', { status: 'completed', previous: 'running', timestamp: 12_000 }), TASK_A));
  const step = state.chat.items.value.find((i) => i.kind === 'tool');
  assert.is(step?.kind === 'tool' && step.canceled, true);
  assert.is(state.status.canStop.value, false);
  assert.is(state.status.canTakeover.value, false);
});

app('a message typed while "New task" is on its way goes to the new task, not the open one', async () => {
  const { api, link, app: state } = setup();
  api.nextTaskIds = [TASK_A, TASK_B];
  await state.start();
  link.setStatus({ type: 'connected' });
  await state.send('first task');
  assert.is(state.currentTaskId.value, TASK_A);
  void state.newTask(); // the click; its id is not back yet
  await state.send('second task');
  const sent = link.sent
    .filter((m) => m.type === 'user_message')
    .map((m) => [m.taskId, (m as { content: string }).content]);
  assert.equal(sent, [
    [TASK_A, 'first task'],
    [TASK_B, 'second task'],
  ]);
});

app.run();
