// The replay helpers on small hand-made recordings: the answerer (ack or not, retries, delays,
// duplicates, legacy results, artifact rewriting), the LLM script split, the event-driven inputs,
// the event descriptors and the expected final task state.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BrowserActionFrame } from '../../test-util/fake-plugin.ts';
import {
  createReplayAnswerer,
  describeFrontendEvents,
  expectedTaskOutcome,
  formatDescriptor,
  llmScriptOf,
  recordedExchanges,
  replayInputs,
  taskIdOf,
} from '../replay.ts';
import type { RecordedLine } from '../session-recorder.ts';

const TASK = '01JD0000000000000000000H01';
const frame = (t: number, id: string, name: string, extra: Record<string, unknown> = {}): RecordedLine => ({
  t,
  kind: 'frame',
  direction: 'out',
  channel: 'plugin_message',
  payload: {
    v: 1,
    type: 'browser_action',
    id,
    taskId: TASK,
    clientId: 'ext-1',
    timestamp: 0,
    action: { [name]: { tabId: 5 } },
    ...extra,
  },
});
const ack = (t: number, actionId: string): RecordedLine => ({
  t,
  kind: 'frame',
  direction: 'in',
  channel: 'plugin_ack',
  payload: { actionId, response: { ok: true } },
});
const result = (t: number, actionId: string, body: Record<string, unknown>): RecordedLine => ({
  t,
  kind: 'frame',
  direction: 'in',
  channel: 'plugin_message',
  payload: { v: 1, type: 'browser_action_result', actionId, taskId: TASK, clientId: 'ext-1', ...body },
});
const event = (t: number, ev: Record<string, unknown>, taskId = TASK): RecordedLine => ({
  t,
  kind: 'frame',
  direction: 'out',
  channel: 'frontend_event',
  payload: {
    type: 'event',
    id: `env-${t}`,
    taskId,
    timestamp: 1e12 + t,
    event: { id: `evt-${t}`, timestamp: 1e12 + t, ...ev },
  },
});
const live = (name: string, extra: Partial<BrowserActionFrame> = {}): BrowserActionFrame => ({
  v: 1,
  type: 'browser_action',
  id: 'live-1',
  taskId: TASK,
  clientId: 'ext-1',
  timestamp: 0,
  action: { [name]: {} },
  ...extra,
});

const answerer = suite('replay answerer');

answerer(
  'a retried action: the first emission unacked and unanswered, the second acked and answered after the recorded delays',
  async () => {
    const lines = [
      frame(100, 'act-w', 'browser_wait_for_loaded'),
      frame(1_500, 'act-w', 'browser_wait_for_loaded'),
      ack(1_520, 'act-w'),
      result(1_560, 'act-w', { status: 'success', result: { status: 'complete' } }),
    ];
    const exchanges = recordedExchanges(lines);
    assert.equal(
      exchanges.map((e) => [e.actionId, e.ack?.t, e.results.map((r) => r.t)]),
      [
        ['act-w', undefined, []],
        ['act-w', 1_520, [1_560]],
      ],
    );
    const waits: number[] = [];
    const replay = createReplayAnswerer(lines, { wait: async (ms) => void waits.push(ms) });
    const first = await replay.answer('browser_wait_for_loaded', {}, live('browser_wait_for_loaded'));
    assert.equal(first, { ack: false, result: null });
    const second = await replay.answer('browser_wait_for_loaded', {}, live('browser_wait_for_loaded'));
    assert.equal(second, {
      ack: true,
      result: { status: 'success', result: { status: 'complete' } },
      legacy: false,
      duplicate: false,
      delayMs: 40,
    });
    assert.equal(waits, [20], 'the ack is delayed as recorded');
    assert.equal(replay.unused(), []);
    const third = await replay.answer('browser_wait_for_loaded', {}, live('browser_wait_for_loaded'));
    assert.equal(third, { ack: false, result: null });
    assert.equal(replay.unexpected, ['browser_wait_for_loaded #3']);
  },
);

answerer('answers per action name in order; errors, duplicates and legacy results as recorded', async () => {
  const lines: RecordedLine[] = [
    frame(0, 'a1', 'browser_click'),
    ack(1, 'a1'),
    result(5, 'a1', { status: 'error', error: { code: 'INVALID_TARGET', message: 'gone', retryable: false } }),
    frame(10, 'b1', 'browser_dom_index'),
    ack(11, 'b1'),
    {
      t: 12,
      kind: 'frame',
      direction: 'in',
      channel: 'plugin_message',
      payload: { actionId: 'b1', status: 'success', result: { elements: [] } },
    },
    frame(20, 'a2', 'browser_click'),
    ack(21, 'a2'),
    result(30, 'a2', { status: 'success', result: { clicked: true } }),
    result(31, 'a2', { status: 'success', result: { clicked: true } }),
  ];
  const replay = createReplayAnswerer(lines, { wait: async () => {} });
  const click1 = await replay.answer('browser_click', {}, live('browser_click'));
  assert.equal(click1.result, {
    status: 'error',
    error: { code: 'INVALID_TARGET', message: 'gone', retryable: false },
  });
  const index = await replay.answer('browser_dom_index', {}, live('browser_dom_index'));
  assert.is(index.legacy, true);
  assert.equal(index.result, { status: 'success', result: { elements: [] } });
  const click2 = await replay.answer('browser_click', {}, live('browser_click'));
  assert.is(click2.duplicate, true);
  assert.is(click2.delayMs, 9);
  assert.equal(replay.unexpected, []);
});

