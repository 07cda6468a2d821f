// LlmGateway on the official `openai` SDK, for any OpenAI-compatible endpoint. One streamChat
// call = one chat.completions stream (at most two attempts): content chunks become `delta`
// events as they arrive, tool-call fragments are gathered per index and emitted parsed when the
// choice finishes, the usage chunk goes into `done`. Failures end the iteration with exactly one
// `error` event (codes in llm-error-codes.ts); the iterator never throws.
import OpenAI, { type ClientOptions } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { nanoid } from 'nanoid';
import { createSystemClock, type LlmClock } from './llm-clock.ts';
import { llmFailure, type LlmFailure } from './llm-error-codes.ts';
import {
  DEFAULT_LLM_TIMEOUT_MS,
  type LlmDone,
  type LlmEvent,
  type LlmGateway,
  type StreamChatInput,
} from './llm-types.ts';
import { classifyOpenAiError, type FailureContext } from './openai-error-classify.ts';
import { waitOrAbort } from './wait-or-abort.ts';
import { toOpenAiMessages, toOpenAiTools } from './openai-messages.ts';
import { createToolCallAccumulator } from './tool-call-accumulator.ts';

export interface OpenAiChunkInfo {
  taskId: string;
  /** 1 for the first try, 2 for the retry. */
  attempt: number;
}

export interface OpenAiGatewayOptions {
  apiKey: string;
  /** e.g. https://api.openai.com/v1 (the SDK default) or any OpenAI-compatible base URL. */
  baseURL?: string;
  model: string;
  fetch?: ClientOptions['fetch'];
  clock?: LlmClock;
  /** Wait before the single retry of a retryable failure. Default 1000. */
  retryDelayMs?: number;
  /** Fields added to every request body as they are (e.g. Ollama's `keep_alive`). */
  extraBody?: Record<string, unknown>;
  /** Every raw `chat.completion.chunk` as received (for the recorder). Exceptions are ignored. */
  onChunk?(chunk: ChatCompletionChunk, info: OpenAiChunkInfo): void;
}

interface AttemptState {
  /** Something reached the caller: from then on a failure is reported, never retried. */
  yielded: boolean;
}

export function createOpenAiGateway(options: OpenAiGatewayOptions): LlmGateway {
  const clock = options.clock ?? createSystemClock();
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: DEFAULT_LLM_TIMEOUT_MS,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const endpoint = client.baseURL;

  async function* attempt(
    input: StreamChatInput,
    attemptNo: number,
    state: AttemptState,
  ): AsyncGenerator<LlmEvent, LlmFailure | null> {
    const requested = input.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    // The SDK insists on a positive integer; our own timer uses the same value.
    const timeoutMs = Number.isFinite(requested) && requested > 0 ? Math.ceil(requested) : DEFAULT_LLM_TIMEOUT_MS;
    if (!Array.isArray(input.messages))
      return llmFailure('LLM_BAD_REQUEST', 'Cannot send the conversation: messages is not an array.');
    const converted = toOpenAiMessages(input.messages);
    if (!converted.ok) return llmFailure('LLM_BAD_REQUEST', `Cannot send the conversation: ${converted.problem}.`);
    const ctx: FailureContext = { endpoint, timeoutMs, timedOut: false, aborted: false, phase: 'request' };
    if (input.signal?.aborted) return llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
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
      const tools = toOpenAiTools(Array.isArray(input.tools) ? input.tools : []);
      const stream = await client.chat.completions.create(
        {
          ...options.extraBody,
          model: options.model,
          messages: converted.messages,
          ...(tools.length > 0 ? { tools } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        {
          signal: controller.signal,
          timeout: timeoutMs,
          ...(input.traceId ? { headers: { 'x-mimo-trace-id': input.traceId } } : {}),
        },
      );
      ctx.phase = 'stream';
      const calls = createToolCallAccumulator(() => `call_${nanoid(12)}`);
      const done: LlmDone = { type: 'done' };
      for await (const chunk of stream) {
        if (options.onChunk) {
          try {
            options.onChunk(chunk, { taskId: input.taskId, attempt: attemptNo });
          } catch {
            // A recorder failure must not break the conversation.
          }
        }
        if (chunk.usage) {
          done.usage = {
            promptTokens: chunk.usage.prompt_tokens ?? 0,
            completionTokens: chunk.usage.completion_tokens ?? 0,
            totalTokens: chunk.usage.total_tokens ?? 0,
          };
        }
        for (const choice of chunk.choices ?? []) {
          if (choice.index !== 0) continue; // we ask for one choice; ignore anything else
          const delta = choice.delta;
          const text = delta?.content ?? delta?.refusal;
          if (text) {
            state.yielded = true;
            yield { type: 'delta', content: text };
          }
          for (const fragment of delta?.tool_calls ?? []) calls.add(fragment);
          if (choice.finish_reason) {
            done.finishReason = choice.finish_reason;
            for (const call of calls.take()) {
              state.yielded = true;
              yield call;
            }
          }
        }
      }
      // The SDK ends the iteration silently when its request is aborted.
      if (ctx.timedOut || ctx.aborted) return classifyOpenAiError(undefined, ctx);
      for (const call of calls.take()) {
        state.yielded = true;
        yield call;
      }
      state.yielded = true;
      yield done;
      return null;
    } catch (error) {
      return classifyOpenAiError(error, ctx);
    } finally {
      clock.clearTimeout(timer);
      input.signal?.removeEventListener('abort', onCallerAbort);
      controller.abort(); // closes the connection if the caller stopped iterating early
    }
  }

  async function* streamChat(input: StreamChatInput): AsyncGenerator<LlmEvent, void> {
    const state: AttemptState = { yielded: false };
    let failure = yield* attempt(input, 1, state);
    if (failure && failure.retryable && !state.yielded) {
      const waited = await waitOrAbort(clock, retryDelayMs, input.signal);
      failure = waited
        ? yield* attempt(input, 2, state)
        : llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
    }
    if (failure) yield { type: 'error', code: failure.code, message: failure.message, retryable: failure.retryable };
  }

  return { kind: 'openai', model: options.model, streamChat };
}
