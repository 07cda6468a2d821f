import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:net';
import { createOpenAiGateway } from '../openai-gateway.ts';
import { startMockOpenAiServer, type MockOpenAiServer, type MockScript } from '../mock-openai-server.ts';
import { completionChunks, textChunks } from '../mock-openai-chunks.ts';
import type { LlmError, LlmEvent, LlmMessage } from '../llm-types.ts';
import { collect, errorOf, start, textOf, typesOf, waitFor } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const messages: LlmMessage[] = [{ role: 'user', content: 'hi' }];
const input = { taskId: 't1', messages, tools: [] };

const s = suite<{ server?: MockOpenAiServer; clock: TestClock }>('openai gateway: faults, retry, timeout, abort', {
  clock: createTestClock(0),
});
s.before.each((ctx) => {
  ctx.clock = createTestClock(0);
});
s.after.each(async (ctx) => {
  await ctx.server?.close();
  ctx.server = undefined;
});

async function gatewayFor(
  ctx: { server?: MockOpenAiServer; clock: TestClock },
  script: MockScript,
  retryDelayMs = 250,
) {
  ctx.server = await startMockOpenAiServer({ script });
  return createOpenAiGateway({
    apiKey: 'sk-test',
    baseURL: ctx.server.url,
    model: 'mock-model',
    clock: ctx.clock,
    retryDelayMs,
  });
}

s('429 then success: exactly one retry, only after the injected delay', async (ctx) => {
  const gw = await gatewayFor(ctx, [{ status: 429 }, completionChunks({ text: 'second time lucky' })], 250);
  const run = start(gw.streamChat(input));
  await waitFor(() => ctx.clock.pending().includes(250), 'the retry delay to be scheduled');
  assert.is(ctx.server!.requests.length, 1, 'no second request before the delay elapsed');
  assert.equal(run.seen, [], 'nothing reported while waiting to retry');
  ctx.clock.increment(249);
  await new Promise((r) => setImmediate(r));
  assert.is(ctx.server!.requests.length, 1);
  ctx.clock.increment(1);
  const events = await run.finished;
  assert.is(ctx.server!.requests.length, 2);
  assert.is(textOf(events), 'second time lucky');
  assert.is(events.at(-1)!.type, 'done');
  assert.not.ok(events.some((e) => e.type === 'error'));
});

s('429 twice: LLM_RATE_LIMITED, retryable, after exactly two requests', async (ctx) => {
  const gw = await gatewayFor(ctx, [{ status: 429 }, { status: 429 }, completionChunks({ text: 'never' })], 0);
  const events = await collect(gw.streamChat(input));
  assert.equal(typesOf(events), ['error']);
  assert.is(errorOf(events).code, 'LLM_RATE_LIMITED');
  assert.is(errorOf(events).retryable, true);
  assert.is(ctx.server!.requests.length, 2);
});

s('500 twice: one error event LLM_UNAVAILABLE, retryable, with a readable message', async (ctx) => {
  const gw = await gatewayFor(
    ctx,
    [
      { status: 500, body: { error: { message: 'upstream exploded' } } },
      { status: 503 },
      completionChunks({ text: 'never' }),
    ],
    0,
  );
  const events = await collect(gw.streamChat(input));
  assert.equal(typesOf(events), ['error']);
  const error = errorOf(events);
  assert.is(error.code, 'LLM_UNAVAILABLE');
  assert.is(error.retryable, true);
  assert.match(error.message, /HTTP 503/);
  assert.is(ctx.server!.requests.length, 2);
});

