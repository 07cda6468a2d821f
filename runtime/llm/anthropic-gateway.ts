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
import type { FailureContext } from './openai-error-classify.ts';
import { waitOrAbort } from './wait-or-abort.ts';

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
    state: { yielded: boolean },
  ): AsyncGenerator<LlmEvent, AnthropicFailure | null> {
    const requested = input.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    const timeoutMs = Number.isFinite(requested) && requested > 0 ? Math.ceil(requested) : DEFAULT_LLM_TIMEOUT_MS;
    if (!Array.isArray(input.messages))
      return llmFailure('LLM_BAD_REQUEST', 'Cannot send the conversation: messages is not an array.');
    const converted = toAnthropicMessages(input.messages);
    if (!converted.ok) return llmFailure('LLM_BAD_REQUEST', `Cannot send the conversation: ${converted.problem}.`);
    if (input.signal?.aborted) return llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
    const ctx: FailureContext = { endpoint, timeoutMs, timedOut: false, aborted: false, phase: 'request' };
    const controller = new AbortController();
    const onCallerAbort = () => {
      ctx.aborted = true;
      controller.abort();
    };
    input.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = clock.setTimeout(() => {
      ctx.timedOut = true;
      controller.abort();
    }, timeoutMs);
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
          signal: controller.signal,
          timeout: timeoutMs,
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
        if (options.onEvent) {
          try {
            options.onEvent(event, { taskId: input.taskId, attempt: attemptNo });
          } catch {
            // A recorder failure must not break the conversation.
          }
        }
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
      clock.clearTimeout(timer);
      input.signal?.removeEventListener('abort', onCallerAbort);
      controller.abort();
    }
  }

  async function* streamChat(input: StreamChatInput): AsyncGenerator<LlmEvent, void> {
    const state = { yielded: false };
    let failure = yield* attempt(input, 1, state);
    if (failure && failure.retryable && !state.yielded && (failure.retryAfterMs ?? 0) <= MAX_RETRY_AFTER_MS) {
      const waited = await waitOrAbort(clock, failure.retryAfterMs ?? retryDelayMs, input.signal);
      failure = waited
        ? yield* attempt(input, 2, state)
        : llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
    }
    if (failure) yield { type: 'error', code: failure.code, message: failure.message, retryable: failure.retryable };
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
