// What both SDK gateways do around one streaming request: the per-attempt timeout on the
// gateway's clock, the caller's abort signal, one AbortController handed to the SDK, and the
// single retry of a retryable failure that happened before anything reached the caller.
import type { LlmClock } from './llm-clock.ts';
import { llmFailure, type LlmFailure } from './llm-error-codes.ts';
import { DEFAULT_LLM_TIMEOUT_MS, type LlmEvent, type StreamChatInput } from './llm-types.ts';
import { waitOrAbort } from './wait-or-abort.ts';

/** What a failure classifier needs to know about the attempt that failed. */
export interface FailureContext {
  endpoint: string;
  timeoutMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** 'request' until the response headers arrived, then 'stream'. */
  phase: 'request' | 'stream';
}

/** Something reached the caller: from then on a failure is reported, never retried. */
export interface AttemptState {
  yielded: boolean;
}

export interface AttemptGuard {
  ctx: FailureContext;
  /** For the SDK call: aborts on the caller's signal, on the timeout, and on `end()`. */
  signal: AbortSignal;
  /** Clears the timer and the caller's listener and closes the connection if still open. */
  end(): void;
}

/** The SDKs insist on a positive integer; our own timer uses the same value. */
export function attemptTimeoutMs(requested: number | undefined): number {
  const value = requested ?? DEFAULT_LLM_TIMEOUT_MS;
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : DEFAULT_LLM_TIMEOUT_MS;
}

/** Arms one attempt, or says it was aborted before it began. */
export function guardAttempt(clock: LlmClock, endpoint: string, input: StreamChatInput): AttemptGuard | LlmFailure {
  if (input.signal?.aborted) return abortedFailure();
  const ctx: FailureContext = {
    endpoint,
    timeoutMs: attemptTimeoutMs(input.timeoutMs),
    timedOut: false,
    aborted: false,
    phase: 'request',
  };
  const controller = new AbortController();
  const onCallerAbort = () => {
    ctx.aborted = true;
    controller.abort();
  };
  input.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = clock.setTimeout(() => {
    ctx.timedOut = true;
    controller.abort();
  }, ctx.timeoutMs);
  return {
    ctx,
    signal: controller.signal,
    end() {
      clock.clearTimeout(timer);
      input.signal?.removeEventListener('abort', onCallerAbort);
      controller.abort();
    },
  };
}

export function isAttemptGuard(value: AttemptGuard | LlmFailure): value is AttemptGuard {
  return 'signal' in value;
}

/** Hands a raw stream item to the recorder; a recorder failure must not break the conversation. */
export function notifyRecorder<A extends unknown[]>(listener: ((...args: A) => void) | undefined, ...args: A): void {
  if (!listener) return;
  try {
    listener(...args);
  } catch {
    // ignored on purpose
  }
}

/**
 * Runs `attempt` once and, after a retryable failure that reached nobody, once more after
 * `retryWaitMs(failure)` (null: do not retry). Ends with exactly one `error` event on failure.
 */
export async function* streamWithOneRetry<F extends LlmFailure>(
  clock: LlmClock,
  input: StreamChatInput,
  attempt: (attemptNo: number, state: AttemptState) => AsyncGenerator<LlmEvent, F | null>,
  retryWaitMs: (failure: F) => number | null,
): AsyncGenerator<LlmEvent, void> {
  const state: AttemptState = { yielded: false };
  const first = yield* attempt(1, state);
  let failure: LlmFailure | null = first;
  const waitMs = first && first.retryable && !state.yielded ? retryWaitMs(first) : null;
  if (waitMs !== null) {
    const waited = await waitOrAbort(clock, waitMs, input.signal);
    failure = waited ? yield* attempt(2, state) : abortedFailure();
  }
  if (failure) yield { type: 'error', code: failure.code, message: failure.message, retryable: failure.retryable };
}

function abortedFailure(): LlmFailure {
  return llmFailure('LLM_ABORTED', 'The LLM call was aborted by the caller.');
}
