import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TaskMessage } from '../../transport/contracts/http.ts';
import { createChatModel } from '../src/models/chat-model.ts';
import type { ChatItem, ToolItem } from '../src/models/chat-items.ts';
import { delta, payload } from './util.ts';

const show = (items: readonly ChatItem[]) =>
  items.map((i) =>
    i.kind === 'tool'
      ? `tool:${i.toolCallId}`
      : i.kind === 'notice'
        ? `notice:${i.code ?? i.message}`
        : `${i.kind}:${i.content}`,
  );

const msg = (
  id: string,
  role: TaskMessage['role'],
  content: string,
  timestamp: number,
  toolCallId?: string,
): TaskMessage => ({ id, role, content, timestamp, ...(toolCallId ? { toolCallId } : {}) });

/** A turn as the live stream showed it: message, text, a tool step with a screenshot, more text. */
function liveTurn() {
  const chat = createChatModel();
  chat.addUserMessage('evt-u1', 'Open example.com', 1_000);
  chat.setDelivery('evt-u1', 'sent');
  chat.applyEvent(delta('evt-u1', 'Opening it.', false, { timestamp: 1_100 }));
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'call-1',
      actionName: 'task_start',
      phase: 'start',
      paramsSummary: 'url=https://example.com',
      timestamp: 1_200,
    }),
  );
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'call-1',
      actionName: 'task_start',
      phase: 'success',
      paramsSummary: 'url=https://example.com',
      timestamp: 1_500,
      artifacts: [{ artifactId: 'art-1', kind: 'screenshot', url: '/api/artifacts/art-1' }],
    }),
  );
  chat.applyEvent(delta('evt-u1', 'It shows Example Domain.', true, { timestamp: 1_600 }));
  return chat;
}

const merge = suite('chat: history merge (reopen, reconnect)');

merge(
  'stored steps, one per browser action (meta.actionId): each matches its live step once, or stands alone after a reload',
  () => {
    const step = (
      id: string,
      actionId: string,
      name: string,
      t: number,
      extra: Record<string, unknown> = {},
    ): TaskMessage => ({
      id,
      role: 'tool',
      content: JSON.stringify({ toolCallId: 'call-2', name, ok: true, ...extra }),
      timestamp: t,
      toolCallId: 'call-2',
      meta: { actionId, actionName: name, paramsSummary: `tabId=7 (${name})`, durationMs: 12 },
    });
    const history = [
      msg('evt-u2', 'user', 'Open it', 2_000),
      step('tool-a1', 'a1', 'task_start', 2_100, { result: { tabId: 7 } }),
      step('tool-a2', 'a2', 'browser_screenshot', 2_200, {
        result: { artifactId: 'art-9', url: '/api/artifacts/art-9' },
      }),
      msg('m-2', 'assistant', 'Done.', 2_300),
    ];
    // Live: the same two actions were seen as toolUsed events.
    const chat = createChatModel();
    chat.addUserMessage('evt-u2', 'Open it', 2_000);
    chat.setDelivery('evt-u2', 'sent');
    chat.applyEvent(
      payload('toolUsed', {
        toolCallId: 'call-2',
        actionId: 'a1',
        actionName: 'task_start',
        phase: 'success',
        paramsSummary: 'tabId=7',
        timestamp: 2_100,
      }),
    );
    chat.applyEvent(
      payload('toolUsed', {
        toolCallId: 'call-2',
        actionId: 'a2',
        actionName: 'browser_screenshot',
        phase: 'success',
        paramsSummary: 'tabId=7',
        timestamp: 2_200,
      }),
    );
    chat.loadHistory(history);
    chat.loadHistory(history);
    assert.equal(show(chat.items.value), ['user:Open it', 'tool:call-2', 'tool:call-2', 'assistant:Done.']);
    // After a reload (no live items): two steps from history, with their stored summaries and the thumbnail.
    const fresh = createChatModel();
    fresh.loadHistory(history);
    const tools = fresh.items.value.filter((i): i is ToolItem => i.kind === 'tool');
    assert.equal(
      tools.map((t) => [t.actionName, t.paramsSummary, t.durationMs]),
      [
        ['task_start', 'tabId=7 (task_start)', 12],
        ['browser_screenshot', 'tabId=7 (browser_screenshot)', 12],
      ],
    );
    assert.equal(
      tools[1]!.artifacts.map((a) => a.artifactId),
      ['art-9'],
    );
  },
);

