// The Anthropic gateway with the official @anthropic-ai/sdk against a local mock speaking the
// Messages API's real SSE: streamed text, tool use with input_json_delta fragments, usage with
// prompt-cache tokens, the request shape (system blocks, tool_result turns, cache_control), and
// faults mapped to LLM_* codes: 429 with retry-after, 401, 400, 529 overloaded, an error event in
// the stream, a broken socket, a timeout and a caller abort, on the injected clock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAnthropicGateway } from '../anthropic-gateway.ts';
import {
  anthropicAnswer,
  startMockAnthropicServer,
  type MockAnthropicResponse,
  type MockAnthropicServer,
} from '../mock-anthropic-server.ts';
import type { LlmError, LlmEvent, LlmMessage } from '../llm-types.ts';
import { collect, errorOf, start, textOf, waitFor } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const messages: LlmMessage[] = [
  { role: 'system', content: 'You are Mimo.' },
  { role: 'user', content: 'Open example.com' },
];
const input = {
  taskId: 't1',
  messages,
  tools: [
    {
      name: 'browser_open',
      description: 'Open a URL',
      schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    },
  ],
};

type Ctx = { server?: MockAnthropicServer; clock: TestClock };
const s = suite<Ctx>('anthropic gateway: stream, tools, usage, faults', { clock: createTestClock(0) });
s.before.each((ctx) => {
  ctx.clock = createTestClock(0);
});
s.after.each(async (ctx) => {
  await ctx.server?.close();
  ctx.server = undefined;
});

async function gatewayFor(ctx: Ctx, script: MockAnthropicResponse[], retryDelayMs = 250) {
  ctx.server = await startMockAnthropicServer({ script });
  return createAnthropicGateway({
    apiKey: 'sk-ant-test',
    baseURL: ctx.server.url,
    model: 'claude-mock',
    clock: ctx.clock,
    retryDelayMs,
  });
}

s('text streams as deltas; done carries usage with cache tokens and the stop reason', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    {
      events: anthropicAnswer({
        text: ['Hello', ', world'],
        usage: { input: 12, output: 7, cacheRead: 100, cacheWrite: 20 },
      }),
    },
  ]);
  const events = await collect(gw.streamChat(input));
  assert.equal(
    events.filter((e) => e.type === 'delta').map((e) => (e as { content: string }).content),
    ['Hello', ', world'],
  );
  assert.is(textOf(events), 'Hello, world');
  assert.equal(events.at(-1), {
    type: 'done',
    finishReason: 'end_turn',
    usage: { promptTokens: 132, completionTokens: 7, totalTokens: 139, cacheReadTokens: 100, cacheWriteTokens: 20 },
  });
  assert.is(gw.kind, 'anthropic');
});

