// What a template is (seed 003 §3, §6, §8): metadata for list_task_templates, an inputs schema,
// a plan of run steps, how one step runs against the browser, and how the steps' outputs become
// the run's result and artifacts. The run manager drives it with runMachine.
import type { z } from 'zod';
import type { ErrorValue } from '../../../machines/index.ts';
import type { RunStep, RunStepSpec } from '../../../machines/index.ts';
import type { BrowserSession } from '../browser/browser-sessions.ts';
import type { PageDriver } from '../browser/page-driver.ts';

export type TrustLevel = 'local' | 'remote';
export type RunMode = 'sync' | 'async';

export interface TemplateMeta {
  templateId: string;
  version: string;
  name: string;
  description: string;
  trustLevelSupport: TrustLevel[];
  supportsPartialSuccess: boolean;
  /** Success ratio needed for partial_success (003 §6); the global default 0.5 when absent. */
  partialSuccessThreshold?: number;
  limits: { maxConcurrency: number; maxTimeoutMs: number; maxUrls?: number };
  /** The session a run creates for itself stays open afterwards (login_keep_session). */
  keepsSession: boolean;
}

/** What a step may use: its run's session and tabs, the run's inputs, and earlier steps. */
export interface StepContext<I> {
  runId: string;
  inputs: I;
  session: BrowserSession;
  trustLevel: TrustLevel;
  signal: AbortSignal;
  /** The session's main tab (kept with the session). */
  mainPage(): PageDriver;
  /** Runs `work` in a fresh worker tab that is closed afterwards, whatever happens. */
  withWorkerTab<T>(work: (page: PageDriver) => Promise<T>): Promise<T>;
  /** Steps of this run as they stand now (for sequential templates that stop at a failure). */
  steps(): RunStep[];
  /** Scratch space shared by the steps of one run (never persisted). */
  scratch: Record<string, unknown>;
}

export interface TemplateArtifact {
  type: string;
  mimeType: string;
  bytes: string | Uint8Array;
}

export interface TemplateResult {
  result: Record<string, unknown>;
  artifacts: TemplateArtifact[];
}

export interface TaskTemplate<I = any> {
  meta: TemplateMeta;
  inputs: z.ZodType<I>;
  outputs: z.ZodType;
  /** options.mode "auto" (003 §4.1). */
  autoMode(inputs: I): RunMode;
  /** Requested per-run concurrency (before the window's other bounds). */
  concurrency(inputs: I): number;
  plan(inputs: I): RunStepSpec[];
  runStep(ctx: StepContext<I>, step: { stepId: string; index: number; input: unknown }): Promise<unknown>;
  buildResult(inputs: I, steps: RunStep[], extra: { sessionId: string }): TemplateResult;
  /** The inputs as stored with the run (secrets removed). */
  redact(inputs: I): Record<string, unknown>;
}

/** A step failure as a value the run machine records (003 §7.3: the tool-layer code travels as stepErrorCode). */
export function stepError(code: string, message: string, details?: Record<string, unknown>): ErrorValue {
  return { code, message, retryable: false, ...(details ? { details } : {}) };
}

/** Extension / policy codes -> the seed 003 tool-layer codes; the original stays in details.cause. */
export function toolLayerError(error: ErrorValue, during: string): ErrorValue {
  const map: Record<string, string> = {
    INVALID_TARGET: 'ELEMENT_NOT_FOUND',
    NAVIGATION_TIMEOUT: 'NAVIGATION_TIMEOUT',
    TASK_TAB_CLOSED: 'PAGE_CRASHED',
    URL_BLOCKED: 'INVALID_PARAMETER',
  };
  let code = map[error.code] ?? 'EXECUTION_ERROR';
  if (error.code === 'PLUGIN_TIMEOUT_EXEC' && (during === 'navigate' || during === 'wait')) code = 'NAVIGATION_TIMEOUT';
  return stepError(code, `${during}: ${error.message}`, {
    cause: { code: error.code, ...(error.details ? { details: error.details } : {}) },
  });
}

/**
 * A page that loaded with HTTP 4xx/5xx is the server's error page, not the content asked for:
 * the step fails (EXECUTION_ERROR, the status in details.cause) instead of extracting it.
 */
export function httpStatusError(opened: { url: string; httpStatus?: number }): ErrorValue | null {
  const status = opened.httpStatus;
  if (status === undefined || status < 400) return null;
  return stepError('EXECUTION_ERROR', `navigate: ${opened.url} answered HTTP ${status}`, {
    cause: { code: 'NAVIGATION_FAILED', details: { httpStatus: status, url: opened.url } },
  });
}

/** A failed step as an item of a template result: the tool-layer code, the message, the extension's own code. */
export function itemError(error: ErrorValue): { code: string; message: string; cause?: string } {
  const cause = (error.details?.cause as { code?: unknown } | undefined)?.code;
  return { code: error.code, message: error.message, ...(typeof cause === 'string' ? { cause } : {}) };
}
