// A page preparation as the task actor runs it: pagePrepMachine's policy (page-prep.machine.ts:
// both captures at once, each retried after a failure `maxRetries` times with the backoff
// schedule between, an error marked `retryable: false` never retried; ok / partial / failed) as
// one promise with no actor of its own. The task actor asks for it with its provided
// `preparePage` action and hears its outcome as one PAGE_PREP_DONE event (task.machine.ts); the
// captures are browser actions of the task's action actor, inspected like any other.
// IO is injected: the two captures and `wait` (a wait on the runtime's clock).
import { ErrorCode } from '../spec/error-codes.ts';
import { toErrorValue } from '../spec/error-value.ts';
import {
  backoffBeforeRetry,
  canRetryCapture,
  pagePrepOutputOf,
  pagePrepPolicyOf,
  type CaptureInput,
  type CaptureState,
  type PagePrepInput,
  type PagePrepOutput,
  type ReadabilityCapture,
  type ScreenshotCapture,
} from './page-prep.machine.ts';

export interface PagePrepWork {
  captureScreenshot(input: CaptureInput): Promise<ScreenshotCapture>;
  extractReadability(input: CaptureInput): Promise<ReadabilityCapture>;
  /** Resolves once `ms` has passed on the runtime's clock. */
  wait(ms: number): Promise<void>;
}

/** Runs one page preparation to its outcome (it never rejects: a failure is its output). */
export async function runPagePrep(input: PagePrepInput, work: PagePrepWork): Promise<PagePrepOutput> {
  const { maxRetries, backoffMs } = pagePrepPolicyOf(input);
  async function captured<T>(capture: (input: CaptureInput) => Promise<T>): Promise<CaptureState<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await capture({
          taskId: input.taskId,
          tabId: input.tabId,
          ...(input.prepId !== undefined ? { prepId: input.prepId } : {}),
          attempt,
        });
        return { attempts: attempt, value };
      } catch (error) {
        if (!canRetryCapture(attempt, maxRetries, error))
          return { attempts: attempt, error: toErrorValue(error, ErrorCode.INTERNAL) };
        await work.wait(backoffBeforeRetry(backoffMs, attempt));
      }
    }
  }
  const [screenshot, readability] = await Promise.all([
    captured((i) => work.captureScreenshot(i)),
    captured((i) => work.extractReadability(i)),
  ]);
  return pagePrepOutputOf({ screenshot, readability });
}
