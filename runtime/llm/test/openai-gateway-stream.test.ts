import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createOpenAiGateway } from '../openai-gateway.ts';
import { startMockOpenAiServer, type MockOpenAiServer, type MockScript } from '../mock-openai-server.ts';
import { completionChunks, finishChunk, textChunks, toolCallChunks, usageChunk } from '../mock-openai-chunks.ts';
import type { LlmMessage, LlmToolCall } from '../llm-types.ts';
import { collect, textOf, typesOf } from './util.ts';

const tools = [
  {
    name: 'browser_open',
    description: 'Open a URL',
    schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  },
];
const messages: LlmMessage[] = [
  { role: 'system', content: 'You are Mimo.' },
  { role: 'user', content: 'open example.com' },
];

const s = suite<{ server?: MockOpenAiServer }>('openai gateway: streaming');
s.after.each(async (ctx) => {
  await ctx.server?.close();
  ctx.server = undefined;
});

async function gatewayFor(
  ctx: { server?: MockOpenAiServer },
  script: MockScript,
  extra: Partial<Parameters<typeof createOpenAiGateway>[0]> = {},
) {
  ctx.server = await startMockOpenAiServer({ script });
  return createOpenAiGateway({
    apiKey: 'sk-test',
    baseURL: ctx.server.url,
    model: 'mock-model',
    retryDelayMs: 0,
    ...extra,
  });
}

s('streams text as deltas, in order, then done with usage and finish reason', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    completionChunks({ text: ['Hel', 'lo ', 'there', '!'], usage: { promptTokens: 42, completionTokens: 7 } }),
  ]);
  assert.is(gw.kind, 'openai');
  assert.is(gw.model, 'mock-model');
  const events = await collect(gw.streamChat({ taskId: 't1', messages, tools }));
  assert.equal(typesOf(events), ['delta', 'delta', 'delta', 'delta', 'done']);
  assert.is(textOf(events), 'Hello there!');
  assert.equal(events.at(-1), {
    type: 'done',
    finishReason: 'stop',
    usage: { promptTokens: 42, completionTokens: 7, totalTokens: 49 },
  });
});

s('sends model, stream options, mapped messages and tools through the real SDK', async (ctx) => {
  const gw = await gatewayFor(ctx, [completionChunks({ text: 'ok' })]);
  const conversation: LlmMessage[] = [
    ...messages,
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ toolCallId: 'call_1', name: 'browser_open', arguments: { url: 'https://example.com' } }],
    },
    {
      role: 'tool',
      content: '{"toolCallId":"call_1","name":"browser_open","ok":true,"result":{}}',
      toolCallId: 'call_1',
      name: 'browser_open',
    },
  ];
  await collect(gw.streamChat({ taskId: 't1', messages: conversation, tools }));
  const body = ctx.server!.requests[0]!;
  assert.is(body.model, 'mock-model');
  assert.is(body.stream, true);
  assert.equal(body.stream_options, { include_usage: true });
  assert.equal(body.tools, [
    { type: 'function', function: { name: 'browser_open', description: 'Open a URL', parameters: tools[0]!.schema } },
  ]);
  assert.equal(body.messages, [
    { role: 'system', content: 'You are Mimo.' },
    { role: 'user', content: 'open example.com' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'browser_open', arguments: '{"url":"https://example.com"}' },
        },
      ],
    },
    {
      role: 'tool',
      tool_call_id: 'call_1',
      content: '{"toolCallId":"call_1","name":"browser_open","ok":true,"result":{}}',
    },
  ]);
  assert.is(ctx.server!.requestHeaders[0]!.authorization, 'Bearer sk-test');
});

s('omits tools when there are none', async (ctx) => {
  const gw = await gatewayFor(ctx, [completionChunks({ text: 'hi' })]);
  await collect(gw.streamChat({ taskId: 't1', messages, tools: [] }));
  assert.not.ok('tools' in ctx.server!.requests[0]!);
});

s('accumulates tool-call argument fragments per index and parses them', async (ctx) => {
  const chunks = [
    ...textChunks('Opening both.'),
    ...toolCallChunks([
      { id: 'call_a', name: 'browser_open', arguments: '{"url":"https://example.com/a?q=1"}', pieces: 5 },
      { id: 'call_b', name: 'browser_click', arguments: '{"clickId":12}', pieces: 4 },
    ]),
    finishChunk('tool_calls'),
    usageChunk({ promptTokens: 100, completionTokens: 20 }),
  ];
  const gw = await gatewayFor(ctx, [chunks]);
  const events = await collect(gw.streamChat({ taskId: 't1', messages, tools }));
  const calls = events.filter((e): e is LlmToolCall => e.type === 'tool_call');
  assert.equal(calls, [
    { type: 'tool_call', toolCallId: 'call_a', name: 'browser_open', arguments: { url: 'https://example.com/a?q=1' } },
    { type: 'tool_call', toolCallId: 'call_b', name: 'browser_click', arguments: { clickId: 12 } },
  ]);
  assert.is(textOf(events), 'Opening both.');
  assert.equal(events.at(-1), {
    type: 'done',
    finishReason: 'tool_calls',
    usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
  });
  // tool calls come after the text and before done
  assert.equal(typesOf(events).slice(-3), ['tool_call', 'tool_call', 'done']);
});

