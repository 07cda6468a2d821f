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
import { classifyOpenAiError } from './openai-error-classify.ts';
import {
  guardAttempt,
  isAttemptGuard,
  notifyRecorder,
  streamWithOneRetry,
  type AttemptState,
} from './gateway-attempt.ts';
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
    if (!Array.isArray(input.messages))
      return llmFailure('LLM_BAD_REQUEST', 'Cannot send the conversation: messages is not an array.');
    const converted = toOpenAiMessages(input.messages);
    if (!converted.ok) return llmFailure('LLM_BAD_REQUEST', `Cannot send the conversation: ${converted.problem}.`);
    const guard = guardAttempt(clock, endpoint, input);
    if (!isAttemptGuard(guard)) return guard;
    const { ctx } = guard;
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
          signal: guard.signal,
          timeout: ctx.timeoutMs,
          ...(input.traceId ? { headers: { 'x-mimo-trace-id': input.traceId } } : {}),
        },
      );
      ctx.phase = 'stream';
      const calls = createToolCallAccumulator(() => `call_${nanoid(12)}`);
      const done: LlmDone = { type: 'done' };
      for await (const chunk of stream) {
        notifyRecorder(options.onChunk, chunk, { taskId: input.taskId, attempt: attemptNo });
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
      guard.end(); // closes the connection if the caller stopped iterating early
    }
  }

  function streamChat(input: StreamChatInput): AsyncGenerator<LlmEvent, void> {
    return streamWithOneRetry(
      clock,
      input,
      (attemptNo, state) => attempt(input, attemptNo, state),
      () => retryDelayMs,
    );
  }

  return { kind: 'openai', model: options.model, streamChat };
}
