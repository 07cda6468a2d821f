import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createChatModel } from '../src/models/chat-model.ts';
import type { AssistantItem, NoticeItem, ToolItem, UserItem } from '../src/models/chat-items.ts';
import { formatCost } from '../src/models/usage-model.ts';
import { delta, payload } from './util.ts';

const kinds = (chat: ReturnType<typeof createChatModel>) => chat.items.value.map((i) => i.kind);
const texts = (chat: ReturnType<typeof createChatModel>) =>
  chat.items.value.filter((i): i is AssistantItem => i.kind === 'assistant').map((i) => i.content);

const stream = suite('chat: stream assembly');

stream('appends deltas of one targetEventId into one assistant message until finished', () => {
  const chat = createChatModel();
  chat.addUserMessage('evt-u1', 'open example.com', 900);
  chat.applyEvent(delta('evt-u1', 'Opening ', false, { timestamp: 1000 }));
  assert.is(chat.streaming.value, true);
  chat.applyEvent(delta('evt-u1', 'example.com', false, { timestamp: 1001 }));
  chat.applyEvent(delta('evt-u1', ' now.', true, { timestamp: 1002 }));
  assert.equal(kinds(chat), ['user', 'assistant']);
  assert.equal(texts(chat), ['Opening example.com now.']);
  assert.is(chat.streaming.value, false);
});

stream('keeps two concurrent streams apart by targetEventId', () => {
  const chat = createChatModel();
  chat.applyEvent(delta('evt-u1', 'one-a '));
  chat.applyEvent(delta('evt-u2', 'two-a '));
  chat.applyEvent(delta('evt-u1', 'one-b', true));
  chat.applyEvent(delta('evt-u2', 'two-b', true));
  assert.equal(texts(chat), ['one-a one-b', 'two-a two-b']);
});

stream('a repeated event id is applied once', () => {
  const chat = createChatModel();
  const d = delta('evt-u1', 'Hello', false, { id: 'evt-d1' });
  assert.is(chat.applyEvent(d), true);
  assert.is(chat.applyEvent(d), false);
  chat.applyEvent(delta('evt-u1', '!', true));
  assert.equal(texts(chat), ['Hello!']);
});

stream('a tool step ends the segment on screen; later text starts a new one below the step', () => {
  const chat = createChatModel();
  chat.addUserMessage('evt-u1', 'go', 900);
  chat.applyEvent(delta('evt-u1', 'I will open the page.'));
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'call-1',
      actionName: 'task_start',
      phase: 'start',
      paramsSummary: 'url=https://example.com',
    }),
  );
  chat.applyEvent(delta('evt-u1', 'The page is open.', true));
  assert.equal(kinds(chat), ['user', 'assistant', 'tool', 'assistant']);
  assert.equal(texts(chat), ['I will open the page.', 'The page is open.']);
  const first = chat.items.value[1] as AssistantItem;
  assert.is(first.streaming, false, 'the interrupted segment stops showing a cursor');
});

stream('an empty finishing delta for a closed stream adds nothing', () => {
  const chat = createChatModel();
  chat.applyEvent(delta('evt-u1', 'Done', true));
  chat.applyEvent(delta('evt-u1', '', true));
  assert.equal(kinds(chat), ['assistant']);
});

const tools = suite('chat: tool steps, notices, usage');

tools('updates one tool step from start to success with duration and screenshot', () => {
  const chat = createChatModel();
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'call-1',
      actionName: 'browser_screenshot',
      phase: 'start',
      paramsSummary: 'tabId=12',
      timestamp: 5_000,
    }),
  );
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'call-1',
      actionName: 'browser_screenshot',
      phase: 'success',
      paramsSummary: 'tabId=12',
      timestamp: 5_400,
      artifacts: [{ artifactId: 'art-1', kind: 'screenshot', url: 'http://localhost:6006/api/artifacts/art-1' }],
    }),
  );
  assert.equal(kinds(chat), ['tool']);
  const step = chat.items.value[0] as ToolItem;
  assert.is(step.phase, 'success');
  assert.is(step.durationMs, 400, 'measured from the start event when the event gives none');
  assert.equal(
    step.artifacts.map((a) => a.artifactId),
    ['art-1'],
  );
});