answerer('a screenshot answer points at the live frame’s presigned artifact', async () => {
  const recordedUpload = 'http://127.0.0.1:4000/api/artifacts/art-old/upload?token=t1';
  const lines = [
    frame(0, 's1', 'browser_screenshot', { screenshotPresignedUrl: recordedUpload }),
    ack(1, 's1'),
    result(9, 's1', {
      status: 'success',
      result: { artifactId: 'art-old', url: 'http://127.0.0.1:4000/api/artifacts/art-old', width: 10, height: 10 },
    }),
  ];
  const replay = createReplayAnswerer(lines, { wait: async () => {} });
  const answer = await replay.answer(
    'browser_screenshot',
    {},
    live('browser_screenshot', {
      screenshotPresignedUrl: 'http://127.0.0.1:5000/api/artifacts/art-new/upload?token=t2',
    }),
  );
  assert.equal(answer.result?.result, {
    artifactId: 'art-new',
    url: 'http://127.0.0.1:5000/api/artifacts/art-new',
    width: 10,
    height: 10,
  });
});

answerer.run();

const script = suite('LLM script and inputs');

script('one mock response per completion (split by chunk id); a broken first attempt replays broken', () => {
  const chunk = (t: number, id: string, attempt: number, content: string): RecordedLine => ({
    t,
    kind: 'llm_chunk',
    attempt,
    chunk: { id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] },
  });
  const lines = [
    chunk(0, 'c1', 1, 'a'),
    chunk(1, 'c1', 1, 'b'),
    event(2, { type: 'usage' }),
    chunk(3, 'c2', 1, 'x'),
    chunk(1_003, 'c2', 2, 'y'),
    chunk(1_004, 'c2', 2, 'z'),
    chunk(5_000, 'c3', 1, 'q'),
  ];
  const responses = llmScriptOf(lines);
  assert.is(responses.length, 4);
  const contents = (r: unknown) =>
    (Array.isArray(r) ? r : (r as { chunks: unknown[] }).chunks).map(
      (c) => (c as { choices: Array<{ delta: { content: string } }> }).choices[0]!.delta.content,
    );
  assert.equal(responses.map(contents), [['a', 'b'], ['x'], ['y', 'z'], ['q']]);
  assert.is((responses[1] as { breakAfterChunks?: number }).breakAfterChunks, 1);
  assert.ok(Array.isArray(responses[0]) && Array.isArray(responses[2]));
});

script('inputs carry the number of frontend events before them; action results are answers, not inputs', () => {
  const lines: RecordedLine[] = [
    {
      t: 0,
      kind: 'frame',
      direction: 'in',
      channel: 'frontend_message',
      payload: { type: 'user_message', id: 'm1', taskId: TASK, content: 'hi' },
    },
    event(1, { type: 'taskStatus', status: 'created' }),
    event(2, { type: 'taskStatus', status: 'running' }),
    frame(3, 'a1', 'browser_click'),
    result(4, 'a1', { status: 'success' }),
    { t: 5, kind: 'frame', direction: 'in', channel: 'plugin_message', payload: { actionId: 'a1', status: 'success' } },
    event(6, { type: 'toolUsed', actionName: 'browser_click', phase: 'start' }),
    {
      t: 7,
      kind: 'frame',
      direction: 'in',
      channel: 'plugin_message',
      payload: { v: 1, type: 'takeover_report', taskId: TASK, clientId: 'ext-1', reason: 'user_input' },
    },
    event(8, { type: 'taskStatus', status: 'takeover' }),
    {
      t: 9,
      kind: 'frame',
      direction: 'in',
      channel: 'frontend_message',
      payload: { type: 'resume_task', id: 'r1', taskId: TASK },
    },
  ];
  assert.is(taskIdOf(lines), TASK);
  assert.equal(
    replayInputs(lines).map((i) => [i.channel, i.payload.type, i.afterEvents, i.t]),
    [
      ['frontend_message', 'user_message', 0, 0],
      ['plugin_message', 'takeover_report', 3, 7],
      ['frontend_message', 'resume_task', 4, 9],
    ],
  );
});

script.run();

