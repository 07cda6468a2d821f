// What went wrong in one chat-completions attempt, as an LlmFailure (code + readable message +
// retryable). `timedOut` / `aborted` say which of our own abort reasons fired, since the SDK
// reports both as a bare abort (or, mid-stream, as a silent end of the stream).
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { llmFailure, type LlmFailure } from './llm-error-codes.ts';
import type { FailureContext } from './gateway-attempt.ts';

export type { FailureContext };

export function classifyOpenAiError(error: unknown, ctx: FailureContext): LlmFailure {
  if (ctx.aborted) return llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
  if (ctx.timedOut || error instanceof APIConnectionTimeoutError) return timeoutFailure(ctx);
  if (error instanceof APIUserAbortError) return llmFailure('LLM_ABORTED', 'The LLM call was aborted.');
  if (error instanceof APIConnectionError) {
    const cause = describeCause(error.cause);
    return llmFailure(
      'LLM_UNAVAILABLE',
      `Could not reach the LLM endpoint ${ctx.endpoint}${cause ? `: ${cause}` : ''}.`,
    );
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = error.message || 'no details';
    if (status === undefined)
      return llmFailure('LLM_STREAM_BROKEN', `The LLM endpoint sent an error in the stream: ${detail}`);
    if (status === 429)
      return llmFailure('LLM_RATE_LIMITED', `The LLM endpoint is rate-limiting requests (HTTP 429): ${detail}`);
    if (status === 408)
      return llmFailure('LLM_TIMEOUT', `The LLM endpoint timed out the request (HTTP 408): ${detail}`);
    if (status === 401 || status === 403) {
      return llmFailure(
        'LLM_AUTH_FAILED',
        `The LLM endpoint refused the API key (HTTP ${status}): ${detail}. Check OPENAI_API_KEY.`,
      );
    }
    if (status === 409 || status >= 500)
      return llmFailure('LLM_UNAVAILABLE', `The LLM endpoint failed (HTTP ${status}): ${detail}`);
    return llmFailure('LLM_BAD_REQUEST', `The LLM endpoint rejected the request (HTTP ${status}): ${detail}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (ctx.phase === 'stream') {
    const cause = describeCause(error instanceof Error ? error.cause : undefined);
    return llmFailure('LLM_STREAM_BROKEN', `The LLM stream broke off: ${message}${cause ? ` (${cause})` : ''}`);
  }
  return llmFailure('LLM_UNAVAILABLE', `The LLM call failed before a response arrived: ${message}`);
}

function timeoutFailure(ctx: FailureContext): LlmFailure {
  return llmFailure(
    'LLM_TIMEOUT',
    `The LLM did not finish within ${ctx.timeoutMs} ms (${ctx.phase === 'request' ? 'no response yet' : 'stream still open'}).`,
  );
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const code = (cause as { code?: unknown }).code;
  const nested = cause.cause instanceof Error ? describeCause(cause.cause) : '';
  return [typeof code === 'string' ? code : '', cause.message, nested].filter(Boolean).join(' ');
}