merge('history of the same turn replaces live text without showing anything twice', () => {
  const chat = liveTurn();
  chat.loadHistory([
    msg('evt-u1', 'user', 'Open example.com', 1_000),
    msg('msg-2', 'assistant', 'Opening it.', 1_150),
    msg('msg-3', 'assistant', 'It shows Example Domain.', 1_650),
  ]);
  assert.equal(show(chat.items.value), [
    'user:Open example.com',
    'assistant:Opening it.',
    'tool:call-1',
    'assistant:It shows Example Domain.',
  ]);
});

merge('loading the same history twice changes nothing', () => {
  const chat = liveTurn();
  const history = [
    msg('evt-u1', 'user', 'Open example.com', 1_000),
    msg('msg-2', 'assistant', 'Opening it.\n\nIt shows Example Domain.', 1_650),
  ];
  chat.loadHistory(history);
  const once = show(chat.items.value);
  chat.loadHistory(history);
  assert.equal(show(chat.items.value), once);
  assert.equal(once, [
    'user:Open example.com',
    'assistant:Opening it.',
    'tool:call-1',
    'assistant:It shows Example Domain.',
  ]);
});

merge('a history tool message with the live toolCallId shows the live step (with its thumbnail)', () => {
  const chat = liveTurn();
  chat.loadHistory([
    msg('evt-u1', 'user', 'Open example.com', 1_000),
    msg('msg-2', 'assistant', 'Opening it.', 1_150),
    msg('msg-3', 'tool', '{"ok":true}', 1_550, 'call-1'),
    msg('msg-4', 'assistant', 'It shows Example Domain.', 1_650),
  ]);
  const tools = chat.items.value.filter((i): i is ToolItem => i.kind === 'tool');
  assert.is(tools.length, 1);
  assert.is(tools[0]!.artifacts[0]?.artifactId, 'art-1');
  assert.is(tools[0]!.resultText, undefined);
});

merge('a user message the server stored under another id is recognised by text and time', () => {
  const chat = createChatModel();
  chat.addUserMessage('evt-local', 'hello', 10_000);
  chat.setDelivery('evt-local', 'sent');
  chat.loadHistory([msg('msg-1', 'user', 'hello', 10_400)]);
  assert.equal(show(chat.items.value), ['user:hello']);
});

merge('a message still sending and text still streaming survive a history that lacks them', () => {
  const chat = createChatModel();
  chat.addUserMessage('evt-u1', 'first', 1_000);
  chat.setDelivery('evt-u1', 'sent');
  chat.applyEvent(delta('evt-u1', 'Working on it', false, { timestamp: 1_100 }));
  chat.addUserMessage('evt-u2', 'second', 1_200);
  chat.loadHistory([msg('evt-u1', 'user', 'first', 1_000)]);
  assert.equal(show(chat.items.value), ['user:first', 'assistant:Working on it', 'user:second']);
  // and the stream keeps going into the same bubble
  chat.applyEvent(delta('evt-u1', '...', true, { timestamp: 1_300 }));
  assert.equal(show(chat.items.value), ['user:first', 'assistant:Working on it...', 'user:second']);
});

merge('live items are placed in their own turn even when the browser clock is ahead', () => {
  const chat = createChatModel();
  // The browser stamps its message 60 s after the server's time.
  chat.addUserMessage('evt-u1', 'q1', 61_000);
  chat.setDelivery('evt-u1', 'sent');
  chat.applyEvent(
    payload('toolUsed', {
      toolCallId: 'c1',
      actionName: 'browser_screenshot',
      phase: 'success',
      paramsSummary: '',
      timestamp: 1_500,
    }),
  );
  chat.applyEvent(
    payload('structuredOutput', {
      status: 'error',
      error: { code: 'PLUGIN_OFFLINE', message: 'offline' },
      timestamp: 1_600,
    }),
  );
  chat.loadHistory([
    msg('msg-0', 'user', 'q0', 100),
    msg('msg-1', 'assistant', 'a0', 200),
    msg('evt-u1', 'user', 'q1', 1_000),
    msg('msg-3', 'assistant', 'a1', 1_700),
  ]);
  assert.equal(show(chat.items.value), [
    'user:q0',
    'assistant:a0',
    'user:q1',
    'tool:c1',
    'notice:PLUGIN_OFFLINE',
    'assistant:a1',
  ]);
});

merge('finished live text that history does not contain is kept, not dropped', () => {
  const chat = createChatModel();
  chat.addUserMessage('evt-u1', 'q', 1_000);
  chat.setDelivery('evt-u1', 'sent');
  chat.applyEvent(delta('evt-u1', 'Answer not persisted yet', true, { timestamp: 1_100 }));
  chat.loadHistory([msg('evt-u1', 'user', 'q', 1_000)]);
  assert.equal(show(chat.items.value), ['user:q', 'assistant:Answer not persisted yet']);
});

