// pagePrepMachine: the mandatory page preparation of seed 000 §3.2 / §4.5: a screenshot
// and a readability extract of the task tab, captured concurrently (two parallel
// regions), each by a provided promise actor (`captureScreenshot`, `extractReadability`). The
// runtime's task actor runs the same policy as one promise (`runPagePrep`, page-prep-run.ts, on
// the helpers exported here), no actor; this machine is its chart (the web's Machines catalog).
//
// Retries, our reading of "各自最多重试 1 次（退避 500ms → 1500ms）": `backoffMs` is the
// schedule of waits before retry 1, 2, ... (the last value repeats) and `maxRetries`
// the number of retries per capture. Defaults: maxRetries 1 and [500, 1500], so by
// default each capture is tried twice with 500 ms between; the 1500 ms step is used
// only when a caller allows a second retry. An error explicitly marked
// `retryable: false` (e.g. READABILITY_TOO_LARGE) is not retried; anything else is.
//
// Outcome: both captured -> `ok`; one missing -> `partial` with `warnings` and
// `missing: ["screenshot"|"readability"]`; both missing -> `failed` with
// PAGE_PREP_FAILED (retryable). All three are final; the output says which.
import { assign, fromPromise, setup } from 'xstate';
import { ErrorCode } from '../spec/error-codes.ts';
import { defaultPagePrepBackoffMs } from '../spec/other-timeouts.ts';
import { errorValue, toErrorValue, type ErrorValue } from '../spec/error-value.ts';
import type { RestoredEvent } from './restored-event.ts';

export const pagePrepMachineId = 'pagePrep';

export const defaultPagePrepMaxRetries = 1;
/** The seed's schedule (spec/other-timeouts.ts). */
export { defaultPagePrepBackoffMs };

export type PagePrepPart = 'screenshot' | 'readability';

/** browser_screenshot result (seed 000 §4.2 B). */
export interface ScreenshotCapture {
  artifactId: string;
  url: string;
  width: number;
  height: number;
}

/** browser_readability_extract result (seed 000 §4.2 B). */
export interface ReadabilityCapture {
  artifactId?: string;
  text?: string;
  markdown?: string;
  title?: string;
  contentLengthBytes?: number;
  truncated?: boolean;
}

export interface PagePrepInput {
  taskId: string;
  tabId: number;
  /** The runtime's id of this preparation (its child id under the task actor); given to the captures. */
  prepId?: string;
  maxRetries?: number;
  backoffMs?: readonly number[];
}

export interface CaptureInput {
  taskId: string;
  tabId: number;
  prepId?: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
}

export interface CaptureState<T> {
  attempts: number;
  value?: T;
  error?: ErrorValue;
}

export interface PagePrepContext {
  taskId: string;
  tabId: number;
  prepId?: string;
  maxRetries: number;
  backoffMs: number[];
  screenshot: CaptureState<ScreenshotCapture>;
  readability: CaptureState<ReadabilityCapture>;
}

export type PagePrepEvent = RestoredEvent;

export type PagePrepStatus = 'ok' | 'partial' | 'failed';

export interface PagePrepOutput {
  status: PagePrepStatus;
  screenshot?: ScreenshotCapture;
  readability?: ReadabilityCapture;
  warnings: string[];
  missing: PagePrepPart[];
  error?: ErrorValue;
}

/** The retries allowed per capture and the waits before them (the input's, or the defaults). */
export function pagePrepPolicyOf(input: Pick<PagePrepInput, 'maxRetries' | 'backoffMs'>): {
  maxRetries: number;
  backoffMs: number[];
} {
  return {
    maxRetries:
      input.maxRetries !== undefined && Number.isInteger(input.maxRetries) && input.maxRetries >= 0
        ? input.maxRetries
        : defaultPagePrepMaxRetries,
    backoffMs: [...(input.backoffMs ?? defaultPagePrepBackoffMs)].map((ms) => Math.max(0, ms)),
  };
}

/** The wait before retry number `retry` (1-based); the schedule's last value repeats. */
export function backoffBeforeRetry(schedule: readonly number[], retry: number): number {
  if (schedule.length === 0) return 0;
  return schedule[Math.min(retry, schedule.length) - 1]!;
}

/** The outcome of a preparation from what each capture ended with. */
export function pagePrepOutputOf(context: Pick<PagePrepContext, 'screenshot' | 'readability'>): PagePrepOutput {
  const warnings: string[] = [];
  const missing: PagePrepPart[] = [];
  for (const part of ['screenshot', 'readability'] as const) {
    const state = context[part];
    if (state.value !== undefined) continue;
    missing.push(part);
    const why = state.error ? `${state.error.code}: ${state.error.message}` : 'no result';
    warnings.push(`${part} failed after ${state.attempts} attempt(s) (${why})`);
  }
  const output: PagePrepOutput = {
    status: missing.length === 0 ? 'ok' : missing.length === 1 ? 'partial' : 'failed',
    warnings,
    missing,
  };
  if (context.screenshot.value !== undefined) output.screenshot = context.screenshot.value;
  if (context.readability.value !== undefined) output.readability = context.readability.value;
  if (output.status === 'failed') {
    const details: Record<string, unknown> = {};
    if (context.screenshot.error) details.screenshot = context.screenshot.error;
    if (context.readability.error) details.readability = context.readability.error;
    output.error = errorValue(ErrorCode.PAGE_PREP_FAILED, 'screenshot and readability both failed', {
      retryable: true,
      details,
    });
  }
  return output;
}

