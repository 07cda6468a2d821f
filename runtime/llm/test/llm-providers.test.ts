// Provider choice from the environment, and local OpenAI-compatible servers with their quirks,
// each through the real `openai` SDK against the mock endpoint: Ollama (no usage in the stream,
// a tool call arriving whole in one delta, `keep_alive` in the body), llama.cpp / vLLM style
// (usage in the last choice chunk), and an unknown MIMO_PROVIDER refused at start.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describeLlm, llmFromEnv, llmProviderOf } from '../../llm-from-env.ts';
import { startMockOpenAiServer, type MockOpenAiServer } from '../mock-openai-server.ts';
import { startMockAnthropicServer, anthropicAnswer } from '../mock-anthropic-server.ts';
import { collect, textOf } from './util.ts';

const input = { taskId: 't1', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
const chunk = (
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'llama3.1',
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  ...extra,
});

const choice = suite('provider from the environment');

choice(
  'ANTHROPIC_API_KEY picks Anthropic, OPENAI_* picks OpenAI, nothing picks the offline planner, MIMO_PROVIDER wins',
  () => {
    assert.is(llmProviderOf({}), 'offline');
    assert.is(llmProviderOf({ ANTHROPIC_API_KEY: 'k' }), 'anthropic');
    assert.is(llmProviderOf({ OPENAI_API_KEY: 'k' }), 'openai');
    assert.is(llmProviderOf({ OPENAI_BASE_URL: 'http://x/v1' }), 'openai');
    assert.is(llmProviderOf({ MIMO_PROVIDER: 'ollama', ANTHROPIC_API_KEY: 'k' }), 'ollama');
    assert.is(llmFromEnv({ ANTHROPIC_API_KEY: 'k' }).kind, 'anthropic');
    assert.is(llmFromEnv({ ANTHROPIC_API_KEY: 'k' }).model, 'claude-sonnet-4-5');
    assert.is(llmFromEnv({ MIMO_PROVIDER: 'ollama', MIMO_MODEL: 'qwen2.5' }).model, 'qwen2.5');
    assert.match(
      describeLlm(llmFromEnv({ MIMO_PROVIDER: 'ollama' }), { MIMO_PROVIDER: 'ollama' }),
      /llama3\.1 via http:\/\/127\.0\.0\.1:11434\/v1/,
    );
  },
);

choice('an unknown MIMO_PROVIDER and anthropic without a key are errors that name the fix', () => {
  assert.throws(
    () => llmFromEnv({ MIMO_PROVIDER: 'gemini' }),
    /MIMO_PROVIDER=gemini is not a provider; use one of offline, openai, anthropic, ollama/,
  );
  assert.throws(() => llmFromEnv({ MIMO_PROVIDER: 'anthropic' }), /needs ANTHROPIC_API_KEY/);
});

const local = suite<{ server?: MockOpenAiServer }>('local OpenAI-compatible servers');
local.after.each(async (ctx) => {
  await ctx.server?.close();
  ctx.server = undefined;
});

local('Ollama: keep_alive in the body, no usage chunk, a tool call whole in one delta', async (ctx) => {
  ctx.server = await startMockOpenAiServer({
    script: [
      [
        chunk({ role: 'assistant', content: '' }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_0',
              type: 'function',
              function: { name: 'browser_open', arguments: '{"url":"https://example.com"}' },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
      ],
    ],
  });
  const llm = llmFromEnv({ MIMO_PROVIDER: 'ollama', OLLAMA_BASE_URL: ctx.server.url, MIMO_OLLAMA_KEEP_ALIVE: '30m' });
  const events = await collect(llm.streamChat(input));
  assert.equal(
    events.find((e) => e.type === 'tool_call'),
    { type: 'tool_call', toolCallId: 'call_0', name: 'browser_open', arguments: { url: 'https://example.com' } },
  );
  assert.equal(
    events.at(-1),
    { type: 'done', finishReason: 'tool_calls' },
    'done without usage: none was sent, none is made up',
  );
  assert.is(ctx.server.requests[0]!.keep_alive, '30m');
  assert.is(ctx.server.requests[0]!.model, 'llama3.1');
  assert.is(ctx.server.requestHeaders[0]!.authorization, 'Bearer ollama');
});

local('llama.cpp / vLLM style: usage on the last choice chunk is read', async (ctx) => {
  ctx.server = await startMockOpenAiServer({
    script: [
      [
        chunk({ role: 'assistant', content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'stop', { usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }),
      ],
    ],
  });
  const llm = llmFromEnv({ OPENAI_BASE_URL: ctx.server.url, MIMO_MODEL: 'local-model' });
  const events = await collect(llm.streamChat(input));
  assert.is(textOf(events), 'Hello');
  assert.equal(events.at(-1), {
    type: 'done',
    finishReason: 'stop',
    usage: { promptTokens: 9, completionTokens: 2, totalTokens: 11 },
  });
});

local('Anthropic from the environment (ANTHROPIC_BASE_URL to the mock): text and usage', async () => {
  const server = await startMockAnthropicServer({
    script: [{ events: anthropicAnswer({ text: ['Bonjour'], usage: { input: 3, output: 1 } }) }],
  });
  try {
    const llm = llmFromEnv({ ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: server.url, MIMO_MODEL: 'claude-mock' });
    const events = await collect(llm.streamChat(input));
    assert.is(textOf(events), 'Bonjour');
    assert.equal(events.at(-1), {
      type: 'done',
      finishReason: 'end_turn',
      usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 },
    });
    assert.is(server.requests[0]!.body.model, 'claude-mock');
  } finally {
    await server.close();
  }
});

choice.run();
local.run();
