// Error codes of `LlmError` events. Both gateways end a failed call with exactly one `error`
// event carrying one of these codes; nothing is thrown out of `streamChat`.

export const llmErrorCodes = {
  /** 429 from the endpoint (after the one retry). Retryable. */
  LLM_RATE_LIMITED: 'LLM_RATE_LIMITED',
  /** 5xx, 409, or the endpoint could not be reached (connection refused/reset, DNS). Retryable. */
  LLM_UNAVAILABLE: 'LLM_UNAVAILABLE',
  /** No complete answer within `timeoutMs` (per attempt), or 408. Retryable. */
  LLM_TIMEOUT: 'LLM_TIMEOUT',
  /** 400/404/422 and other 4xx: the request itself is wrong (unknown model, bad messages). Not retryable. */
  LLM_BAD_REQUEST: 'LLM_BAD_REQUEST',
  /** 401/403: the API key is missing, wrong or not allowed to use the model. Not retryable. */
  LLM_AUTH_FAILED: 'LLM_AUTH_FAILED',
  /** The stream broke mid-way (socket closed, unparseable SSE data, an error object in the stream). Retryable. */
  LLM_STREAM_BROKEN: 'LLM_STREAM_BROKEN',
  /** The caller's AbortSignal fired. Not retryable (the caller asked to stop). */
  LLM_ABORTED: 'LLM_ABORTED',
  /** A bug in the gateway itself (e.g. the offline planner threw). Not retryable. */
  LLM_INTERNAL: 'LLM_INTERNAL',
} as const;

export type LlmErrorCode = (typeof llmErrorCodes)[keyof typeof llmErrorCodes];

/** `retryable` for each code, as put on the `error` event. */
export const llmRetryable: Record<LlmErrorCode, boolean> = {
  LLM_RATE_LIMITED: true,
  LLM_UNAVAILABLE: true,
  LLM_TIMEOUT: true,
  LLM_BAD_REQUEST: false,
  LLM_AUTH_FAILED: false,
  LLM_STREAM_BROKEN: true,
  LLM_ABORTED: false,
  LLM_INTERNAL: false,
};

export interface LlmFailure {
  code: LlmErrorCode;
  message: string;
  retryable: boolean;
}

export function llmFailure(code: LlmErrorCode, message: string): LlmFailure {
  return { code, message, retryable: llmRetryable[code] };
}