const captureInput =
  (part: PagePrepPart) =>
  ({ context }: { context: PagePrepContext }): CaptureInput => ({
    taskId: context.taskId,
    tabId: context.tabId,
    ...(context.prepId !== undefined ? { prepId: context.prepId } : {}),
    attempt: context[part].attempts,
  });

export const pagePrepMachine = setup({
  types: {} as {
    context: PagePrepContext;
    events: PagePrepEvent;
    input: PagePrepInput;
    output: PagePrepOutput;
  },
  actors: {
    captureScreenshot: fromPromise<ScreenshotCapture, CaptureInput>(async () => {
      throw errorValue(ErrorCode.INTERNAL, 'captureScreenshot is not provided', { retryable: false });
    }),
    extractReadability: fromPromise<ReadabilityCapture, CaptureInput>(async () => {
      throw errorValue(ErrorCode.INTERNAL, 'extractReadability is not provided', { retryable: false });
    }),
  },
  actions: {
    countScreenshotAttempt: assign({
      screenshot: ({ context }) => ({ ...context.screenshot, attempts: context.screenshot.attempts + 1 }),
    }),
    countReadabilityAttempt: assign({
      readability: ({ context }) => ({ ...context.readability, attempts: context.readability.attempts + 1 }),
    }),
    storeScreenshot: assign(({ context }, params: { value: ScreenshotCapture }) => ({
      screenshot: { attempts: context.screenshot.attempts, value: params.value },
    })),
    storeReadability: assign(({ context }, params: { value: ReadabilityCapture }) => ({
      readability: { attempts: context.readability.attempts, value: params.value },
    })),
    recordScreenshotError: assign({
      screenshot: ({ context, event }) => ({
        attempts: context.screenshot.attempts,
        error: toErrorValue((event as { error?: unknown }).error, ErrorCode.INTERNAL),
      }),
    }),
    recordReadabilityError: assign({
      readability: ({ context, event }) => ({
        attempts: context.readability.attempts,
        error: toErrorValue((event as { error?: unknown }).error, ErrorCode.INTERNAL),
      }),
    }),
  },
  guards: {
    canRetryScreenshot: ({ context, event }) => canRetry(context.screenshot.attempts, context.maxRetries, event),
    canRetryReadability: ({ context, event }) => canRetry(context.readability.attempts, context.maxRetries, event),
    bothCaptured: ({ context }) => context.screenshot.value !== undefined && context.readability.value !== undefined,
    oneCaptured: ({ context }) => context.screenshot.value !== undefined || context.readability.value !== undefined,
  },
  delays: {
    SCREENSHOT_BACKOFF: ({ context }) => backoffBeforeRetry(context.backoffMs, context.screenshot.attempts),
    READABILITY_BACKOFF: ({ context }) => backoffBeforeRetry(context.backoffMs, context.readability.attempts),
  },
}).createMachine({
  id: pagePrepMachineId,
  context: ({ input }) => ({
    taskId: input.taskId,
    tabId: input.tabId,
    ...(input.prepId !== undefined ? { prepId: input.prepId } : {}),
    ...pagePrepPolicyOf(input),
    screenshot: { attempts: 0 },
    readability: { attempts: 0 },
  }),
  initial: 'preparing',
  states: {
    preparing: {
      type: 'parallel',
      states: {
        screenshot: {
          initial: 'capturing',
          states: {
            capturing: {
              entry: 'countScreenshotAttempt',
              invoke: {
                id: 'captureScreenshot',
                src: 'captureScreenshot',
                input: captureInput('screenshot'),
                onDone: {
                  target: 'captured',
                  actions: { type: 'storeScreenshot', params: ({ event }) => ({ value: event.output }) },
                },
                onError: [
                  { guard: 'canRetryScreenshot', target: 'backoff', actions: 'recordScreenshotError' },
                  { target: 'missing', actions: 'recordScreenshotError' },
                ],
              },
            },
            backoff: {
              on: { RESTORED: { target: 'backoff', reenter: true } },
              after: { SCREENSHOT_BACKOFF: { target: 'capturing' } },
            },
            captured: { type: 'final' },
            missing: { type: 'final' },
          },
        },
        readability: {
          initial: 'capturing',
          states: {
            capturing: {
              entry: 'countReadabilityAttempt',
              invoke: {
                id: 'extractReadability',
                src: 'extractReadability',
                input: captureInput('readability'),
                onDone: {
                  target: 'captured',
                  actions: { type: 'storeReadability', params: ({ event }) => ({ value: event.output }) },
                },
                onError: [
                  { guard: 'canRetryReadability', target: 'backoff', actions: 'recordReadabilityError' },
                  { target: 'missing', actions: 'recordReadabilityError' },
                ],
              },
            },
            backoff: {
              on: { RESTORED: { target: 'backoff', reenter: true } },
              after: { READABILITY_BACKOFF: { target: 'capturing' } },
            },
            captured: { type: 'final' },
            missing: { type: 'final' },
          },
        },
      },
      onDone: [
        { guard: 'bothCaptured', target: 'ok' },
        { guard: 'oneCaptured', target: 'partial' },
        { target: 'failed' },
      ],
    },
    ok: { type: 'final' },
    partial: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }) => pagePrepOutputOf(context),
});

function canRetry(attempts: number, maxRetries: number, event: { type: string }): boolean {
  return canRetryCapture(attempts, maxRetries, (event as { error?: unknown }).error);
}

/** Another try after a failed attempt number `attempts`: allowed unless the error says it is final. */
export function canRetryCapture(attempts: number, maxRetries: number, error: unknown): boolean {
  const markedFinal =
    typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === false;
  return !markedFinal && attempts - 1 < maxRetries;
}