s('400 is not retried: LLM_BAD_REQUEST; 401 is LLM_AUTH_FAILED', async (ctx) => {
  const gw = await gatewayFor(
    ctx,
    [{ status: 400, body: { error: { message: 'model not supported' } } }, { status: 401 }],
    0,
  );
  const first = await collect(gw.streamChat(input));
  assert.equal([errorOf(first).code, errorOf(first).retryable], ['LLM_BAD_REQUEST', false]);
  assert.match(errorOf(first).message, /model not supported/);
  assert.is(ctx.server!.requests.length, 1);
  const second = await collect(gw.streamChat(input));
  assert.equal([errorOf(second).code, errorOf(second).retryable], ['LLM_AUTH_FAILED', false]);
  assert.match(errorOf(second).message, /OPENAI_API_KEY/);
  assert.is(ctx.server!.requests.length, 2);
});

s('a stream broken after partial deltas: the deltas, then LLM_STREAM_BROKEN, no retry', async (ctx) => {
  const chunks = completionChunks({ text: ['one ', 'two ', 'three ', 'four'] });
  const gw = await gatewayFor(ctx, [{ chunks, breakAfterChunks: 3 }, completionChunks({ text: 'never' })], 0);
  const events = await collect(gw.streamChat(input));
  assert.is(textOf(events), 'one two ');
  assert.equal(typesOf(events), ['delta', 'delta', 'error']);
  assert.is(errorOf(events).code, 'LLM_STREAM_BROKEN');
  assert.is(errorOf(events).retryable, true);
  assert.is(ctx.server!.requests.length, 1);
});

s('a stream broken before anything was yielded is retried once', async (ctx) => {
  const gw = await gatewayFor(
    ctx,
    [{ chunks: textChunks('lost'), breakAfterChunks: 1 }, completionChunks({ text: 'recovered' })],
    0,
  );
  const events = await collect(gw.streamChat(input));
  assert.is(textOf(events), 'recovered');
  assert.is(events.at(-1)!.type, 'done');
  assert.is(ctx.server!.requests.length, 2);
});

s('an error object inside the stream is LLM_STREAM_BROKEN after the deltas', async (ctx) => {
  const gw = await gatewayFor(ctx, [[...textChunks('partial'), { error: { message: 'overloaded mid-stream' } }]], 0);
  const events = await collect(gw.streamChat(input));
  assert.is(textOf(events), 'partial');
  assert.is(errorOf(events).code, 'LLM_STREAM_BROKEN');
  assert.match(errorOf(events).message, /overloaded mid-stream/);
});

s('no response within timeoutMs: LLM_TIMEOUT after one retry that also times out', async (ctx) => {
  const gw = await gatewayFor(
    ctx,
    [
      { delayMs: 60_000, chunks: [] },
      { delayMs: 60_000, chunks: [] },
    ],
    100,
  );
  const run = start(gw.streamChat({ ...input, timeoutMs: 5_000 }));
  await waitFor(() => ctx.server!.requests.length === 1, 'the first request');
  assert.equal(ctx.clock.pending(), [5_000]);
  ctx.clock.increment(5_000);
  await waitFor(() => ctx.clock.pending().includes(100), 'the retry delay');
  ctx.clock.increment(100);
  await waitFor(() => ctx.server!.requests.length === 2, 'the retry request');
  await waitFor(() => ctx.clock.pending().includes(5_000), 'the second timeout timer');
  ctx.clock.increment(5_000);
  const events = await run.finished;
  assert.equal(typesOf(events), ['error']);
  assert.is(errorOf(events).code, 'LLM_TIMEOUT');
  assert.is(errorOf(events).retryable, true);
  assert.match(errorOf(events).message, /5000 ms/);
});

s('a stream that stalls after deltas: the deltas, then LLM_TIMEOUT, no retry', async (ctx) => {
  const gw = await gatewayFor(
    ctx,
    [{ chunks: textChunks('slow start'), stallAfterChunks: 3 }, completionChunks({ text: 'never' })],
    0,
  );
  const run = start(gw.streamChat({ ...input, timeoutMs: 2_000 }));
  await waitFor(() => textOf(run.seen) === 'slow start', 'the first deltas');
  ctx.clock.increment(2_000);
  const events = await run.finished;
  assert.equal(typesOf(events), ['delta', 'delta', 'error']);
  assert.is(errorOf(events).code, 'LLM_TIMEOUT');
  assert.is(ctx.server!.requests.length, 1);
});

