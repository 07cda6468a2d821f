// A scripted LlmGateway for orchestrator tests: each call to streamChat plays the next step of
// the script (a function of the conversation), so tests control exactly what the "model" does.
import type { LlmEvent, LlmGateway, StreamChatInput } from '../llm/llm-types.ts';

export type ScriptStep = (input: StreamChatInput) => LlmEvent[] | Promise<LlmEvent[]>;

export function scriptedLlm(steps: ScriptStep[]): LlmGateway & { calls: StreamChatInput[] } {
  const calls: StreamChatInput[] = [];
  return {
    kind: 'openai',
    model: 'scripted-test-model',
    calls,
    async *streamChat(input) {
      calls.push(structuredClone({ ...input, signal: undefined }));
      const step = steps[calls.length - 1];
      if (!step) {
        yield { type: 'delta', content: '(script exhausted)' };
        yield { type: 'done' };
        return;
      }
      for (const event of await step(input)) yield event;
    },
  };
}

export const say = (...parts: string[]): LlmEvent[] => [
  ...parts.map((content) => ({ type: 'delta' as const, content })),
  { type: 'done' as const, usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
];
export const callTool = (name: string, args: Record<string, unknown>, id = `call-${name}`): LlmEvent[] => [
  { type: 'tool_call', toolCallId: id, name, arguments: args },
  { type: 'done', usage: { promptTokens: 20, completionTokens: 3, totalTokens: 23 } },
];