s('interleaved fragments of two calls are kept apart by index', async (ctx) => {
  const frag = (index: number, args: string, id?: string, name?: string) => ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index,
              ...(id ? { id, type: 'function' } : {}),
              function: { ...(name ? { name } : {}), arguments: args },
            },
          ],
        },
        finish_reason: null,
      },
    ],
  });
  const gw = await gatewayFor(ctx, [
    [
      frag(0, '{"url":', 'c0', 'browser_open'),
      frag(1, '{"click', 'c1', 'browser_click'),
      frag(0, '"x"}'),
      frag(1, 'Id":3}'),
      finishChunk('tool_calls'),
    ],
  ]);
  const calls = (await collect(gw.streamChat({ taskId: 't1', messages, tools }))).filter((e) => e.type === 'tool_call');
  assert.equal(
    calls.map((c) => c.type === 'tool_call' && [c.toolCallId, c.name, c.arguments]),
    [
      ['c0', 'browser_open', { url: 'x' }],
      ['c1', 'browser_click', { clickId: 3 }],
    ],
  );
});

s('malformed tool arguments become argumentsError with {} arguments, not a failure', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    completionChunks({
      toolCalls: [
        { id: 'call_bad', name: 'browser_open', arguments: '{"url": "https://exa' },
        { id: 'call_arr', name: 'browser_click', arguments: '[1,2]' },
        { id: 'call_empty', name: 'browser_read_page', arguments: '' },
      ],
    }),
  ]);
  const events = await collect(gw.streamChat({ taskId: 't1', messages, tools }));
  const calls = events.filter((e): e is LlmToolCall => e.type === 'tool_call');
  assert.is(calls.length, 3);
  assert.equal(calls[0]!.arguments, {});
  assert.match(calls[0]!.argumentsError ?? '', /not valid JSON/);
  assert.match(calls[0]!.argumentsError ?? '', /https:\/\/exa/);
  assert.match(calls[1]!.argumentsError ?? '', /must be a JSON object, got an array/);
  assert.equal(calls[2], { type: 'tool_call', toolCallId: 'call_empty', name: 'browser_read_page', arguments: {} });
  assert.is(events.at(-1)!.type, 'done');
});

s('onChunk sees every raw chunk; a throwing onChunk does not break the stream', async (ctx) => {
  const chunks = completionChunks({ text: 'a b c' });
  const seen: Array<{ id: string; attempt: number; taskId: string }> = [];
  const gw = await gatewayFor(ctx, [chunks], {
    onChunk(chunk, info) {
      seen.push({ id: chunk.id, ...info });
      throw new Error('recorder exploded');
    },
  });
  const events = await collect(gw.streamChat({ taskId: 'task-9', messages, tools }));
  assert.is(seen.length, chunks.length);
  assert.equal(seen[0], { id: 'chatcmpl-mock', attempt: 1, taskId: 'task-9' });
  assert.is(textOf(events), 'a b c');
});

s('a tool message without toolCallId is a bad request, caught before any HTTP call', async (ctx) => {
  const gw = await gatewayFor(ctx, [completionChunks({ text: 'never' })]);
  const events = await collect(
    gw.streamChat({ taskId: 't1', messages: [...messages, { role: 'tool', content: '{}' }], tools }),
  );
  assert.equal(typesOf(events), ['error']);
  assert.is(events[0]!.type === 'error' && events[0]!.code, 'LLM_BAD_REQUEST');
  assert.is(events[0]!.type === 'error' && events[0]!.retryable, false);
  assert.is(ctx.server!.requests.length, 0);
});

s('odd inputs come back as error values, never as a throw', async (ctx) => {
  const gw = await gatewayFor(ctx, [completionChunks({ text: 'fine' })]);
  const bad = await collect(gw.streamChat({ taskId: 't1', messages: undefined as never, tools }));
  assert.equal(
    bad.map((e) => e.type === 'error' && e.code),
    ['LLM_BAD_REQUEST'],
  );
  const fractional = await collect(
    gw.streamChat({ taskId: 't1', messages, tools: undefined as never, timeoutMs: 1500.5 }),
  );
  assert.is(textOf(fractional), 'fine');
});

s('a stream without a usage chunk ends with done and no usage', async (ctx) => {
  const gw = await gatewayFor(ctx, [[...textChunks('hi'), finishChunk('stop')]]);
  const events = await collect(gw.streamChat({ taskId: 't1', messages, tools }));
  assert.equal(events.at(-1), { type: 'done', finishReason: 'stop' });
});

s.run();