s(
  'the request: model, system as a cached block, tools with cache_control on the last, the API key header',
  async (ctx) => {
    const gw = await gatewayFor(ctx, [{ events: anthropicAnswer({ text: ['ok'] }) }]);
    await collect(gw.streamChat({ ...input, traceId: 'trace-1' }));
    const { body, headers } = ctx.server!.requests[0]!;
    assert.is(body.model, 'claude-mock');
    assert.is(body.stream, true);
    assert.equal(body.system, [{ type: 'text', text: 'You are Mimo.', cache_control: { type: 'ephemeral' } }]);
    assert.equal(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Open example.com' }] }]);
    assert.equal((body.tools as any[])[0].input_schema.required, ['url']);
    assert.equal((body.tools as any[])[0].cache_control, { type: 'ephemeral' });
    // SDK 1.x sends the key as a bearer token; 0.x sent x-api-key: either reaches the API.
    assert.is(headers['x-api-key'] ?? String(headers.authorization).replace(/^Bearer /, ''), 'sk-ant-test');
    assert.is(headers['x-mimo-trace-id'], 'trace-1');
    assert.ok(headers['anthropic-version'], 'the SDK sends its API version');
  },
);

s(
  'tool use: input_json_delta fragments are joined and parsed; a later turn sends tool_use and tool_result blocks',
  async (ctx) => {
    const gw = await gatewayFor(ctx, [
      {
        events: anthropicAnswer({
          text: ['Opening.'],
          tools: [{ id: 'toolu_1', name: 'browser_open', json: ['{"url": "https://exa', 'mple.com"}'] }],
        }),
      },
      { events: anthropicAnswer({ text: ['Done.'] }) },
    ]);
    const first = await collect(gw.streamChat(input));
    const call = first.find((e) => e.type === 'tool_call');
    assert.equal(call, {
      type: 'tool_call',
      toolCallId: 'toolu_1',
      name: 'browser_open',
      arguments: { url: 'https://example.com' },
    });
    assert.is((first.at(-1) as { finishReason?: string }).finishReason, 'tool_use');
    await collect(
      gw.streamChat({
        ...input,
        messages: [
          ...messages,
          {
            role: 'assistant',
            content: 'Opening.',
            toolCalls: [{ toolCallId: 'toolu_1', name: 'browser_open', arguments: { url: 'https://example.com' } }],
          },
          { role: 'tool', toolCallId: 'toolu_1', content: '{"ok":true}' },
          { role: 'user', content: 'and then?' },
        ],
      }),
    );
    assert.equal(ctx.server!.requests[1]!.body.messages, [
      { role: 'user', content: [{ type: 'text', text: 'Open example.com' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Opening.' },
          { type: 'tool_use', id: 'toolu_1', name: 'browser_open', input: { url: 'https://example.com' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"ok":true}' },
          { type: 'text', text: 'and then?' },
        ],
      },
    ]);
  },
);

s('a tool input that is not JSON: the call carries argumentsError and empty arguments', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    { events: anthropicAnswer({ tools: [{ id: 'toolu_2', name: 'browser_open', json: ['{"url": '] }] }) },
  ]);
  const call = (await collect(gw.streamChat(input))).find((e) => e.type === 'tool_call') as {
    arguments: object;
    argumentsError?: string;
  };
  assert.equal(call.arguments, {});
  assert.match(call.argumentsError ?? '', /not valid JSON/);
});

s('429 with retry-after: 2: the single retry waits 2000 ms on the clock, then succeeds', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    { status: 429, errorType: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '2' } },
    { events: anthropicAnswer({ text: ['later'] }) },
  ]);
  const run = start(gw.streamChat(input));
  await waitFor(() => ctx.clock.pending().includes(2000), 'the retry-after wait to be scheduled');
  assert.is(ctx.server!.requests.length, 1);
  ctx.clock.increment(2000);
  const events = await run.finished;
  assert.is(ctx.server!.requests.length, 2);
  assert.is(textOf(events), 'later');
});

s('429 twice: LLM_RATE_LIMITED, retryable, the message says when to retry', async (ctx) => {
  const limited: MockAnthropicResponse = {
    status: 429,
    errorType: 'rate_limit_error',
    message: 'slow down',
    headers: { 'retry-after': '1' },
  };
  const gw = await gatewayFor(ctx, [limited, limited]);
  const run = start(gw.streamChat(input));
  await waitFor(() => ctx.clock.pending().includes(1000), 'the retry wait');
  ctx.clock.increment(1000);
  const error = errorOf(await run.finished);
  assert.is(error.code, 'LLM_RATE_LIMITED');
  assert.is(error.retryable, true);
  assert.match(error.message, /retry after 1000 ms.*slow down/);
});

s('a retry-after beyond 30 s is not waited for: LLM_RATE_LIMITED at once, one request', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    { status: 429, errorType: 'rate_limit_error', message: 'quota', headers: { 'retry-after': '3600' } },
  ]);
  const error = errorOf(await collect(gw.streamChat(input)));
  assert.is(error.code, 'LLM_RATE_LIMITED');
  assert.is(ctx.server!.requests.length, 1);
});

