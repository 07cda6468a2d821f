// The agent loop on the Anthropic gateway, end to end: a web client's message, the model's
// tool_use (a click with no extension connected), the tool's error sent back as a tool_result
// block, and the final answer streamed to the web client; the official SDK against the mock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { createAnthropicGateway } from '../llm/anthropic-gateway.ts';
import { anthropicAnswer, startMockAnthropicServer, type MockAnthropicServer } from '../llm/mock-anthropic-server.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000A01';
const test = suite<{ rt?: TestRuntime; mock?: MockAnthropicServer }>('agent loop on Anthropic');

test.after.each(async (ctx) => {
  await ctx.rt?.close();
  await ctx.mock?.close();
});

test('tool_use -> tool_result with the tool error -> the streamed answer reaches the web client', async (ctx) => {
  const mock = (ctx.mock = await startMockAnthropicServer({
    script: [
      {
        events: anthropicAnswer({
          text: ['Clicking.'],
          tools: [{ id: 'toolu_click', name: 'browser_click', json: ['{"clickId"', ': 3}'] }],
        }),
      },
      { events: anthropicAnswer({ text: ['The browser ', 'is not connected.'] }) },
    ],
  }));
  const llm = createAnthropicGateway({
    apiKey: 'sk-ant-test',
    baseURL: mock.url,
    model: 'claude-mock',
    retryDelayMs: 50,
  });
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  const rt = (ctx.rt = await startRuntime({
    control: (services) => createAgentOrchestrator(services, { llm, inspection }),
  }));
  const web = await connectWeb(rt.server.url);
  const ack = await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-a1',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'click the third thing',
  });
  assert.is(ack.ok, true);
  await eventually(() => mock.requests.length === 2, 5_000, 'the second model call');
  const second = mock.requests[1]!.body as {
    messages: Array<{ role: string; content: Array<Record<string, any>> }>;
    system: Array<{ text: string }>;
  };
  assert.ok(second.system[0]!.text.length > 50, 'the system prompt is sent as the system block');
  const assistant = second.messages.find((m) => m.role === 'assistant')!;
  assert.equal(
    assistant.content.find((b) => b.type === 'tool_use'),
    { type: 'tool_use', id: 'toolu_click', name: 'browser_click', input: { clickId: 3 } },
  );
  const result = second.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_result')!;
  assert.is(result.tool_use_id, 'toolu_click');
  assert.ok(/"code"/.test(String(result.content)), `the tool error reaches the model: ${result.content}`);
  const streamed = () =>
    web.events
      .filter((e: any) => e.event.type === 'chatDelta')
      .map((e: any) => e.event.delta?.content ?? '')
      .join('');
  await eventually(() => streamed().includes('is not connected.'), 5_000, 'the answer on the web client');
  web.close();
});

test.run();