merge('system messages and empty assistant steps are not shown', () => {
  const chat = createChatModel();
  chat.loadHistory([msg('s', 'system', 'You are...', 1), msg('u', 'user', 'go', 2), msg('a', 'assistant', '  ', 3)]);
  assert.equal(show(chat.items.value), ['user:go']);
});

merge('a replayed event after the history load is still ignored', () => {
  const chat = createChatModel();
  const d = delta('evt-u1', 'Hi there', true, { id: 'evt-d1', timestamp: 1_100 });
  chat.addUserMessage('evt-u1', 'q', 1_000);
  chat.applyEvent(d);
  chat.loadHistory([msg('evt-u1', 'user', 'q', 1_000), msg('m2', 'assistant', 'Hi there', 1_200)]);
  assert.is(chat.applyEvent(d), false);
  assert.equal(show(chat.items.value), ['user:q', 'assistant:Hi there']);
});

merge('a history tool message stands in for every live step of its tool call', () => {
  const chat = createChatModel();
  chat.addUserMessage('u1', 'open it', 1_000);
  for (const [actionId, name, at] of [
    ['a1', 'task_start', 1_100],
    ['a2', 'browser_wait_for_loaded', 1_200],
  ] as const) {
    chat.applyEvent(
      payload('toolUsed', {
        toolCallId: 'call-open',
        actionId,
        actionName: name,
        phase: 'success',
        paramsSummary: '',
        timestamp: at,
      }),
    );
  }
  chat.loadHistory([
    msg('u1', 'user', 'open it', 1_000),
    msg('t', 'tool', '{"ok":true}', 1_300, 'call-open'),
    msg('a', 'assistant', 'Opened.', 1_400),
  ]);
  assert.equal(show(chat.items.value), ['user:open it', 'tool:call-open', 'tool:call-open', 'assistant:Opened.']);
  assert.equal(
    chat.items.value.filter((i): i is ToolItem => i.kind === 'tool').map((t) => t.actionName),
    ['task_start', 'browser_wait_for_loaded'],
  );
});

merge(
  'segments that spell the stored answer stay between their tool steps (the runtime stores one message per turn)',
  () => {
    const chat = liveTurn();
    chat.loadHistory([
      msg('evt-u1', 'user', 'Open example.com', 1_000),
      msg('msg-a', 'assistant', 'Opening it.\n\nIt shows Example Domain.', 1_700),
    ]);
    assert.equal(show(chat.items.value), [
      'user:Open example.com',
      'assistant:Opening it.',
      'tool:call-1',
      'assistant:It shows Example Domain.',
    ]);
    chat.loadHistory([
      msg('evt-u1', 'user', 'Open example.com', 1_000),
      msg('msg-a', 'assistant', 'Opening it.\n\nIt shows Example Domain.', 1_700),
    ]);
    assert.equal(show(chat.items.value).length, 4, 'stable on a second load');
  },
);

merge('history tool messages read as tool steps from their ToolResult (name, outcome, tab, screenshot)', () => {
  const chat = createChatModel();
  const result = (name: string, body: object) => JSON.stringify({ toolCallId: 'x', name, ...body });
  chat.loadHistory([
    msg('u', 'user', 'go', 1),
    msg('t1', 'tool', result('task_start', { ok: true, result: { tabId: 101 }, warnings: [] }), 2, 'c1'),
    msg(
      't2',
      'tool',
      result('browser_screenshot', { ok: true, result: { artifactId: 'art-7' }, missing: ['readability'] }),
      3,
      'c2',
    ),
    msg(
      't3',
      'tool',
      result('browser_click', { ok: false, error: { code: 'INVALID_TARGET', message: 'no element 4' } }),
      4,
      'c3',
    ),
    msg('t4', 'tool', 'not json', 5, 'c4'),
  ]);
  const steps = chat.items.value.filter((i): i is ToolItem => i.kind === 'tool');
  assert.equal(
    steps.map((s) => [s.actionName, s.phase, s.paramsSummary]),
    [
      ['task_start', 'success', 'tabId=101'],
      ['browser_screenshot', 'partial', ''],
      ['browser_click', 'error', ''],
      ['tool result', 'success', ''],
    ],
  );
  assert.equal(steps[1]!.artifacts, [{ artifactId: 'art-7', kind: 'screenshot', url: '/api/artifacts/art-7' }]);
  assert.is(steps[2]!.error?.code, 'INVALID_TARGET');
});

merge.run();
