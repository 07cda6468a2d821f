// A runtime in a child process for the kill -9 tests: persistent store under argv[2], an LLM that
// answers by the user's words ("open" opens a page, so the task is running with an action in
// flight; "fail" is an LLM error, so the task ends in error; anything else is a short answer).
// Prints {"url"}.
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { LlmEvent, LlmGateway } from '../llm/llm-types.ts';
import { createServer } from '../server.ts';
import { callTool, say } from './scripted-llm.ts';
import { testConfig } from './util.ts';

const dir = process.argv[2]!;
const llm: LlmGateway = {
  kind: 'openai',
  model: 'crash-test-model',
  async *streamChat(input) {
    const last = [...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const answered = input.messages.at(-2)?.role === 'tool';
    const events: LlmEvent[] = answered
      ? say('done')
      : /open/.test(last)
        ? callTool('browser_open', { url: 'http://127.0.0.1:9/' })
        : /fail/.test(last)
          ? [{ type: 'error', code: 'LLM_UNAVAILABLE', message: 'the model is down', retryable: true }]
          : say('hi');
    for (const event of events) yield event;
  },
};
const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
const server = await createServer({
  config: testConfig(dir),
  log: () => {},
  control: (services) => createAgentOrchestrator(services, { llm, inspection }),
});
console.log(JSON.stringify({ url: server.url }));
