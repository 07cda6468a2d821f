// Our messages and tools in OpenAI's chat-completions shape. Pure; a message the API would
// reject for sure (a tool turn without toolCallId) comes back as a problem string instead.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { LlmMessage, LlmTool } from './llm-types.ts';

export type OpenAiMessagesResult =
  { ok: true; messages: ChatCompletionMessageParam[] } | { ok: false; problem: string };

export function toOpenAiMessages(messages: LlmMessage[]): OpenAiMessagesResult {
  const out: ChatCompletionMessageParam[] = [];
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
      case 'user':
        out.push({ role: message.role, content: message.content });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          out.push({ role: 'assistant', content: message.content });
          break;
        }
        out.push({
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.toolCallId,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
          })),
        });
        break;
      }
      case 'tool':
        if (!message.toolCallId) return { ok: false, problem: `message ${index} (role tool) has no toolCallId` };
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        break;
      default:
        return {
          ok: false,
          problem: `message ${index} has an unknown role "${String((message as { role: unknown }).role)}"`,
        };
    }
  }
  return { ok: true, messages: out };
}

const emptyObjectSchema = { type: 'object', properties: {} };

export function toOpenAiTools(tools: LlmTool[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      description: tool.description,
      parameters: (isPlainObject(tool.schema) ? tool.schema : emptyObjectSchema) as Record<string, unknown>,
    },
  }));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
