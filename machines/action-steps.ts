// The transitions of actionMachine (action.machine.ts) that several states share, and the
// per-action context: entering a wait (its deadline armed once committed, action-waits.ts), writing a new attempt's frame, settling
// back to idle, a RESULT while an attempt is open, the plugin gone, a cancel, an ignored result.
import { assign } from 'xstate';
import { ackTimeoutFor, defaultRetryBackoffMs, execTimeoutFor, isIdempotentAction } from '../spec/action-timeouts.ts';
import { answerOf, outputOf } from './action-output.ts';
import { ErrorCode } from '../spec/error-codes.ts';
import { toErrorValue } from '../spec/error-value.ts';
import type {
  ActionContext,
  ActionEvent,
  ActionInput,
  ActionResultEvent,
  ActionSlotContext,
  ActionStatus,
  IgnoredResultDisposition,
  SendActionInput,
} from './action-types.ts';

/** The per-action context of an action input. */
export function actionContextOf(input: ActionInput): ActionContext {
  return {
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
  };
}

export type Args = { context: ActionSlotContext; event: ActionEvent };
/**
 * A transition or action list built by the helpers below. XState's config types are inferred from
 * `setup`, which helpers outside the config cannot name; the machine's tests check the behaviour.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Built = any;
export const cur = (context: ActionSlotContext) => context.current!;

/** The frame of the current attempt (`attempts` already counted). */
function frameOf(c: ActionContext): SendActionInput {
  return {
    actionId: c.actionId,
    dispatchId: c.dispatchId,
    actionName: c.actionName,
    params: c.params,
    taskId: c.taskId,
    clientId: c.clientId,
    attempt: c.attempts,
    execTimeoutMs: c.execTimeoutMs,
    ...(c.traceId !== undefined ? { traceId: c.traceId } : {}),
    ...(c.screenshotPresignedUrl !== undefined ? { screenshotPresignedUrl: c.screenshotPresignedUrl } : {}),
  };
}

/** The actions of entering a wait of `ms`: a new waitId (its deadline is armed once the step is committed, action-waits.ts). */
export function wait(ms: (c: ActionContext) => number): Built {
  return [
    assign<ActionSlotContext, ActionEvent, undefined, ActionEvent, never>(({ context }) => ({
      waitId: context.waitId + 1,
      waitMs: ms(cur(context)),
    })),
  ];
}

/** The context of a new attempt of `c` (counted), waiting for its ack: one assign, not three. */
function attemptOf(context: ActionSlotContext, c: ActionContext): Partial<ActionSlotContext> {
  return { current: { ...c, attempts: c.attempts + 1 }, waitId: context.waitId + 1, waitMs: c.ackTimeoutMs };
}
const sendFrame = { type: 'sendFrame' as const, params: ({ context }: Args) => frameOf(cur(context)) };

/** Write the frame of a new attempt and wait for its ack. */
export const dispatch: Built = [
  assign<ActionSlotContext, ActionEvent, undefined, ActionEvent, never>(({ context }) =>
    attemptOf(context, cur(context)),
  ),
  sendFrame,
];

/** START: the action becomes the one in flight, its first frame is written and its ack waited for. */
export const dispatchFirst: Built = [
  assign<ActionSlotContext, ActionEvent, undefined, ActionEvent, never>(({ context, event }) =>
    attemptOf(context, actionContextOf((event as Extract<ActionEvent, { type: 'START' }>).action)),
  ),
  sendFrame,
];

/** The settled action's report (`actionSettled`: ACTION_DONE to a parent, or the runtime's own). */
const reportSettled = {
  type: 'actionSettled' as const,
  params: ({ context }: Args) => ({ actionId: context.last!.actionId, output: context.last! }),
};