s('401: LLM_AUTH_FAILED naming ANTHROPIC_API_KEY, not retried; 400: LLM_BAD_REQUEST', async (ctx) => {
  let gw = await gatewayFor(ctx, [{ status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }]);
  let error = errorOf(await collect(gw.streamChat(input)));
  assert.is(error.code, 'LLM_AUTH_FAILED');
  assert.match(error.message, /invalid x-api-key.*ANTHROPIC_API_KEY/);
  assert.is(ctx.server!.requests.length, 1);
  await ctx.server!.close();
  gw = await gatewayFor(ctx, [{ status: 400, errorType: 'invalid_request_error', message: 'max_tokens: too large' }]);
  error = errorOf(await collect(gw.streamChat(input)));
  assert.is(error.code, 'LLM_BAD_REQUEST');
  assert.is(error.retryable, false);
});

s('529 overloaded, then an overloaded_error event in the stream: LLM_UNAVAILABLE after one retry', async (ctx) => {
  const gw = await gatewayFor(ctx, [
    { status: 529, errorType: 'overloaded_error', message: 'Overloaded' },
    {
      events: [
        ...anthropicAnswer({ text: ['par'] }).slice(0, 2),
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ],
    },
  ]);
  const run = start(gw.streamChat(input));
  await waitFor(() => ctx.clock.pending().includes(250), 'the retry delay');
  ctx.clock.increment(250);
  const error = errorOf(await run.finished);
  assert.is(error.code, 'LLM_UNAVAILABLE');
  assert.match(error.message, /overloaded/i);
  assert.is(ctx.server!.requests.length, 2);
});

s('a socket destroyed mid-answer after text was shown: LLM_STREAM_BROKEN, no retry', async (ctx) => {
  const events = anthropicAnswer({ text: ['partial ', 'answer'] });
  const gw = await gatewayFor(ctx, [{ events, breakAfterEvents: 5 }]);
  const seen = await collect(gw.streamChat(input));
  assert.is(textOf(seen), 'partial answer');
  assert.is(errorOf(seen).code, 'LLM_STREAM_BROKEN');
  assert.is(ctx.server!.requests.length, 1);
});

s('no answer within timeoutMs (injected clock): LLM_TIMEOUT after the one retry', async (ctx) => {
  const stalled: MockAnthropicResponse = { events: anthropicAnswer({ text: ['x'] }), stallAfterEvents: 0 };
  const gw = await gatewayFor(ctx, [stalled, stalled]);
  const run = start(gw.streamChat({ ...input, timeoutMs: 5000 }));
  await waitFor(
    () => ctx.server!.requests.length === 1 && ctx.clock.pending().includes(5000),
    'the first request and its timeout',
  );
  ctx.clock.increment(5000);
  await waitFor(() => ctx.clock.pending().includes(250), 'the retry delay');
  ctx.clock.increment(250);
  await waitFor(() => ctx.server!.requests.length === 2 && ctx.clock.pending().includes(5000), 'the second timeout');
  ctx.clock.increment(5000);
  const error = errorOf(await run.finished);
  assert.is(error.code, 'LLM_TIMEOUT');
  assert.match(error.message, /5000 ms/);
});

s('the caller aborts: LLM_ABORTED, nothing retried', async (ctx) => {
  const gw = await gatewayFor(ctx, [{ events: anthropicAnswer({ text: ['x'] }), stallAfterEvents: 2 }]);
  const controller = new AbortController();
  const run = start(gw.streamChat({ ...input, signal: controller.signal }));
  await waitFor(() => ctx.server!.requests.length === 1, 'the request');
  controller.abort();
  const error = errorOf(await run.finished);
  assert.is(error.code, 'LLM_ABORTED');
  assert.is(ctx.server!.requests.length, 1);
});

s('a conversation without a user turn is refused before any request: LLM_BAD_REQUEST', async (ctx) => {
  const gw = await gatewayFor(ctx, [{ events: anthropicAnswer({ text: ['x'] }) }]);
  const error = errorOf(
    await collect(gw.streamChat({ ...input, messages: [{ role: 'system', content: 'only system' }] })),
  );
  assert.is(error.code, 'LLM_BAD_REQUEST');
  assert.is(ctx.server!.requests.length, 0);
});

s.run();
