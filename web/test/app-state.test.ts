import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { FrontendMessageSchema } from '../../transport/contracts/frontend-message.ts';
import { createAppState } from '../src/app-state.ts';
import {
  delta,
  envelope,
  FakeApi,
  FakeLink,
  flush,
  payload,
  snapshotResponse,
  snapshotState,
  summary,
  TASK_A,
  TASK_B,
} from './util.ts';

function setup() {
  const api = new FakeApi();
  const link = new FakeLink();
  let ids = 0;
  let time = 10_000;
  const app = createAppState({ api, link, clock: { now: () => time }, newId: () => `id${++ids}` });
  return { api, link, app, advance: (ms: number) => (time += ms) };
}

const flow = suite('app: open, send, route events');

flow('send on a fresh page creates a task, shows the message and the streamed answer', async () => {
  const { api, link, app } = setup();
  api.nextTaskIds = [TASK_A];
  await app.start();
  link.setStatus({ type: 'connected' });
  const result = await app.send('  Open example.com  ');
  assert.is(result?.ok, true);
  assert.is(app.currentTaskId.value, TASK_A);
  const userMessage = link.sent.find((m) => m.type === 'user_message');
  assert.ok(userMessage && v.is(FrontendMessageSchema, userMessage), 'the message matches the shared contract');
  assert.is(userMessage.type === 'user_message' && userMessage.content, 'Open example.com');
  link.emit(envelope(delta(userMessage.id, 'On it', true), TASK_A));
  link.emit(envelope(delta(userMessage.id, 'ignored: other task', true), TASK_B));
  assert.equal(
    app.chat.items.value.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.content : i.kind)),
    ['Open example.com', 'On it'],
  );
  assert.is(app.tasks.find(TASK_A)?.title, 'Open example.com', 'listed before the server lists it');
});

flow(
  "a second window: the person's message (userMessage) and the running step replayed on subscribe show in the task's order",
  async () => {
    const { api, link, app } = setup();
    api.details.set(TASK_A, { ok: true, data: { task: summary(TASK_A, { status: 'running' }), messages: [] } });
    link.setStatus({ type: 'connected' });
    await app.start();
    await app.openTask(TASK_A);
    const seqd = (event: Parameters<typeof envelope>[0], seq: number) => ({ ...envelope(event, TASK_A), seq });
    // The running step is replayed first (subscribe_task), the message it answers comes after.
    link.emit(
      seqd(
        payload('toolUsed', {
          toolCallId: 'c1',
          actionId: 'a1',
          actionName: 'browser_click',
          phase: 'start',
          paramsSummary: 'tabId=3 clickId=4',
        }),
        3,
      ),
    );
    link.emit(seqd(payload('userMessage', { messageId: 'u1', content: 'click Next' }), 1));
    link.emit(seqd(delta('u1', 'Clicking it.'), 2));
    const shown = app.chat.items.value.map((i) =>
      i.kind === 'tool' ? `tool ${i.actionName}` : `${i.kind} ${i.kind === 'notice' ? i.message : i.content}`,
    );
    assert.equal(shown, ['user click Next', 'assistant Clicking it.', 'tool browser_click']);
  },
);

flow('opening a task subscribes first, then loads its history; switching unsubscribes', async () => {
  const { api, link, app } = setup();
  api.details.set(TASK_A, {
    ok: true,
    data: {
      task: summary(TASK_A, { status: 'takeover', selectedClientId: 'p1' }),
      messages: [{ id: 'm1', role: 'user', content: 'hi', timestamp: 1 }],
    },
  });
  link.setStatus({ type: 'connected' });
  await app.start();
  await app.openTask(TASK_A);
  assert.equal(link.types(), ['subscribe_task']);
  assert.is(app.status.status.value, 'takeover');
  assert.is(app.extensions.boundClientId.value, 'p1');
  assert.is(app.chat.items.value.length, 1);
  await app.openTask(TASK_B);
  assert.equal(link.types(), ['subscribe_task', 'unsubscribe_task', 'subscribe_task']);
  assert.is(app.chat.items.value.length, 0);
  assert.is(app.status.status.value, null, 'unknown task without a record: no status yet');
});

flow('the machine view subscribes to inspection while open; records reach the inspection model', async () => {
  const { link, app } = setup();
  link.setStatus({ type: 'connected' });
  await app.start(TASK_A);
  app.showPanel('machines');
  link.emit(
    envelope(
      payload('inspection', {
        record: { type: '@xstate.snapshot', actorId: 't1', machineId: 'task', snapshot: { value: 'created' } },
      }),
      TASK_A,
    ),
  );
  assert.equal(app.inspection.latestByMachine.value.get('task')?.value, 'created');
  app.showPanel('browser');
  assert.equal(link.types(), ['subscribe_task', 'subscribe_inspection', 'unsubscribe_inspection']);
});

