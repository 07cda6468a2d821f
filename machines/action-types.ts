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
  /** The action's id (steps, history, routing inside the server). */
  actionId: string;
  /**
   * The id the frame carries: the actionId, except for a retry after an error result, which
   * must not hit the plugin's dedupe cache (seed 001 §4.2). Its result is this action's.
   */
  dispatchId: string;
  actionName: string;
  params: Record<string, unknown>;
  taskId: string;
  clientId: string;
  /** 1 for the first send, 2 for the retry. */
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
  /** A stopped task's tab closes (README); a task that failed keeps its tab for the person. */
  closeTab: boolean;
  traceId?: string;
}

export type ActionResultStatus = 'success' | 'partial' | 'error';

/** A browser_action_result as the plugin sent it. */
export interface ActionAnswer {
  status: ActionResultStatus;
  result?: unknown;
  error?: ErrorValue;
}

export type ActionResultEvent = { type: 'RESULT'; actionId?: string } & ActionAnswer;

/**
 * The events of the action actor. Plugin-side events may name the action they are for
 * (`actionId`): one for another action than the one in flight is ignored (the actor lives as long
 * as its task and runs its actions one after another).
 */
export type ActionEvent =
  /** Starts an action (the actor is idle: the task runs one action at a time). */
  | { type: 'START'; action: ActionInput }
  | { type: 'ACK'; actionId?: string }
  /** The frame could not be written (no socket, or refused): the error says why. */
  | { type: 'DISPATCH_FAILED'; error: unknown; actionId?: string }
  | ActionResultEvent
  | { type: 'PLUGIN_GONE'; reason?: string; actionId?: string }
  /** The task was stopped: settle now as canceled; a frame already sent is canceled on the plugin. */
  | { type: 'CANCEL'; reason?: string; closeTab?: boolean }
  /** The deadline armed as `waitId` (provided `armDeadline`) has passed; an older one is ignored. */
  | { type: 'DEADLINE'; waitId: number }
  | RestoredEvent;

/** What `armDeadline` receives: the wait to time, on the actor's clock. */
export interface DeadlineInput {
  waitId: number;
  ms: number;
}

/** The long-lived action actor's context: the action in flight (null when idle) and its wait. */
export interface ActionSlotContext {
  current: ActionContext | null;
  /** Id of the latest armed wait; a DEADLINE for another id is stale. */
  waitId: number;
  /** Duration of the current wait (re-armed in full by RESTORED). */
  waitMs: number;
  /** The output of the last action settled (what the task was told). */
  last: ActionOutput | null;
  /** The answer the last settled action took (to tell a duplicate from a late result). */
  lastAnswer?: ActionAnswer;
  /** Actions settled by this actor. */
  settled: number;
}

export type ActionStatus = 'succeeded' | 'partial' | 'failed' | 'canceled';
export type ActionTimeoutKind = 'ack' | 'exec';
export type IgnoredResultDisposition = 'late' | 'duplicate';

export interface ActionContext {
  actionId: string;
  /** The id of the frame in flight (see SendActionInput.dispatchId). */
  dispatchId: string;
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
