// What went wrong in one Messages API attempt, as an LlmFailure, with the SDK's own error classes
// (the Anthropic SDK mirrors the OpenAI SDK's: APIError with a status, connection and timeout
// errors, a user abort). An `error` event inside the stream (e.g. overloaded_error) arrives as an
// APIError without a status. A 429's `retry-after` is kept so the single retry waits that long.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { llmFailure, type LlmFailure } from './llm-error-codes.ts';
import type { FailureContext } from './gateway-attempt.ts';

export type AnthropicFailure = LlmFailure & { retryAfterMs?: number };

export function classifyAnthropicError(error: unknown, ctx: FailureContext): AnthropicFailure {
  if (ctx.aborted) return llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
  if (ctx.timedOut || error instanceof APIConnectionTimeoutError) {
    return llmFailure(
      'LLM_TIMEOUT',
      `The LLM did not finish within ${ctx.timeoutMs} ms (${ctx.phase === 'request' ? 'no response yet' : 'stream still open'}).`,
    );
  }
  if (error instanceof APIUserAbortError) return llmFailure('LLM_ABORTED', 'The LLM call was aborted.');
  if (error instanceof APIConnectionError)
    return llmFailure('LLM_UNAVAILABLE', `Could not reach the Anthropic endpoint ${ctx.endpoint}: ${error.message}.`);
  if (error instanceof APIError) {
    const status = error.status;
    const detail = errorDetail(error);
    if (status === undefined) {
      const kind = (error.error as { error?: { type?: string } } | undefined)?.error?.type;
      if (kind === 'overloaded_error')
        return llmFailure('LLM_UNAVAILABLE', `Anthropic is overloaded (in the stream): ${detail}`);
      if (kind === 'rate_limit_error')
        return llmFailure('LLM_RATE_LIMITED', `Anthropic is rate-limiting requests (in the stream): ${detail}`);
      return llmFailure('LLM_STREAM_BROKEN', `The Anthropic stream carried an error: ${detail}`);
    }
    if (status === 429) {
      const retryAfterMs = retryAfter(error.headers);
      return {
        ...llmFailure(
          'LLM_RATE_LIMITED',
          `Anthropic is rate-limiting requests (HTTP 429${retryAfterMs !== undefined ? `, retry after ${retryAfterMs} ms` : ''}): ${detail}`,
        ),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (status === 408) return llmFailure('LLM_TIMEOUT', `Anthropic timed out the request (HTTP 408): ${detail}`);
    if (status === 401 || status === 403)
      return llmFailure(
        'LLM_AUTH_FAILED',
        `Anthropic refused the API key (HTTP ${status}): ${detail}. Check ANTHROPIC_API_KEY.`,
      );
    if (status === 409 || status === 529 || status >= 500)
      return llmFailure('LLM_UNAVAILABLE', `Anthropic failed (HTTP ${status}): ${detail}`);
    return llmFailure('LLM_BAD_REQUEST', `Anthropic rejected the request (HTTP ${status}): ${detail}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (ctx.phase === 'stream') return llmFailure('LLM_STREAM_BROKEN', `The Anthropic stream broke off: ${message}`);
  return llmFailure('LLM_UNAVAILABLE', `The Anthropic call failed before a response arrived: ${message}`);
}

function errorDetail(error: InstanceType<typeof APIError>): string {
  const body = error.error as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? error.message ?? 'no details';
}

/** `retry-after` in seconds (or an HTTP date), as milliseconds; undefined when absent or unreadable. */
function retryAfter(headers: Headers | undefined): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