flow('toolUsed marks the task tab; taskStatus reaches the banner and the list', async () => {
  const { api, link, app } = setup();
  api.tasks = { ok: true, data: [summary(TASK_A, { status: 'running', updatedAt: 5 })] };
  link.setStatus({ type: 'connected' });
  await app.start(TASK_A);
  link.emit(
    envelope(
      payload('toolUsed', {
        toolCallId: 'c1',
        actionName: 'browser_click',
        phase: 'start',
        paramsSummary: 'tabId=42 clickId=3',
      }),
      TASK_A,
    ),
  );
  assert.is(app.snapshot.taskTabId.value, 42);
  link.emit(envelope(payload('taskStatus', { status: 'takeover', previous: 'running', timestamp: 50 }), TASK_A));
  assert.is(app.status.inTakeover.value, true);
  assert.is(app.tasks.find(TASK_A)?.status, 'takeover');
  await app.status.resume();
  assert.ok(link.types().includes('resume_task'));
});

flow('a failed send can be retried with the same message id', async () => {
  const { link, app } = setup();
  link.setStatus({ type: 'connected' });
  await app.start(TASK_A);
  link.ack = () => ({ ok: false, error: { code: 'UNAVAILABLE', message: 'busy' } });
  await app.send('hello');
  const failed = app.chat.items.value[0];
  assert.ok(failed?.kind === 'user' && failed.delivery === 'failed');
  link.ack = () => ({ ok: true });
  await app.retry(failed.id);
  const sentIds = link.sent.filter((m) => m.type === 'user_message').map((m) => m.id);
  assert.equal(sentIds, [failed.id, failed.id]);
  const item = app.chat.items.value[0];
  assert.ok(item?.kind === 'user' && item.delivery === 'sent');
  assert.is(app.chat.items.value.length, 1);
});

const reconnect = suite('app: reconnect');

reconnect('after a reconnect: resubscribe, refetch task, snapshot, list and extensions, nothing twice', async () => {
  const { api, link, app } = setup();
  api.nextTaskIds = [TASK_A];
  await app.start();
  link.setStatus({ type: 'connected' });
  await app.send('find prices');
  const userId = link.sent.find((m) => m.type === 'user_message')!.id;
  link.emit(envelope(delta(userId, 'Looking', false, { id: 'd1', timestamp: 20_000 }), TASK_A));
  link.emit(envelope(delta(userId, ' now.', true, { id: 'd2', timestamp: 20_001 }), TASK_A));
  link.emit(
    envelope(
      payload('snapshotSync', { mode: 'full', seq: 30, state: snapshotState([{ tabId: 1, title: 'before' }], 20_000) }),
    ),
  );

  // The server restarts: the socket drops, comes back; the server persisted the turn.
  link.setStatus({ type: 'disconnected', reason: 'transport close' });
  assert.is(app.connection.status.value, 'reconnecting');
  api.details.set(TASK_A, {
    ok: true,
    data: {
      task: summary(TASK_A, { status: 'ongoing', updatedAt: 20_002 }),
      messages: [
        { id: userId, role: 'user', content: 'find prices', timestamp: 10_000 },
        { id: 'msg-a', role: 'assistant', content: 'Looking now.', timestamp: 20_002 },
      ],
    },
  });
  api.snapshot = { ok: true, data: snapshotResponse(snapshotState([{ tabId: 1, title: 'after restart' }], 30_000)) };
  api.calls = [];
  link.sent = [];
  link.setStatus({ type: 'connected' });
  await flush();
  assert.equal(link.types(), ['subscribe_task']);
  assert.equal(new Set(api.calls), new Set(['getSnapshot', 'listTaskPage 50', 'listExtensions', `getTask ${TASK_A}`]));
  assert.equal(
    app.chat.items.value.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? `${i.kind}:${i.content}` : i.kind)),
    ['user:find prices', 'assistant:Looking now.'],
  );
  assert.equal(
    app.snapshot.view.value?.state.tabs.map((t) => t.title),
    ['after restart'],
  );
  // The restarted server counts seq from 1 again.
  link.emit(
    envelope(
      payload('snapshotSync', { mode: 'full', seq: 1, state: snapshotState([{ tabId: 2, title: 'new seq' }], 31_000) }),
    ),
  );
  assert.equal(
    app.snapshot.view.value?.state.tabs.map((t) => t.title),
    ['new seq'],
  );
  // A replayed delta does not duplicate the answer.
  link.emit(envelope(delta(userId, ' now.', true, { id: 'd2', timestamp: 20_001 }), TASK_A));
  assert.is(app.chat.items.value.length, 2);
});

reconnect('the first connect subscribes without refetching what start() fetched', async () => {
  const { api, link, app } = setup();
  await app.start(TASK_A);
  const before = api.calls.length;
  link.setStatus({ type: 'connected' });
  await flush();
  assert.is(api.calls.length, before);
  assert.equal(link.types(), ['subscribe_task']);
});

reconnect('tick polls the extension list faster while none is connected', async () => {
  const { api, app, advance } = setup();
  await app.start();
  api.calls = [];
  advance(5_000);
  app.tick();
  assert.equal(api.calls, ['listExtensions']);
  advance(5_000);
  app.tick();
  assert.equal(api.calls, ['listExtensions', 'listExtensions']);
});

flow.run();
reconnect.run();
