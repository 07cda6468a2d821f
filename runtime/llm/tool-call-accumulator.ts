// Tool-call fragments of a chat-completions stream, gathered per `index` and parsed once the
// call is complete. Bad JSON never throws: the call comes out with `arguments: {}` and an
// `argumentsError` the orchestrator turns into a tool error for the model.
import type { LlmToolCall } from './llm-types.ts';

export interface ToolCallFragment {
  index: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface PendingCall {
  index: number;
  id: string;
  name: string;
  argumentsText: string;
}

export interface ToolCallAccumulator {
  add(fragment: ToolCallFragment): void;
  /** True when at least one fragment arrived and was not taken yet. */
  hasPending(): boolean;
  /** The calls gathered so far, in index order, parsed; clears them. */
  take(): LlmToolCall[];
}

export function createToolCallAccumulator(makeId: () => string): ToolCallAccumulator {
  const pending = new Map<number, PendingCall>();
  return {
    add(fragment) {
      let call = pending.get(fragment.index);
      if (!call) {
        call = { index: fragment.index, id: '', name: '', argumentsText: '' };
        pending.set(fragment.index, call);
      }
      if (fragment.id && !call.id) call.id = fragment.id;
      const name = fragment.function?.name;
      // OpenAI sends the name whole in the first fragment; some compatible servers repeat it,
      // a few split it. Repeats are kept once, pieces are joined.
      if (name && name !== call.name) call.name = call.name ? call.name + name : name;
      const args = fragment.function?.arguments;
      if (args) call.argumentsText += args;
    },
    hasPending: () => pending.size > 0,
    take() {
      const calls = [...pending.values()].sort((a, b) => a.index - b.index);
      pending.clear();
      return calls.map((call) => toToolCall(call, makeId));
    },
  };
}

export function parseToolArguments(text: string): { arguments: Record<string, unknown>; error?: string } {
  if (text.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const preview = text.length > 200 ? `${text.slice(0, 200)}...` : text;
    return { arguments: {}, error: `arguments are not valid JSON (${(error as Error).message}): ${preview}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      arguments: {},
      error: `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}`,
    };
  }
  return { arguments: value as Record<string, unknown> };
}

function toToolCall(call: PendingCall, makeId: () => string): LlmToolCall {
  const parsed = parseToolArguments(call.argumentsText);
  const out: LlmToolCall = {
    type: 'tool_call',
    toolCallId: call.id || makeId(),
    name: call.name,
    arguments: parsed.arguments,
  };
  if (parsed.error !== undefined) out.argumentsError = parsed.error;
  else if (!call.name) out.argumentsError = 'the model sent a tool call without a function name';
  return out;
}
