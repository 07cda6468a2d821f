// A scripted LLM that acts on what the person wrote, for the task-state end-to-end test:
//   "open <url> ..."          -> browser_open(url), then a short answer
//   "click ... <url>"         -> browser_open(url), browser_click(1), then an answer
//   "fail ..."                -> an LLM error (the task fails)
// Each call looks at the conversation so far, so the same gateway serves many tasks.
import type { LlmEvent, LlmGateway, StreamChatInput } from '../../../../runtime/llm/llm-types.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usage = { promptTokens: 500, completionTokens: 30, totalTokens: 530 };

function plan(input: StreamChatInput): LlmEvent[] {
  const lastUser = [...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const afterUser = input.messages.slice(
    input.messages.lastIndexOf([...input.messages].reverse().find((m) => m.role === 'user')!) + 1,
  );
  const toolsDone = afterUser.filter((m) => m.role === 'tool').length;
  const url = /https?:\/\/\S+|file:\S+/.exec(lastUser)?.[0];
  if (/^fail/i.test(lastUser))
    return [{ type: 'error', code: 'RATE_LIMITED', message: 'the model endpoint answered 429', retryable: true }];
  const call = (name: string, args: Record<string, unknown>): LlmEvent[] => [
    { type: 'tool_call', toolCallId: `call-${name}-${Math.random().toString(36).slice(2, 8)}`, name, arguments: args },
    { type: 'done', usage },
  ];
  if (url && toolsDone === 0) return [{ type: 'delta', content: 'Opening it.' }, ...call('browser_open', { url })];
  if (/^click/i.test(lastUser) && toolsDone === 1) return call('browser_click', { clickId: 1 });
  return [
    { type: 'delta', content: 'Done: ' },
    { type: 'delta', content: 'the page is **Example Domain**.' },
    { type: 'done', usage },
  ];
}

export function intentLlm(pauseMs = 40): LlmGateway {
  return {
    kind: 'openai',
    model: 'intent-e2e-model',
    async *streamChat(input) {
      for (const event of plan(input)) {
        if (event.type === 'delta') await sleep(pauseMs);
        yield event;
      }
    },
  };
}