/** What an answer (RESULT) records on the action. */
export function answerFieldsOf(c: ActionContext, event: ActionResultEvent): Partial<ActionContext> {
  const answer = answerOf(event);
  const error =
    answer.status === 'error'
      ? toErrorValue(answer.error ?? 'the plugin reported an error without details', ErrorCode.INTERNAL)
      : undefined;
  return {
    lastAnswer: answer,
    answered: true,
    execTimeoutStreak: 0,
    timedOut: undefined,
    result: answer.result ?? c.result,
    error,
  };
}

/** Record the answer and settle as `status`: one context update (the hot path: every action's RESULT). */
export function settleAnswered(status: ActionStatus): Built {
  return [
    assign<ActionSlotContext, ActionEvent, undefined, ActionEvent, never>(({ context, event }) => {
      const c = { ...cur(context), ...answerFieldsOf(cur(context), event as ActionResultEvent) };
      return { last: outputOf(c, status), lastAnswer: c.lastAnswer, current: null, settled: context.settled + 1 };
    }),
    reportSettled,
  ];
}

/** Settle the current action as `status`: back to idle, its output reported. */
export function settleAs(status: ActionStatus): Built {
  return [
    assign<ActionSlotContext, ActionEvent, undefined, ActionEvent, never>(({ context }) => ({
      last: outputOf(cur(context), status),
      lastAnswer: cur(context).lastAnswer,
      current: null,
      settled: context.settled + 1,
    })),
    reportSettled,
  ];
}

export function isFor(context: ActionSlotContext, actionId: string | undefined): boolean {
  return context.current !== null && (actionId === undefined || actionId === context.current.actionId);
}

/** A RESULT while an attempt is open. */
export function answered(): Built {
  return [
    { guard: 'isSuccess', target: 'idle', actions: settleAnswered('succeeded') },
    { guard: 'isPartial', target: 'idle', actions: settleAnswered('partial') },
    { guard: ({ context, event }: Args) => !isFor(context, (event as { actionId?: string }).actionId) },
    {
      guard: 'canRetryAnswer',
      target: 'retryWait',
      actions: ['recordAnswer', 'renewDispatchId', ...wait((c) => c.retryBackoffMs)],
    },
    { target: 'idle', actions: settleAnswered('failed') },
  ] as const;
}

/** The frame could not be sent: the action fails (no retry: nothing reached the plugin). */
export function dispatchFailed(): Built {
  return { guard: 'forCurrent', target: 'idle', actions: ['recordDispatchFailure', ...settleAs('failed')] } as const;
}

export function gone(): Built {
  return { guard: 'forCurrent', target: 'idle', actions: ['recordPluginGone', ...settleAs('failed')] } as const;
}

/** Why an action is canceled and whether its tab closes: a CANCEL event says so itself. */
export type CancelOf = (event: ActionEvent) => { reason?: string; closeTab: boolean };
const fromCancelEvent: CancelOf = (event) => ({
  ...((event as { reason?: string }).reason !== undefined ? { reason: (event as { reason: string }).reason } : {}),
  closeTab: (event as { closeTab?: boolean }).closeTab === true,
});

/** Cancel the action in flight: the plugin is told (cancelOnPlugin), it settles as canceled. */
export function cancel(of: CancelOf = fromCancelEvent): Built {
  return {
    target: 'idle',
    actions: [
      { type: 'recordCancel', params: ({ event }: Args) => ({ reason: of(event).reason }) },
      {
        type: 'cancelOnPlugin',
        params: ({ context, event }: Args) => ({
          actionId: cur(context).actionId,
          actionName: cur(context).actionName,
          taskId: cur(context).taskId,
          clientId: cur(context).clientId,
          reason: of(event).reason ?? 'the task was stopped',
          closeTab: of(event).closeTab,
          ...(cur(context).traceId !== undefined ? { traceId: cur(context).traceId } : {}),
        }),
      },
      ...settleAs('canceled'),
    ],
  } as const;
}

export function ignored(disposition: IgnoredResultDisposition): Built {
  return [
    'countIgnoredResult',
    {
      type: 'reportIgnoredResult',
      params: ({ context }: Args) => ({ actionId: cur(context).actionId, disposition }),
    },
  ] as const;
}
