// Our messages and tools in the shape of Anthropic's Messages API. Pure. System turns become the
// top-level `system` blocks; tool turns become `tool_result` blocks of a user turn; consecutive
// turns of one role are merged (the API wants user and assistant to alternate). Prompt caching:
// the system prompt and the tool list (the stable prefix of every step) carry `cache_control`.
import type {
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { LlmMessage, LlmTool } from './llm-types.ts';

export type AnthropicRequestParts =
  { ok: true; system: TextBlockParam[]; messages: MessageParam[] } | { ok: false; problem: string };

type Block = TextBlockParam | ToolUseBlockParam | ToolResultBlockParam;

export function toAnthropicMessages(messages: LlmMessage[]): AnthropicRequestParts {
  const systemText: string[] = [];
  const out: Array<{ role: 'user' | 'assistant'; content: Block[] }> = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
        systemText.push(message.content);
        break;
      case 'user':
        push('user', message.content ? [{ type: 'text', text: message.content }] : []);
        break;
      case 'assistant': {
        const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
        for (const call of message.toolCalls ?? [])
          blocks.push({ type: 'tool_use', id: call.toolCallId, name: call.name, input: call.arguments ?? {} });
        push('assistant', blocks);
        break;
      }
      case 'tool':
        if (!message.toolCallId) return { ok: false, problem: `message ${index} (role tool) has no toolCallId` };
        push('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }]);
        break;
      default:
        return {
          ok: false,
          problem: `message ${index} has an unknown role "${String((message as { role: unknown }).role)}"`,
        };
    }
  }
  if (out.length === 0 || out[0]!.role !== 'user')
    return { ok: false, problem: 'the conversation has no user turn before the first answer' };
  const system: TextBlockParam[] = systemText.length
    ? [{ type: 'text', text: systemText.join('\n\n'), cache_control: { type: 'ephemeral' } }]
    : [];
  return { ok: true, system, messages: out };
}

const emptyObjectSchema = { type: 'object' as const, properties: {} };

export function toAnthropicTools(tools: LlmTool[]): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: (isPlainObject(tool.schema) && tool.schema.type === 'object'
      ? tool.schema
      : emptyObjectSchema) as Tool['input_schema'],
    // One breakpoint after the last tool caches the whole tool list.
    ...(index === tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
  }));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
