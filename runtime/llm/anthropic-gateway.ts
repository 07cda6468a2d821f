// LlmGateway on the official Anthropic TypeScript SDK (Messages API, streaming). One streamChat
// call = one `messages.create({ stream: true })` (at most two attempts): text deltas become
// `delta` events as they arrive, a tool_use block's `input_json_delta` fragments are gathered and
// emitted parsed when the block stops, usage (input, output, cache read and write) goes into
// `done`. Failures end the iteration with exactly one `error` event; the iterator never throws.
// A 429's retry-after (up to MAX_RETRY_AFTER_MS) is honoured before the single retry.
import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { toAnthropicMessages, toAnthropicTools } from './anthropic-messages.ts';
import { classifyAnthropicError, type AnthropicFailure } from './anthropic-error-classify.ts';
import { createSystemClock, type LlmClock } from './llm-clock.ts';
import { llmFailure } from './llm-error-codes.ts';
import {
  DEFAULT_LLM_TIMEOUT_MS,
  type LlmDone,
  type LlmEvent,
  type LlmGateway,
  type LlmToolCall,
  type StreamChatInput,
} from './llm-types.ts';
import {
  guardAttempt,
  isAttemptGuard,
  notifyRecorder,
  streamWithOneRetry,
  type AttemptState,
} from './gateway-attempt.ts';

export interface AnthropicGatewayOptions {
  apiKey: string;
  /** Default https://api.anthropic.com (the SDK's); tests point it at a local mock. */
  baseURL?: string;
  model: string;
  /** max_tokens of each answer. Default 4096. */
  maxTokens?: number;
  fetch?: typeof fetch;
  clock?: LlmClock;
  /** Wait before the single retry of a retryable failure without retry-after. Default 1000. */
  retryDelayMs?: number;
  /** Every raw stream event as received (for the recorder). Exceptions are ignored. */
  onEvent?(event: RawMessageStreamEvent, info: { taskId: string; attempt: number }): void;
}

/** A retry-after longer than this is not waited for: the failure is reported instead. */
export const MAX_RETRY_AFTER_MS = 30_000;

interface ToolBlock {
  id: string;
  name: string;
  json: string;
}

export function createAnthropicGateway(options: AnthropicGatewayOptions): LlmGateway {
  const clock = options.clock ?? createSystemClock();
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    timeout: DEFAULT_LLM_TIMEOUT_MS,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const endpoint = client.baseURL;

  async function* attempt(
    input: StreamChatInput,
    attemptNo: number,
    state: AttemptState,
  ): AsyncGenerator<LlmEvent, AnthropicFailure | null> {
    if (!Array.isArray(input.messages))
      return llmFailure('LLM_BAD_REQUEST', 'Cannot send the conversation: messages is not an array.');
    const converted = toAnthropicMessages(input.messages);
    if (!converted.ok) return llmFailure('LLM_BAD_REQUEST', `Cannot send the conversation: ${converted.problem}.`);
    const guard = guardAttempt(clock, endpoint, input);
    if (!isAttemptGuard(guard)) return guard;
    const { ctx } = guard;
    try {
      const tools = toAnthropicTools(Array.isArray(input.tools) ? input.tools : []);
      const stream = await client.messages.create(
        {
          model: options.model,
          max_tokens: options.maxTokens ?? 4096,
          messages: converted.messages,
          ...(converted.system.length ? { system: converted.system } : {}),
          ...(tools.length ? { tools } : {}),
          stream: true,
        },
        {
          signal: guard.signal,
          timeout: ctx.timeoutMs,
          ...(input.traceId ? { headers: { 'x-mimo-trace-id': input.traceId } } : {}),
        },
      );
      ctx.phase = 'stream';
      const blocks = new Map<number, ToolBlock>();
      const done: LlmDone = { type: 'done' };
      let inputTokens = 0;
      let outputTokens = 0;
      let cacheRead = 0;
      let cacheWrite = 0;
      let stopped = false;
      for await (const event of stream) {
        notifyRecorder(options.onEvent, event, { taskId: input.taskId, attempt: attemptNo });
        switch (event.type) {
          case 'message_start': {
            const usage = event.message.usage;
            inputTokens = usage.input_tokens ?? 0;
            outputTokens = usage.output_tokens ?? 0;
            cacheRead = usage.cache_read_input_tokens ?? 0;
            cacheWrite = usage.cache_creation_input_tokens ?? 0;
            break;
          }
          case 'content_block_start':
            if (event.content_block.type === 'tool_use')
              blocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta' && event.delta.text) {
              state.yielded = true;
              yield { type: 'delta', content: event.delta.text };
            } else if (event.delta.type === 'input_json_delta') {
              const block = blocks.get(event.index);
              if (block) block.json += event.delta.partial_json;
            }
            break;
          case 'content_block_stop': {
            const block = blocks.get(event.index);
            if (block) {
              blocks.delete(event.index);
              state.yielded = true;
              yield toolCallOf(block);
            }
            break;
          }
          case 'message_delta':
            if (event.delta.stop_reason) done.finishReason = event.delta.stop_reason;
            if (event.usage?.output_tokens != null) outputTokens = event.usage.output_tokens;
            if (event.usage?.input_tokens != null) inputTokens = event.usage.input_tokens;
            break;
          case 'message_stop':
            stopped = true;
            break;
        }
      }
      if (ctx.timedOut || ctx.aborted) return classifyAnthropicError(undefined, ctx);
      if (!stopped) return llmFailure('LLM_STREAM_BROKEN', 'The Anthropic stream ended without message_stop.');
      const promptTokens = inputTokens + cacheRead + cacheWrite;
      done.usage = {
        promptTokens,
        completionTokens: outputTokens,
        totalTokens: promptTokens + outputTokens,
        ...(cacheRead ? { cacheReadTokens: cacheRead } : {}),
        ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
      };
      state.yielded = true;
      yield done;
      return null;
    } catch (error) {
      return classifyAnthropicError(error, ctx);
    } finally {
      guard.end();
    }
  }

  function streamChat(input: StreamChatInput): AsyncGenerator<LlmEvent, void> {
    return streamWithOneRetry<AnthropicFailure>(
      clock,
      input,
      (attemptNo, state) => attempt(input, attemptNo, state),
      (failure) => ((failure.retryAfterMs ?? 0) <= MAX_RETRY_AFTER_MS ? (failure.retryAfterMs ?? retryDelayMs) : null),
    );
  }

  return { kind: 'anthropic', model: options.model, streamChat };
}

function toolCallOf(block: ToolBlock): LlmToolCall {
  const call: LlmToolCall = { type: 'tool_call', toolCallId: block.id, name: block.name, arguments: {} };
  if (block.json.trim() === '') return call;
  try {
    const parsed = JSON.parse(block.json) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      call.arguments = parsed as Record<string, unknown>;
    else call.argumentsError = 'the tool input is not a JSON object';
  } catch (error) {
    call.argumentsError = `the tool input is not valid JSON: ${(error as Error).message}`;
  }
  return call;
}
