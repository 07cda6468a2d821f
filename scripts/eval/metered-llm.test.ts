// The eval's meter: with an OpenAI-compatible endpoint (the real `openai` SDK against a local mock
// server, chosen by OPENAI_BASE_URL exactly as the eval does) it takes the endpoint's usage; with
// the offline planner, which reports none, it counts o200k tokens of what was sent and streamed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countTokens } from '../../runtime/agent/token-count.ts';
import { llmFromEnv } from '../../runtime/llm-from-env.ts';
import { completionChunks } from '../../runtime/llm/mock-openai-chunks.ts';
import { startMockOpenAiServer } from '../../runtime/llm/mock-openai-server.ts';
import type { LlmMessage } from '../../runtime/llm/llm-types.ts';
import { meteredLlm, pageContextTokensOf } from './metered-llm.ts';

const test = suite('eval meter');

const state = 'Current browser state: {"tabs":[{"tabId":5,"windowId":1,"active":false}],"activeTabId":1,"taskTabId":5}';
const page = JSON.stringify({
  toolCallId: 'c1',
  name: 'browser_open',
  ok: true,
  result: { page: { tabId: 5, url: 'http://x/', text: 'Hello world', elements: [] } },
  warnings: [],
});
const messages: LlmMessage[] = [
  { role: 'system', content: 'You are Mimo.' },
  { role: 'user', content: 'open http://x/ and summarise it' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ toolCallId: 'c1', name: 'browser_open', arguments: { url: 'http://x/' } }],
  },
  { role: 'tool', toolCallId: 'c1', name: 'browser_open', content: page },
  { role: 'system', content: state },
];

test('an OpenAI-compatible endpoint (OPENAI_BASE_URL): its reported usage is what the eval counts', async () => {
  const server = await startMockOpenAiServer({
    script: [completionChunks({ text: 'A summary.', usage: { promptTokens: 321, completionTokens: 12 } })],
  });
  try {
    const llm = meteredLlm(
      llmFromEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', MIMO_MODEL: 'mock-model' }),
    );
    assert.is(llm.kind, 'openai');
    for await (const _event of llm.streamChat({ taskId: 't1', messages, tools: [] })) void _event;
    const meter = llm.meterOf('t1');
    assert.equal(
      {
        steps: meter.steps,
        prompt: meter.promptTokens,
        completion: meter.completionTokens,
        reported: meter.reportedUsage,
      },
      { steps: 1, prompt: 321, completion: 12, reported: true },
    );
    assert.equal(meter.contextTokens, [countTokens(state) + countTokens(page)]);
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('the offline planner: o200k counts of the prompt and the streamed answer', async () => {
  const llm = meteredLlm(llmFromEnv({}));
  assert.is(llm.kind, 'offline');
  let answer = '';
  for await (const event of llm.streamChat({
    taskId: 't2',
    messages,
    tools: [],
    context: { page: { tabId: 5, url: 'http://x/', text: 'Hello world', elements: [] } },
  })) {
    if (event.type === 'delta') answer += event.content;
  }
  const meter = llm.meterOf('t2');
  assert.is(meter.reportedUsage, false);
  assert.ok(meter.promptTokens > countTokens(page), `${meter.promptTokens}`);
  assert.is(meter.completionTokens, countTokens(answer));
  assert.is(
    pageContextTokensOf(messages.filter((m) => m.role !== 'tool')),
    countTokens(state),
    'no page yet: only the tabs',
  );
});

test.run();
