// actionMachine: the life of one browser_action (seed 001 §3.5 / §4, seed 000 §5.1).
//
//   attempt.dispatching (frame written) --> attempt.awaitingAck --ACK--> attempt.executing
//        |                                         | ACK_TIMEOUT               | EXEC_TIMEOUT
//        | RESULT (any attempt state) ------------> succeeded | partial | failed
//        | DISPATCH_FAILED (the frame could not be written) --> failed
//        '-- idempotent action, first attempt only (seed 001 §4.2) -->
//            retryWait --RETRY_BACKOFF--> attempt
//              after an exec timeout (no result): the same actionId;
//              after a retryable error RESULT: a new dispatch id (`<actionId>~2`), since the
//              plugin answers a repeated actionId from its dedupe cache.
//   ACK_TIMEOUT -> failed at once, never a resend: the plugin is unavailable (seed 001 §4.1).
//   PLUGIN_GONE anywhere -> failed (PLUGIN_OFFLINE), at once.
//   CANCEL anywhere -> canceled (TASK_STOPPED), at once; the plugin is told through the
//   provided `cancelOnPlugin` action (the runtime sends task_stop).
//
// A child of the task actor (same system, same clock), or its own actor for MCP sessions; the
// provided `announce` entry action lets the runtime route ACK / RESULT / PLUGIN_GONE to it.
//
// Side effects are provided by the runtime: `sendFrame` (hands the frame to the transport at
// once; a plugin with no socket, or a refusal, comes back as DISPATCH_FAILED, e.g. PLUGIN_OFFLINE)
// and `reportIgnoredResult` (log a late/duplicate result). Writing a frame is synchronous, so
// `dispatching` is passed through in the same step; T_ack runs from the moment the frame is
// written and T_exec starts at the ack. Input `retry: false` turns the retry off (for callers
// with their own policy, e.g. page preparation).
// Results that arrive once the action has settled: ask `resultDisposition`.
import { assign, setup } from 'xstate';
import { ackTimeoutFor, defaultRetryBackoffMs, execTimeoutFor, isIdempotentAction } from '../spec/action-timeouts.ts';
import { ErrorCode, retryableErrorCodes } from '../spec/error-codes.ts';
import { errorValue, toErrorValue } from '../spec/error-value.ts';
import { sameAnswer } from './action-result.ts';
import { answerOf, outputOf, retryDispatchIdOf } from './action-output.ts';
import type {
  ActionAnswer,
  ActionContext,
  ActionEvent,
  ActionInput,
  ActionOutput,
  ActionResultEvent,
  ActionStatus,
  CancelActionInput,
  IgnoredResultDisposition,
  SendActionInput,
} from './action-types.ts';

export const actionMachineId = 'action';

/** One retry at most (000 §5.1): two attempts in all. */
export const maxActionAttempts = 2;

export type {
  ActionAnswer,
  ActionContext,
  ActionEvent,
  ActionInput,
  ActionOutput,
  ActionResultEvent,
  ActionResultStatus,
  ActionStatus,
  ActionTimeoutKind,
  CancelActionInput,
  IgnoredResultDisposition,
  SendActionInput,
} from './action-types.ts';

