import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMockOpenAiServer, type MockOpenAiServer } from '../mock-openai-server.ts';
import { chunksFromRecording, completionChunks, textChunks, toolCallChunks } from '../mock-openai-chunks.ts';
import { createOpenAiGateway } from '../openai-gateway.ts';
import { collect, textOf } from './util.ts';

const s = suite<{ server?: MockOpenAiServer }>('mock OpenAI server');
s.after.each(async (ctx) => {
  await ctx.server?.close();
  ctx.server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

s('streams SSE: one data line per chunk, then [DONE]', async (ctx) => {
  const chunks = textChunks(['a', 'b']);
  ctx.server = await startMockOpenAiServer({ script: [chunks] });
  const response = await post(ctx.server.url, { model: 'm', stream: true, messages: [] });
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'text/event-stream');
  assert.is(
    await response.text(),
    [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'].join(''),
  );
  assert.equal(ctx.server.requests, [{ model: 'm', stream: true, messages: [] }]);
});

s('a function script sees each request with its index', async (ctx) => {
  ctx.server = await startMockOpenAiServer({
    script: ({ index, body }) =>
      textChunks(`reply ${index} to ${String((body.messages as Array<{ content: string }>)[0]!.content)}`),
  });
  const gw = createOpenAiGateway({ apiKey: 'k', baseURL: ctx.server.url, model: 'm' });
  const first = textOf(
    await collect(gw.streamChat({ taskId: 't', messages: [{ role: 'user', content: 'one' }], tools: [] })),
  );
  const second = textOf(
    await collect(gw.streamChat({ taskId: 't', messages: [{ role: 'user', content: 'two' }], tools: [] })),
  );
  assert.equal([first, second], ['reply 0 to one', 'reply 1 to two']);
});

s('errors: unknown route 404, non-streaming 400, bad JSON 400, exhausted script 500', async (ctx) => {
  ctx.server = await startMockOpenAiServer({ script: [] });
  assert.is((await fetch(`${ctx.server.url}/models`)).status, 404);
  assert.is((await post(ctx.server.url, { stream: false })).status, 400);
  assert.is((await fetch(`${ctx.server.url}/chat/completions`, { method: 'POST', body: '{oops' })).status, 400);
  const exhausted = await post(ctx.server.url, { stream: true });
  assert.is(exhausted.status, 500);
  assert.match(
    ((await exhausted.json()) as { error: { message: string } }).error.message,
    /no scripted response for request #1/,
  );
});

s('a scripted status answers with an OpenAI-style error body', async (ctx) => {
  ctx.server = await startMockOpenAiServer({
    script: [{ status: 429 }, { status: 503, body: { error: { message: 'custom' } } }],
  });
  const limited = await post(ctx.server.url, { stream: true });
  assert.is(limited.status, 429);
  assert.is(((await limited.json()) as { error: { type: string } }).error.type, 'rate_limit_exceeded');
  assert.equal(await (await post(ctx.server.url, { stream: true })).json(), { error: { message: 'custom' } });
});

s('breakAfterChunks destroys the socket after exactly n chunks', async (ctx) => {
  const chunks = textChunks(['a', 'b', 'c', 'd']);
  ctx.server = await startMockOpenAiServer({ script: [{ chunks, breakAfterChunks: 2 }] });
  const response = await post(ctx.server.url, { stream: true });
  const reader = response.body!.getReader();
  let received = '';
  let failed = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
  } catch {
    failed = true;
  }
  assert.ok(failed, 'the reader sees a broken connection, not a clean end');
  assert.is(
    received,
    chunks
      .slice(0, 2)
      .map((c) => `data: ${JSON.stringify(c)}\n\n`)
      .join(''),
  );
});

s('close() ends stalled responses and pending delays', async (ctx) => {
  const server = await startMockOpenAiServer({
    script: [
      { chunks: textChunks('x'), stallAfterChunks: 1 },
      { delayMs: 60_000, chunks: [] },
    ],
  });
  const stalled = await post(server.url, { stream: true });
  const delayed = post(server.url, { stream: true }).catch((e: unknown) => e);
  const reading = stalled.text().catch((e: unknown) => e);
  while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 2));
  await server.close();
  assert.instance(await reading, Error);
  assert.instance(await delayed, Error);
  ctx.server = undefined;
});

s('chunksFromRecording: JSON array, its text, JSON Lines and SSE text give the same chunks', () => {
  const chunks = completionChunks({
    text: 'hi',
    toolCalls: [{ id: 'c1', name: 'browser_open', arguments: '{"url":"x"}' }],
  });
  const sse = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
  for (const recording of [chunks, JSON.stringify(chunks), chunks.map((c) => JSON.stringify(c)).join('\n'), sse]) {
    assert.equal(chunksFromRecording(recording), { ok: true, chunks });
  }
  assert.equal(chunksFromRecording('[{"object":"chat.completion","choices":[]}]'), {
    ok: false,
    error: 'recording item 0 is not a chat.completion.chunk object',
  });
  assert.is(chunksFromRecording('{nope').ok, false);
  assert.is(chunksFromRecording(42).ok, false);
});

s('a recording replays through the real SDK to the same events', async (ctx) => {
  const recorded: unknown[] = [];
  const chunks = [
    ...textChunks('Opening.'),
    ...toolCallChunks([{ id: 'c1', name: 'browser_open', arguments: '{"url":"https://example.com"}' }]),
    ...completionChunks({}).slice(-2),
  ];
  ctx.server = await startMockOpenAiServer({ script: [chunks] });
  const live = createOpenAiGateway({
    apiKey: 'k',
    baseURL: ctx.server.url,
    model: 'm',
    onChunk: (chunk) => recorded.push(chunk),
  });
  const liveEvents = await collect(
    live.streamChat({ taskId: 't', messages: [{ role: 'user', content: 'go' }], tools: [] }),
  );
  await ctx.server.close();
  const replay = chunksFromRecording(JSON.stringify(recorded));
  assert.ok(replay.ok);
  ctx.server = await startMockOpenAiServer({ script: [replay.ok ? replay.chunks : []] });
  const replayed = createOpenAiGateway({ apiKey: 'k', baseURL: ctx.server.url, model: 'm' });
  assert.equal(
    await collect(replayed.streamChat({ taskId: 't', messages: [{ role: 'user', content: 'go' }], tools: [] })),
    liveEvents,
  );
  assert.ok(liveEvents.some((e) => e.type === 'tool_call' && e.arguments.url === 'https://example.com'));
});

s.run();