tools('prefers the duration the server measured and keeps errors', () => {
  const chat = createChatModel();
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'c',
      actionName: 'browser_click',
      phase: 'start',
      paramsSummary: 'tabId=3 clickId=4',
      timestamp: 1,
    }),
  );
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'c',
      actionName: 'browser_click',
      phase: 'error',
      paramsSummary: '',
      durationMs: 5000,
      timestamp: 9_999,
      error: { code: 'PLUGIN_TIMEOUT_EXEC', message: 'execution timeout', retryable: true },
    }),
  );
  const step = chat.items.value[0] as ToolItem;
  assert.is(step.durationMs, 5000);
  assert.is(step.error?.code, 'PLUGIN_TIMEOUT_EXEC');
  assert.is(step.paramsSummary, 'tabId=3 clickId=4', 'an empty summary does not erase the known one');
});

tools('several browser actions of one tool call are separate steps (keyed by actionId)', () => {
  const chat = createChatModel();
  const step = (actionId: string, actionName: string, phase: 'start' | 'success') =>
    payload('toolUsed', { toolCallId: 'call-open', actionId, actionName, phase, paramsSummary: '' });
  chat.applyEvent(step('act-1', 'task_start', 'start'));
  chat.applyEvent(step('act-1', 'task_start', 'success'));
  chat.applyEvent(step('act-2', 'browser_debugger_attach', 'start'));
  chat.applyEvent(step('act-2', 'browser_debugger_attach', 'success'));
  const steps = chat.items.value as ToolItem[];
  assert.equal(
    steps.map((t) => [t.actionName, t.phase]),
    [
      ['task_start', 'success'],
      ['browser_debugger_attach', 'success'],
    ],
  );
});

tools('structuredOutput errors carry code, message and retryable', () => {
  const chat = createChatModel();
  chat.applyEvent(
    payload('structuredOutput', {
      status: 'error',
      error: { code: 'PAGE_PREP_FAILED', message: 'no screenshot, no text', retryable: true },
    }),
  );
  chat.applyEvent(
    payload('structuredOutput', { status: 'info', message: 'Plugin reconnected', data: { clientId: 'p1' } }),
  );
  const [error, info] = chat.items.value as NoticeItem[];
  assert.equal(
    [error!.status, error!.code, error!.message, error!.retryable],
    ['error', 'PAGE_PREP_FAILED', 'no screenshot, no text', true],
  );
  assert.equal([info!.status, info!.message, info!.detail], ['info', 'Plugin reconnected', '{"clientId":"p1"}']);
});

tools('usage events add up once each and give an estimated cost', () => {
  const chat = createChatModel({ pricing: { promptPerMillion: 1, completionPerMillion: 2 } });
  const u = payload('usage', { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 });
  chat.applyEvent(u);
  chat.applyEvent(u);
  chat.applyEvent(payload('usage', { promptTokens: 3000, completionTokens: 500, totalTokens: 3500 }));
  assert.equal(chat.usage.totals.value, { promptTokens: 4000, completionTokens: 1000, totalTokens: 5000, calls: 2 });
  assert.ok(Math.abs(chat.usage.cost.value - 0.006) < 1e-12);
  assert.is(formatCost(chat.usage.cost.value), '$0.0060');
});

tools("delivery of the person's message: sending -> failed with the error -> sent", () => {
  const chat = createChatModel();
  chat.addUserMessage('evt-u1', 'hi', 1);
  chat.setDelivery('evt-u1', 'failed', { code: 'UNAVAILABLE', message: 'not connected' });
  let user = chat.items.value[0] as UserItem;
  assert.equal([user.delivery, user.error?.code], ['failed', 'UNAVAILABLE']);
  chat.setDelivery('evt-u1', 'sent');
  user = chat.items.value[0] as UserItem;
  assert.equal([user.delivery, user.error], ['sent', undefined]);
});

tools('reset forgets items, usage and seen ids', () => {
  const chat = createChatModel();
  const d = delta('evt-u1', 'x', true, { id: 'same' });
  chat.applyEvent(d);
  chat.reset();
  assert.equal(chat.items.value, []);
  assert.is(chat.applyEvent(d), true, 'the next task may reuse nothing, but ids are per task');
});

stream.run();
tools.run();