export const actionMachine = setup({
  types: {} as {
    context: ActionContext;
    events: ActionEvent;
    input: ActionInput;
    output: ActionOutput;
  },
  actions: {
    /** Writes the browser_action frame; a frame that cannot be written answers DISPATCH_FAILED. */
    sendFrame: ({ self }, _params: SendActionInput) => {
      self.send({
        type: 'DISPATCH_FAILED',
        error: errorValue(ErrorCode.PLUGIN_OFFLINE, 'sendFrame is not provided', { retryable: true }),
      });
    },
    reportIgnoredResult: (_, _params: { actionId: string; disposition: IgnoredResultDisposition }) => {},
    /** Entry of the machine: the runtime learns the live actor of this actionId. */
    announce: () => {},
    /** The action was canceled after its frame was written: tell the plugin (task_stop). */
    cancelOnPlugin: (_, _params: CancelActionInput) => {},
    recordCancel: assign(({ context, event }) => ({
      timedOut: undefined,
      error: errorValue(
        ErrorCode.TASK_STOPPED,
        (event as { reason?: string }).reason ?? `${context.actionName} was canceled: the task was stopped`,
        { retryable: false },
      ),
    })),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    /** The retry after an answer goes out under a new id: a repeated one gets the cached answer. */
    renewDispatchId: assign({ dispatchId: ({ context }) => retryDispatchIdOf(context.actionId, context.attempts + 1) }),
    recordAnswer: assign(({ context, event }) => {
      const answer = answerOf(event as ActionResultEvent);
      const error =
        answer.status === 'error'
          ? toErrorValue(answer.error ?? 'the plugin reported an error without details', ErrorCode.INTERNAL)
          : undefined;
      return {
        lastAnswer: answer,
        answered: true,
        execTimeoutStreak: 0,
        timedOut: undefined,
        result: answer.result ?? context.result,
        error,
      };
    }),
    recordAckTimeout: assign(({ context }) => ({
      timedOut: 'ack' as const,
      error: errorValue(
        ErrorCode.PLUGIN_TIMEOUT_ACK,
        `no ack for ${context.actionName} within ${context.ackTimeoutMs} ms`,
        { retryable: true },
      ),
    })),
    recordExecTimeout: assign(({ context }) => ({
      timedOut: 'exec' as const,
      execTimeoutStreak: context.execTimeoutStreak + 1,
      error: errorValue(
        ErrorCode.PLUGIN_TIMEOUT_EXEC,
        `no result for ${context.actionName} within ${context.execTimeoutMs} ms`,
        { retryable: true },
      ),
    })),
    recordDispatchFailure: assign(({ event }) => {
      const error = toErrorValue((event as { error?: unknown }).error, ErrorCode.PLUGIN_OFFLINE);
      // 000 §5.1 classifies the code when the thrower did not say.
      if (error.retryable === undefined && retryableErrorCodes.has(error.code)) error.retryable = true;
      return { timedOut: undefined, error };
    }),
    recordPluginGone: assign(({ event }) => {
      const reason = (event as { reason?: string }).reason;
      return {
        timedOut: undefined,
        error: errorValue(ErrorCode.PLUGIN_OFFLINE, reason ?? 'the plugin disconnected', { retryable: true }),
      };
    }),
    countIgnoredResult: assign({ ignoredResults: ({ context }) => context.ignoredResults + 1 }),
  },
  guards: {
    isSuccess: ({ event }) => event.type === 'RESULT' && event.status === 'success',
    isPartial: ({ event }) => event.type === 'RESULT' && event.status === 'partial',
    isSuccessOrPartial: ({ event }) => event.type === 'RESULT' && event.status !== 'error',
    canRetry: ({ context }) => context.retryAllowed && context.attempts < maxActionAttempts,
    canRetryAnswer: ({ context, event }) =>
      event.type === 'RESULT' &&
      event.error?.retryable === true &&
      context.retryAllowed &&
      context.attempts < maxActionAttempts,
    isDuplicateAnswer: ({ context, event }) =>
      event.type === 'RESULT' && sameAnswer(context.lastAnswer, answerOf(event)),
  },
  delays: {
    ACK_TIMEOUT: ({ context }) => context.ackTimeoutMs,
    EXEC_TIMEOUT: ({ context }) => context.execTimeoutMs,
    RETRY_BACKOFF: ({ context }) => context.retryBackoffMs,
  },
}).createMachine({
  id: actionMachineId,
  context: ({ input }) => ({
    actionId: input.actionId,
    actionName: input.actionName,
    params: input.params,
    taskId: input.taskId,
    clientId: input.clientId,
    dispatchId: input.actionId,
    ackTimeoutMs: ackTimeoutFor(input.ackTimeoutMs),
    execTimeoutMs: execTimeoutFor(input.actionName, input.execTimeoutMs, input.params),
    retryBackoffMs:
      input.retryBackoffMs !== undefined && input.retryBackoffMs >= 0 ? input.retryBackoffMs : defaultRetryBackoffMs,
    idempotent: isIdempotentAction(input.actionName),
    retryAllowed: isIdempotentAction(input.actionName) && input.retry !== false,
    ...(input.traceId !== undefined ? { traceId: input.traceId } : {}),
    ...(input.screenshotPresignedUrl !== undefined ? { screenshotPresignedUrl: input.screenshotPresignedUrl } : {}),
    attempts: 0,
    execTimeoutStreak: 0,
    answered: false,
    ignoredResults: 0,
  }),
  initial: 'attempt',
  entry: 'announce',
  on: {
    PLUGIN_GONE: { target: '.failed', actions: 'recordPluginGone' },
    CANCEL: {
      target: '.canceled',
      actions: [
        'recordCancel',
        {
          type: 'cancelOnPlugin',
          params: ({ context, event }: { context: ActionContext; event: ActionEvent }) => ({
            actionId: context.actionId,
            actionName: context.actionName,
            taskId: context.taskId,
            clientId: context.clientId,
            reason: (event as { reason?: string }).reason ?? 'the task was stopped',
            closeTab: (event as { closeTab?: boolean }).closeTab === true,
            ...(context.traceId !== undefined ? { traceId: context.traceId } : {}),
          }),
        },
      ],
    },
  },
  states: {
    attempt: {
      initial: 'dispatching',
      entry: 'countAttempt',
      on: {
        DISPATCH_FAILED: { target: '#action.failed', actions: 'recordDispatchFailure' },
        RESULT: [
          { guard: 'isSuccess', target: 'succeeded', actions: 'recordAnswer' },
          { guard: 'isPartial', target: 'partial', actions: 'recordAnswer' },
          { guard: 'canRetryAnswer', target: 'retryWait', actions: ['recordAnswer', 'renewDispatchId'] },
          { target: 'failed', actions: 'recordAnswer' },
        ],
      },
      states: {
        // Entered once per attempt: the frame is written on entry, then the ack is awaited.
        // Transient, so never restored: a restored action waits in awaitingAck or executing.
        dispatching: {
          entry: {
            type: 'sendFrame',
            params: ({ context }) => ({
              actionId: context.actionId,
              dispatchId: context.dispatchId,
              actionName: context.actionName,
              params: context.params,
              taskId: context.taskId,
              clientId: context.clientId,
              attempt: context.attempts,
              execTimeoutMs: context.execTimeoutMs,
              ...(context.traceId !== undefined ? { traceId: context.traceId } : {}),
              ...(context.screenshotPresignedUrl !== undefined
                ? { screenshotPresignedUrl: context.screenshotPresignedUrl }
                : {}),
            }),
          },
          always: { target: 'awaitingAck' },
        },
        awaitingAck: {
          on: {
            ACK: { target: 'executing' },
            RESTORED: { target: 'awaitingAck', reenter: true },
          },
          // No resend: a plugin that missed an ack is unavailable (seed 001 §4.1).
          after: { ACK_TIMEOUT: { target: '#action.failed', actions: 'recordAckTimeout' } },
        },
        executing: {
          on: { RESTORED: { target: 'executing', reenter: true } },
          after: {
            EXEC_TIMEOUT: [
              { guard: 'canRetry', target: '#action.retryWait', actions: 'recordExecTimeout' },
              { target: '#action.failed', actions: 'recordExecTimeout' },
            ],
          },
        },
      },
    },
    retryWait: {
      on: {
        // After an exec timeout (same actionId) a success now is the action's success (the
        // plugin dedups by actionId and answers every send with the same result, 001 §4.2).
        RESULT: [
          { guard: 'isSuccess', target: 'succeeded', actions: 'recordAnswer' },
          { guard: 'isPartial', target: 'partial', actions: 'recordAnswer' },
          {
            guard: 'isDuplicateAnswer',
            actions: [
              'countIgnoredResult',
              {
                type: 'reportIgnoredResult',
                params: ({ context }) => ({ actionId: context.actionId, disposition: 'duplicate' as const }),
              },
            ],
          },
          {
            actions: [
              'countIgnoredResult',
              {
                type: 'reportIgnoredResult',
                params: ({ context }) => ({ actionId: context.actionId, disposition: 'late' as const }),
              },
            ],
          },
        ],
        RESTORED: { target: 'retryWait', reenter: true },
      },
      after: { RETRY_BACKOFF: { target: 'attempt' } },
    },
    succeeded: { type: 'final', output: ({ context }) => outputOf(context, 'succeeded') },
    partial: { type: 'final', output: ({ context }) => outputOf(context, 'partial') },
    failed: { type: 'final', output: ({ context }) => outputOf(context, 'failed') },
    canceled: { type: 'final', output: ({ context }) => outputOf(context, 'canceled') },
  },
  output: ({ event }) => event.output as ActionOutput,
});