s('abort via the caller signal: LLM_ABORTED, not retried, connection released', async (ctx) => {
  const gw = await gatewayFor(
    ctx,
    [{ chunks: textChunks('hello world'), stallAfterChunks: 2 }, completionChunks({ text: 'never' })],
    0,
  );
  const controller = new AbortController();
  const run = start(gw.streamChat({ ...input, signal: controller.signal }));
  await waitFor(() => run.seen.length === 1, 'the first delta');
  controller.abort();
  const events = await run.finished;
  assert.equal(typesOf(events), ['delta', 'error']);
  assert.equal([errorOf(events).code, errorOf(events).retryable], ['LLM_ABORTED', false]);
  assert.is(ctx.server!.requests.length, 1);
  assert.equal(ctx.clock.pending(), [], 'the timeout timer was cleared');
});

s('abort while waiting for the response, and an already aborted signal', async (ctx) => {
  const gw = await gatewayFor(ctx, [{ delayMs: 60_000, chunks: [] }, completionChunks({ text: 'never' })], 0);
  const controller = new AbortController();
  const run = start(gw.streamChat({ ...input, signal: controller.signal }));
  await waitFor(() => ctx.server!.requests.length === 1, 'the request');
  controller.abort();
  const events = await run.finished;
  assert.equal(typesOf(events), ['error']);
  assert.is(errorOf(events).code, 'LLM_ABORTED');
  const pre = await collect(gw.streamChat({ ...input, signal: AbortSignal.abort() }));
  assert.equal(typesOf(pre), ['error']);
  assert.is(errorOf(pre).code, 'LLM_ABORTED');
  assert.is(ctx.server!.requests.length, 1, 'an aborted call sends nothing');
});

s('abort during the retry delay ends with LLM_ABORTED and no second request', async (ctx) => {
  const gw = await gatewayFor(ctx, [{ status: 500 }, completionChunks({ text: 'never' })], 1_000);
  const controller = new AbortController();
  const run = start(gw.streamChat({ ...input, signal: controller.signal }));
  await waitFor(() => ctx.clock.pending().includes(1_000), 'the retry delay');
  controller.abort();
  const events = await run.finished;
  assert.is(errorOf(events).code, 'LLM_ABORTED');
  assert.is(ctx.server!.requests.length, 1);
});

s('an unreachable endpoint: LLM_UNAVAILABLE naming the endpoint, after one retry', async (ctx) => {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const p = (probe.address() as { port: number }).port;
      probe.close(() => resolve(p));
    });
  });
  let calls = 0;
  const gw = createOpenAiGateway({
    apiKey: 'sk-test',
    baseURL: `http://127.0.0.1:${port}/v1`,
    model: 'm',
    clock: ctx.clock,
    retryDelayMs: 10,
    fetch: (url, init) => {
      calls += 1;
      return fetch(url, init);
    },
  });
  const run = start(gw.streamChat(input));
  await waitFor(() => ctx.clock.pending().includes(10), 'the retry delay');
  ctx.clock.increment(10);
  const events = await run.finished;
  assert.is(calls, 2);
  assert.is(errorOf(events).code, 'LLM_UNAVAILABLE');
  assert.is(errorOf(events).retryable, true);
  assert.match(errorOf(events).message, new RegExp(`127.0.0.1:${port}`));
});

s('a consumer that stops early leaves no timers behind', async (ctx) => {
  const gw = await gatewayFor(ctx, [completionChunks({ text: 'a b c d e' })], 0);
  for await (const event of gw.streamChat(input)) {
    assert.is(event.type, 'delta');
    break;
  }
  assert.equal(ctx.clock.pending(), []);
});

s.run();
