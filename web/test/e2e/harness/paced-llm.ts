// A scripted LLM for the real-server end-to-end test: each call plays the next step, with a
// pause between text pieces so the UI has a stream to show. Implements the runtime's gateway.
import type { LlmEvent, LlmGateway, StreamChatInput } from '../../../../runtime/llm/llm-types.ts';

export type PacedStep = (input: StreamChatInput) => LlmEvent[];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function pacedLlm(steps: PacedStep[], pauseMs = 80): LlmGateway & { calls: number } {
  const gateway = {
    kind: 'openai' as const,
    model: 'scripted-e2e-model',
    calls: 0,
    async *streamChat(input: StreamChatInput): AsyncGenerator<LlmEvent> {
      const step = steps[gateway.calls++ % steps.length]!;
      for (const event of step(input)) {
        if (event.type === 'delta') await sleep(pauseMs);
        yield event;
      }
    },
  };
  return gateway;
}

export const text = (...parts: string[]): LlmEvent[] => [
  ...parts.map((content) => ({ type: 'delta' as const, content })),
  { type: 'done' as const, usage: { promptTokens: 900, completionTokens: 60, totalTokens: 960 } },
];

export const textThenTool = (parts: string[], name: string, args: Record<string, unknown>, id: string): LlmEvent[] => [
  ...parts.map((content) => ({ type: 'delta' as const, content })),
  { type: 'tool_call' as const, toolCallId: id, name, arguments: args },
  { type: 'done' as const, usage: { promptTokens: 800, completionTokens: 40, totalTokens: 840 } },
];
