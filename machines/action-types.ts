// Types of the action machine's input, events, context and output (seed 001 §3.5 / §4).
import type { ErrorValue } from '../spec/error-value.ts';
import type { RestoredEvent } from './restored-event.ts';

export interface ActionInput {
  actionId: string;
  actionName: string;
  params: Record<string, unknown>;
  taskId: string;
  clientId: string;
  /** Overrides T_ack (default 1.5 s). */
  ackTimeoutMs?: number;
  /** Overrides T_exec (default from `defaultExecTimeoutMs`). */
  execTimeoutMs?: number;
  /** Overrides the wait before the retry (default 1 s). */
  retryBackoffMs?: number;
  /**
   * false: never resend, even an idempotent action (for callers with their own retry
   * policy, e.g. page preparation, so retries do not multiply). Default true.
   */
  retry?: boolean;
  /** The user message's trace, carried in the frame. */
  traceId?: string;
  /** Where a browser_screenshot uploads its PNG. */
  screenshotPresignedUrl?: string;
}

/** What `sendFrame` receives: everything needed to build the browser_action frame. */
export interface SendActionInput {
  actionId: string;
  actionName: string;
  params: Record<string, unknown>;
  taskId: string;
  clientId: string;
  /** 1 for the first send, 2 for the retry; the actionId is the same. */
  attempt: number;
  /** T_exec the server holds the plugin to (the frame's `timeoutMs`). */
  execTimeoutMs: number;
  traceId?: string;
  screenshotPresignedUrl?: string;
}

/** What `cancelOnPlugin` receives when a sent action is canceled (the task was stopped). */
export interface CancelActionInput {
  actionId: string;
  actionName: string;
  taskId: string;
  clientId: string;
  reason: string;
  traceId?: string;
}

export type ActionResultStatus = 'success' | 'partial' | 'error';

/** A browser_action_result as the plugin sent it. */
export interface ActionAnswer {
  status: ActionResultStatus;
  result?: unknown;
  error?: ErrorValue;
}

export type ActionResultEvent = { type: 'RESULT' } & ActionAnswer;

export type ActionEvent =
  | { type: 'ACK' }
  /** The frame could not be written (no socket, or refused): the error says why. */
  | { type: 'DISPATCH_FAILED'; error: unknown }
  | ActionResultEvent
  | { type: 'PLUGIN_GONE'; reason?: string }
  /** The task was stopped: settle now as canceled; a frame already sent is canceled on the plugin. */
  | { type: 'CANCEL'; reason?: string }
  | RestoredEvent;

export type ActionStatus = 'succeeded' | 'partial' | 'failed' | 'canceled';
export type ActionTimeoutKind = 'ack' | 'exec';
export type IgnoredResultDisposition = 'late' | 'duplicate';

export interface ActionContext {
  actionId: string;
  actionName: string;
  params: Record<string, unknown>;
  taskId: string;
  clientId: string;
  traceId?: string;
  screenshotPresignedUrl?: string;
  ackTimeoutMs: number;
  execTimeoutMs: number;
  retryBackoffMs: number;
  idempotent: boolean;
  /** Retries allowed for this action (idempotent and not disabled by the caller). */
  retryAllowed: boolean;
  /** Frames sent so far (1 or 2). */
  attempts: number;
  result?: unknown;
  error?: ErrorValue;
  /** Which wait ran out on the latest attempt, if it was a timeout. */
  timedOut?: ActionTimeoutKind;
  /** Exec timeouts since the plugin last answered (see plugin-health.ts). */
  execTimeoutStreak: number;
  /** The plugin sent at least one RESULT for this action. */
  answered: boolean;
  /** The last RESULT taken into account, to tell a duplicate from a late one. */
  lastAnswer?: ActionAnswer;
  /** RESULTs received and ignored (late or duplicate) while the action was alive. */
  ignoredResults: number;
}

export interface ActionOutput {
  actionId: string;
  actionName: string;
  status: ActionStatus;
  result?: unknown;
  error?: ErrorValue;
  attempts: number;
  timedOut?: ActionTimeoutKind;
  execTimeoutStreak: number;
  answered: boolean;
}
