// One order everywhere, in the chat model (no DOM): the live view, a second window that got the
// same events in another arrival order, and a reload from the stored messages (meta.seq,
// meta.segments, notes) show the same conversation, sorted by the server's per-task seq.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FrontendEventPayload } from '../../transport/contracts/frontend-event.ts';
import type { TaskMessage } from '../../transport/contracts/http.ts';
import type { ChatItem } from '../src/models/chat-items.ts';
import { createChatModel } from '../src/models/chat-model.ts';
import { placeBySeq, sortBySeq } from '../src/models/chat-order.ts';
import { delta, payload } from './util.ts';

const shape = (items: readonly ChatItem[]) =>
  items.map((i) =>
    i.kind === 'tool'
      ? `tool ${i.actionName} ${i.phase}`
      : i.kind === 'notice'
        ? `notice ${i.message}`
        : i.kind === 'user'
          ? `user ${i.content}`
          : `assistant ${i.content.trim()}`,
  );

const tool = (
  actionId: string,
  actionName: string,
  phase: 'start' | 'success' | 'error',
  timestamp: number,
  extra: Record<string, unknown> = {},
) =>
  payload('toolUsed', {
    toolCallId: 'call-1',
    actionId,
    actionName,
    phase,
    paramsSummary: 'tabId=7',
    timestamp,
    ...extra,
  });

/** One turn as the server emits it: [seq, event]. */
function turnEvents(): Array<[number, FrontendEventPayload]> {
  return [
    [1, payload('userMessage', { messageId: 'u1', content: 'Open example.com', timestamp: 1_000 })],
    [2, delta('u1', 'Opening it.', false, { id: 'd1', timestamp: 1_100 })],
    [3, tool('a1', 'task_start', 'start', 1_200)],
    [4, tool('a1', 'task_start', 'success', 1_300, { durationMs: 100 })],
    [5, tool('a2', 'browser_wait_for_loaded', 'start', 1_300)],
    [6, tool('a2', 'browser_wait_for_loaded', 'success', 1_400, { durationMs: 100 })],
    [
      7,
      payload('structuredOutput', {
        status: 'info',
        message: 'In tab 7: a cookie banner was closed.',
        timestamp: 1_450,
      }),
    ],
    [8, delta('u1', '\n\nIt shows Example Domain.', false, { id: 'd2', timestamp: 1_500 })],
    [9, delta('u1', '', true, { id: 'd3', timestamp: 1_600 })],
  ];
}

/** What the server stored for that turn (tool steps at their start's seq). */
function stored(): TaskMessage[] {
  const step = (
    id: string,
    actionId: string,
    name: string,
    seq: number,
    settleSeq: number,
    t: number,
  ): TaskMessage => ({
    id,
    role: 'tool',
    content: JSON.stringify({ toolCallId: 'call-1', name, ok: true, result: {} }),
    timestamp: t,
    toolCallId: 'call-1',
    meta: { actionId, actionName: name, paramsSummary: 'tabId=7', durationMs: 100, ok: true, seq, settleSeq },
  });
  return [
    { id: 'u1', role: 'user', content: 'Open example.com', timestamp: 1_000, meta: { seq: 1 } },
    // Appended in the order the writes finished, not in the event order.
    step('tool-a2', 'a2', 'browser_wait_for_loaded', 5, 6, 1_400),
    step('tool-a1', 'a1', 'task_start', 3, 4, 1_300),
    { id: 'n1', role: 'system', content: 'In tab 7: a cookie banner was closed.', timestamp: 1_450, meta: { seq: 7 } },
    {
      id: 'm1',
      role: 'assistant',
      content: 'Opening it.\n\nIt shows Example Domain.',
      timestamp: 1_600,
      meta: {
        seq: 2,
        segments: [
          { seq: 2, text: 'Opening it.' },
          { seq: 8, text: '\n\nIt shows Example Domain.' },
        ],
      },
    },
  ];
}

const expected = [
  'user Open example.com',
  'assistant Opening it.',
  'tool task_start success',
  'tool browser_wait_for_loaded success',
  'notice In tab 7: a cookie banner was closed.',
  'assistant It shows Example Domain.',
];

const test = suite('chat: one order (live, second window, reload)');

test('the window it was typed in: the local message, then the events in order', () => {
  const chat = createChatModel();
  chat.addUserMessage('u1', 'Open example.com', 1_000);
  for (const [seq, event] of turnEvents()) chat.applyEvent(event, seq);
  assert.equal(shape(chat.items.value), expected);
  assert.is(chat.find('u:u1')?.seq, 1, 'the local message learned its place from the userMessage event');
  assert.is((chat.find('u:u1') as { delivery?: string }).delivery, 'sent');
});

test('a second window: the same events in another arrival order (the running step replayed first, the message late) give the same chat', () => {
  const chat = createChatModel();
  const events = turnEvents();
  const order = [4, 5, 0, 2, 3, 1, 6, 8, 7];
  for (const i of order) chat.applyEvent(events[i]![1], events[i]![0]);
  assert.equal(shape(chat.items.value), expected);
});

test('a reload: the stored messages, appended out of order, give the same chat', () => {
  const chat = createChatModel();
  chat.loadHistory(stored());
  assert.equal(shape(chat.items.value), expected);
});

test('a reload while live: history plus the live events shows each row once, in order', () => {
  const chat = createChatModel();
  for (const [seq, event] of turnEvents()) chat.applyEvent(event, seq);
  chat.loadHistory(stored());
  assert.equal(shape(chat.items.value), expected);
  chat.loadHistory(stored());
  assert.equal(shape(chat.items.value), expected, 'loading it again changes nothing');
});

test('the running step is shown after the message it answers, even when a second window hears it first', () => {
  const chat = createChatModel();
  chat.applyEvent(tool('a9', 'browser_click', 'start', 2_000), 12);
  chat.applyEvent(payload('userMessage', { messageId: 'u2', content: 'click Next', timestamp: 1_990 }), 10);
  assert.equal(shape(chat.items.value), ['user click Next', 'tool browser_click start']);
});

test('order helpers: items without a seq keep their place after the item before them', () => {
  const item = (key: string, seq?: number): ChatItem => ({
    kind: 'notice',
    key,
    id: key,
    status: 'info',
    message: key,
    timestamp: 0,
    ...(seq !== undefined ? { seq } : {}),
  });
  assert.equal(
    sortBySeq([item('c', 3), item('x'), item('a', 1), item('b', 2)]).map((i) => i.key),
    ['a', 'b', 'c', 'x'],
  );
  assert.equal(
    placeBySeq([item('a', 1), item('c', 3)], item('b', 2)).map((i) => i.key),
    ['a', 'b', 'c'],
  );
  assert.equal(
    placeBySeq([item('a', 1), item('s')], item('d', 4)).map((i) => i.key),
    ['a', 's', 'd'],
  );
  assert.equal(
    sortBySeq([item('p'), item('q')]).map((i) => i.key),
    ['p', 'q'],
    'no seq at all: as given',
  );
});

test.run();
