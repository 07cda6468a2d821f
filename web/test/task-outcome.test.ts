// Honest outcomes in the web (issue 22): a failed turn is "Failed" with its cause and Retry; a
// turn cut by a server restart is "Interrupted" with Resume (from the stored outcome note after a
// reload); Retry/Resume send resume_task; any later status clears the outcome.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAppState } from '../src/app-state.ts';
import { matchesFilter, taskStateLabel, taskStateOf } from '../src/models/task-state.ts';
import { createTurnOutcomeModel } from '../src/models/turn-outcome-model.ts';
import { envelope, FakeApi, FakeLink, flush, payload, summary, TASK_A } from './util.ts';

const model = suite('turn outcome model');

const userMsg = (id: string) => ({ id, role: 'user' as const, content: 'open it', timestamp: 1 });
const note = (outcome: 'error' | 'interrupted', code: string, message: string) => ({
  id: `n-${code}`,
  role: 'system' as const,
  content: message,
  timestamp: 2,
  meta: { outcome, error: { code, message, retryable: true } },
});

model('a failed turn: the error notice before the error status is its cause; running clears it', () => {
  const m = createTurnOutcomeModel();
  m.noteError({
    code: 'NAVIGATION_FAILED',
    message: 'http://127.0.0.1:9/ could not be loaded: net::ERR_CONNECTION_REFUSED',
  });
  assert.is(m.outcome.value, null, 'a notice alone is not an outcome');
  m.onStatus('error');
  assert.equal([m.outcome.value?.outcome, m.outcome.value?.error.code], ['error', 'NAVIGATION_FAILED']);
  m.onStatus('running');
  assert.is(m.outcome.value, null);
});

model('from history: the note of the last turn; an interrupted turn reads as interrupted', () => {
  const m = createTurnOutcomeModel();
  m.fromHistory(
    [
      userMsg('u1'),
      note('error', 'PLUGIN_OFFLINE', 'old'),
      userMsg('u2'),
      note('interrupted', 'TASK_INTERRUPTED', 'The server restarted while this task was running'),
    ],
    'error',
  );
  assert.equal([m.outcome.value?.outcome, m.outcome.value?.error.code], ['interrupted', 'TASK_INTERRUPTED']);
  m.fromHistory([userMsg('u1'), note('error', 'PLUGIN_OFFLINE', 'old'), userMsg('u2')], 'error');
  assert.is(m.outcome.value?.outcome, 'error', 'a failed task without a note of its own still reads as failed');
  assert.is.not(m.outcome.value?.error.code, 'PLUGIN_OFFLINE', 'never the cause of an earlier turn');
  m.fromHistory([userMsg('u1'), note('error', 'PLUGIN_OFFLINE', 'old')], 'ongoing');
  assert.is(m.outcome.value, null, 'a task that is not in error has no failure outcome');
});

model('task state: Interrupted is its own state, listed under Failed', () => {
  assert.is(taskStateOf('error', 'interrupted'), 'interrupted');
  assert.is(taskStateOf('error', 'error'), 'failed');
  assert.is(taskStateOf('ongoing', 'interrupted'), 'done');
  assert.is(taskStateLabel.interrupted, 'Interrupted');
  assert.ok(matchesFilter('interrupted', 'failed'));
  assert.not.ok(matchesFilter('interrupted', 'done'));
});

model.run();

const app = suite('app: Failed with the cause and Retry, Interrupted with Resume');

function setup() {
  const api = new FakeApi();
  const link = new FakeLink();
  let ids = 0;
  return { api, link, app: createAppState({ api, link, clock: { now: () => 10_000 }, newId: () => `id${++ids}` }) };
}

app('live: a failed turn shows Failed with its cause; Retry sends resume_task', async () => {
  const { api, link, app } = setup();
  api.details.set(TASK_A, {
    ok: true,
    data: { task: summary(TASK_A, { status: 'running' }), messages: [userMsg('u1')] },
  });
  await app.start(TASK_A);
  link.setStatus({ type: 'connected' });
  link.emit(
    envelope(
      payload('structuredOutput', {
        status: 'error',
        error: {
          code: 'NAVIGATION_FAILED',
          message: 'nosuchhost.invalid could not be loaded: net::ERR_NAME_NOT_RESOLVED',
          retryable: false,
        },
      }),
      TASK_A,
    ),
  );
  link.emit(envelope(payload('taskStatus', { status: 'error', previous: 'running', timestamp: 2_000 }), TASK_A));
  assert.equal(
    [app.outcome.outcome.value?.outcome, app.outcome.outcome.value?.error.code],
    ['error', 'NAVIGATION_FAILED'],
  );
  assert.is(taskStateOf(app.status.status.value, app.outcome.outcome.value?.outcome), 'failed');
  assert.ok(app.status.canRetry.value);
  await app.status.retry();
  assert.is(link.types().at(-1), 'resume_task');
  link.emit(envelope(payload('taskStatus', { status: 'running', previous: 'error', timestamp: 3_000 }), TASK_A));
  assert.is(app.outcome.outcome.value, null);
});

app(
  'after a reload: an interrupted task shows Interrupted with the stored cause, and its running step is not left running',
  async () => {
    const { api, link, app } = setup();
    const messages = [
      userMsg('u1'),
      note(
        'interrupted',
        'TASK_INTERRUPTED',
        'The server restarted while this task was running; its last step was cut short.',
      ),
    ];
    api.details.set(TASK_A, { ok: true, data: { task: summary(TASK_A, { status: 'error' }), messages } });
    await app.start(TASK_A);
    link.setStatus({ type: 'connected' });
    await flush();
    assert.is(taskStateOf(app.status.status.value, app.outcome.outcome.value?.outcome), 'interrupted');
    assert.match(app.outcome.outcome.value!.error.message, /server restarted/);
    assert.not.match(app.outcome.outcome.value!.error.message, /extension/i, 'not "the extension went offline"');
  },
);

app.run();