const descriptors = suite('event descriptors and the expected task state');

descriptors(
  'chatDelta text joined per targetEventId where it began; ids, times, durations gone; other tasks left out',
  () => {
    const lines = [
      event(0, { type: 'taskStatus', status: 'running', previous: 'created' }),
      event(1, {
        type: 'chatDelta',
        sender: 'assistant',
        targetEventId: 'm1',
        finished: false,
        delta: { content: 'Open' },
      }),
      event(2, {
        type: 'toolUsed',
        toolCallId: 'c1',
        actionId: 'act-9',
        actionName: 'task_start',
        phase: 'start',
        paramsSummary: 'url=x',
      }),
      event(3, { type: 'snapshotSync', mode: 'full', seq: 3, state: {} }, '01JD0000000000000000000H99'),
      event(4, {
        type: 'toolUsed',
        toolCallId: 'c1',
        actionId: 'act-9',
        actionName: 'task_start',
        phase: 'error',
        durationMs: 31,
        error: { code: 'PLUGIN_TIMEOUT_ACK', message: 'm' },
      }),
      event(5, {
        type: 'chatDelta',
        sender: 'assistant',
        targetEventId: 'm1',
        finished: false,
        delta: { content: 'ed.' },
      }),
      event(6, { type: 'usage', promptTokens: 10, completionTokens: 2, totalTokens: 12 }),
      event(7, { type: 'chatDelta', sender: 'assistant', targetEventId: 'm1', finished: true, delta: { content: '' } }),
    ];
    const envelopes = lines.map((l) => (l as { payload: unknown }).payload);
    const described = describeFrontendEvents(envelopes, { taskId: TASK });
    assert.equal(described.map(formatDescriptor), [
      'taskStatus created -> running',
      'chatDelta (finished): "Opened."',
      'toolUsed task_start start',
      'toolUsed task_start error PLUGIN_TIMEOUT_ACK',
      'usage 10+2=12',
    ]);
    assert.is(describeFrontendEvents(envelopes).length, 6, 'without taskId every envelope counts');
    // The same events with other ids, timestamps and chunking describe the same.
    const rechunked = envelopes.map((e, i) => ({ ...(e as object), id: `other-${i}`, timestamp: i }));
    assert.equal(describeFrontendEvents(rechunked, { taskId: TASK }), described);
    // By run (recordings with seqs): each piece of text where it was shown among the steps.
    assert.equal(describeFrontendEvents(envelopes, { taskId: TASK, segments: true }).map(formatDescriptor), [
      'taskStatus created -> running',
      'chatDelta: "Open"',
      'toolUsed task_start start',
      'toolUsed task_start error PLUGIN_TIMEOUT_ACK',
      'chatDelta: "ed."',
      'usage 10+2=12',
      'chatDelta (finished): ""',
    ]);
    const moved = [envelopes[0], envelopes[1], envelopes[5], envelopes[2], envelopes[4], envelopes[6], envelopes[7]];
    assert.equal(
      describeFrontendEvents(moved, { taskId: TASK }),
      described,
      'joined per target, moved text compares equal',
    );
    assert.not.equal(
      describeFrontendEvents(moved, { taskId: TASK, segments: true }),
      describeFrontendEvents(envelopes, { taskId: TASK, segments: true }),
      'by run it does not',
    );
  },
);

descriptors(
  'the final state: user, tool steps, the assistant text of a normal turn; a stopped turn leaves a system note instead',
  () => {
    const user = (t: number, id: string, content: string): RecordedLine => ({
      t,
      kind: 'frame',
      direction: 'in',
      channel: 'frontend_message',
      payload: { type: 'user_message', id, taskId: TASK, content },
    });
    const delta = (t: number, target: string, content: string, finished = false) =>
      event(t, { type: 'chatDelta', targetEventId: target, finished, delta: { content } });
    const lines = [
      user(0, 'm1', 'first'),
      event(1, { type: 'toolUsed', actionName: 'browser_click', phase: 'start' }),
      event(2, { type: 'toolUsed', actionName: 'browser_click', phase: 'error' }),
      delta(3, 'm1', 'It failed.'),
      delta(4, 'm1', '', true),
      event(5, { type: 'taskStatus', status: 'ongoing' }),
      user(6, 'm2', 'second'),
      delta(7, 'm2', 'Working'),
      event(8, { type: 'taskStatus', status: 'completed' }),
      event(9, { type: 'structuredOutput', status: 'info', message: 'Task stopped by the user (web UI).' }),
      delta(10, 'm2', '', true),
    ];
    assert.equal(expectedTaskOutcome(lines), {
      status: 'completed',
      messages: [
        'user: first',
        'tool: browser_click error',
        'assistant: It failed.',
        'user: second',
        'system: Task stopped by the user (web UI).',
      ],
    });
  },
);

descriptors.run();
