// The action slot: the states, transitions and action implementations of one browser action in
// flight (seed 001 §3.5 / §4, seed 000 §5.1), shared by the standalone actionMachine
// (action.machine.ts) and the task machine's `action` region (task.machine.ts), which add their
// own `idle` (START, or the task's ACTION_REQUESTED) and their own `actionSettled` (ACTION_DONE to
// a parent, or the provided runtime action). The transitions are named in action-steps.ts.
//
//   idle --start--> awaitingAck (frame written) --ACK--> executing
//                       | T_ack passed                 | T_exec passed
//   RESULT (awaitingAck | executing) ----------------> idle: succeeded | partial | failed
//   DISPATCH_FAILED (the frame could not be written) -> idle: failed
//   idempotent action, first attempt only (seed 001 §4.2) -> retryWait --backoff--> awaitingAck
//     after an exec timeout (no result): the same actionId;
//     after a retryable error RESULT: a new dispatch id (`<actionId>~2`), since the plugin
//     answers a repeated actionId from its dedupe cache.
//   T_ack passed -> failed at once, never a resend: the plugin is unavailable (seed 001 §4.1).
//   PLUGIN_GONE -> failed (PLUGIN_OFFLINE); CANCEL -> canceled (TASK_STOPPED), at once; the
//   plugin is told through the provided `cancelOnPlugin` action (the runtime sends task_stop).
// Plugin events that name another action than the one in flight are ignored.
import { assign } from 'xstate';
import { ErrorCode, retryableErrorCodes } from '../spec/error-codes.ts';
import { errorValue, toErrorValue } from '../spec/error-value.ts';
import { sameAnswer } from './action-result.ts';
import { answerOf, retryDispatchIdOf } from './action-output.ts';
import {
  answerFieldsOf,
  answered,
  cancel,
  cur,
  dispatch,
  dispatchFailed,
  gone,
  ignored,
  isFor,
  settleAnswered,
  settleAs,
  wait,
} from './action-steps.ts';
import type {
  ActionContext,
  ActionEvent,
  ActionResultEvent,
  ActionSlotContext,
  CancelActionInput,
  DeadlineInput,
  IgnoredResultDisposition,
  SendActionInput,
} from './action-types.ts';

/** One retry at most (000 §5.1): two attempts in all. */
export const maxActionAttempts = 2;

const update = (fn: (c: ActionContext, event: ActionEvent) => Partial<ActionContext>) =>
  assign<ActionSlotContext, ActionEvent, undefined, ActionEvent, never>(({ context, event }) => ({
    current: { ...cur(context), ...fn(cur(context), event) },
  }));

/** What a plain action of the slot receives (the actor and its system). */
type ActionArgs = { self: { send(event: ActionEvent): void }; system: { scheduler: Scheduler } };
type Scheduler = { schedule(source: unknown, target: unknown, event: ActionEvent, ms: number, id: string): void };
type GuardArgs = { context: ActionSlotContext; event: ActionEvent };

/** The slot's effects: the runtime provides them. */
export const actionSlotEffects = {
  /** Writes the browser_action frame; a frame that cannot be written answers DISPATCH_FAILED. */
  sendFrame: ({ self }: ActionArgs, _params: SendActionInput) => {
    self.send({
      type: 'DISPATCH_FAILED',
      error: errorValue(ErrorCode.PLUGIN_OFFLINE, 'sendFrame is not provided', { retryable: true }),
    });
  },
  /** Answers DEADLINE { waitId } once `ms` has passed on the actor's clock (called by withTimedWaits). */
  armDeadline: ({ self, system }: ActionArgs, params: DeadlineInput) => {
    const deadline: ActionEvent = { type: 'DEADLINE', waitId: params.waitId };
    system.scheduler.schedule(self, self, deadline, params.ms, `deadline-${params.waitId}`);
  },
  reportIgnoredResult: (_: unknown, _params: { actionId: string; disposition: IgnoredResultDisposition }) => {},
  /** The action was canceled after its frame was written: tell the plugin (task_stop). */
  cancelOnPlugin: (_: unknown, _params: CancelActionInput) => {},
};

/** The slot's own bookkeeping (context only, no effects). */
export const actionSlotAssigns = {
  recordCancel: assign<ActionSlotContext, ActionEvent, { reason?: string }, ActionEvent, never>(
    ({ context }, params) => ({
      current: {
        ...cur(context),
        timedOut: undefined,
        error: errorValue(
          ErrorCode.TASK_STOPPED,
          params.reason ?? `${cur(context).actionName} was canceled: the task was stopped`,
          { retryable: false },
        ),
      },
    }),
  ),
  /** The retry after an answer goes out under a new id: a repeated one gets the cached answer. */
  renewDispatchId: update((c) => ({ dispatchId: retryDispatchIdOf(c.actionId, c.attempts + 1) })),
  recordAnswer: update((c, event) => answerFieldsOf(c, event as ActionResultEvent)),
  recordAckTimeout: update((c) => ({
    timedOut: 'ack' as const,
    error: errorValue(ErrorCode.PLUGIN_TIMEOUT_ACK, `no ack for ${c.actionName} within ${c.ackTimeoutMs} ms`, {
      retryable: true,
    }),
  })),
  recordExecTimeout: update((c) => ({
    timedOut: 'exec' as const,
    execTimeoutStreak: c.execTimeoutStreak + 1,
    error: errorValue(ErrorCode.PLUGIN_TIMEOUT_EXEC, `no result for ${c.actionName} within ${c.execTimeoutMs} ms`, {
      retryable: true,
    }),
  })),
  recordDispatchFailure: update((_, event) => {
    const error = toErrorValue((event as { error?: unknown }).error, ErrorCode.PLUGIN_OFFLINE);
    // 000 §5.1 classifies the code when the thrower did not say.
    if (error.retryable === undefined && retryableErrorCodes.has(error.code)) error.retryable = true;
    return { timedOut: undefined, error };
  }),
  recordPluginGone: update((_, event) => ({
    timedOut: undefined,
    error: errorValue(ErrorCode.PLUGIN_OFFLINE, (event as { reason?: string }).reason ?? 'the plugin disconnected', {
      retryable: true,
    }),
  })),
  countIgnoredResult: update((c) => ({ ignoredResults: c.ignoredResults + 1 })),
};

/** Every action of the slot, for actionMachine's setup(). */
export const actionSlotActions = { ...actionSlotEffects, ...actionSlotAssigns };

/**
 * The slot's actions and guards for a machine whose context extends the slot's and whose events
 * include the slot's (the task machine): XState's setup() types them against that machine's own
 * context and events, which these implementations do not name; they only touch the slot's fields.
 */
export function actionSlotFor<TContext extends ActionSlotContext>() {
  type Fn<R> = (args: { context: TContext }, params: undefined) => R;
  return {
    assigns: actionSlotAssigns as unknown as { [K in keyof typeof actionSlotAssigns]: Fn<void> },
    guards: actionSlotGuards as unknown as { [K in keyof typeof actionSlotGuards]: Fn<boolean> },
  };
}

export const actionSlotGuards = {
  /** The event is for the action in flight (an event that names no action is). */
  forCurrent: ({ context, event }: GuardArgs) => {
    const id = (event as { actionId?: string }).actionId;
    return context.current !== null && (id === undefined || id === context.current.actionId);
  },
  isDeadline: ({ context, event }: GuardArgs) => event.type === 'DEADLINE' && event.waitId === context.waitId,
  isSuccess: ({ context, event }: GuardArgs) =>
    event.type === 'RESULT' && event.status === 'success' && isFor(context, event.actionId),
  isPartial: ({ context, event }: GuardArgs) =>
    event.type === 'RESULT' && event.status === 'partial' && isFor(context, event.actionId),
  canRetry: ({ context }: GuardArgs) => cur(context).retryAllowed && cur(context).attempts < maxActionAttempts,
  canRetryAnswer: ({ context, event }: GuardArgs) =>
    event.type === 'RESULT' &&
    event.error?.retryable === true &&
    cur(context).retryAllowed &&
    cur(context).attempts < maxActionAttempts,
  isDuplicateAnswer: ({ context, event }: GuardArgs) =>
    event.type === 'RESULT' && sameAnswer(cur(context).lastAnswer, answerOf(event)),
};

/** The states of an action in flight (each machine adds its own `idle`). */
export const actionSlotStates = {
  // Waiting for the plugin's ack of the frame just written. No resend: a plugin that missed an
  // ack is unavailable (seed 001 §4.1).
  awaitingAck: {
    on: {
      ACK: { guard: 'forCurrent', target: 'executing', actions: wait((c) => c.execTimeoutMs) },
      DEADLINE: { guard: 'isDeadline', target: 'idle', actions: ['recordAckTimeout', ...settleAs('failed')] },
      RESULT: answered(),
      DISPATCH_FAILED: dispatchFailed(),
      PLUGIN_GONE: gone(),
      CANCEL: cancel(),
      RESTORED: { actions: wait((c) => c.ackTimeoutMs) },
    },
  },
  executing: {
    on: {
      DEADLINE: [
        {
          guard: ({ context, event }: GuardArgs) =>
            event.type === 'DEADLINE' &&
            event.waitId === context.waitId &&
            cur(context).retryAllowed &&
            cur(context).attempts < maxActionAttempts,
          target: 'retryWait',
          actions: ['recordExecTimeout', ...wait((c) => c.retryBackoffMs)],
        },
        { guard: 'isDeadline', target: 'idle', actions: ['recordExecTimeout', ...settleAs('failed')] },
      ],
      RESULT: answered(),
      DISPATCH_FAILED: dispatchFailed(),
      PLUGIN_GONE: gone(),
      CANCEL: cancel(),
      RESTORED: { actions: wait((c) => c.execTimeoutMs) },
    },
  },
  retryWait: {
    on: {
      DEADLINE: { guard: 'isDeadline', target: 'awaitingAck', actions: dispatch },
      // After an exec timeout (same actionId) a success now is the action's success (the
      // plugin dedups by actionId and answers every send with the same result, 001 §4.2).
      RESULT: [
        { guard: 'isSuccess', target: 'idle', actions: settleAnswered('succeeded') },
        { guard: 'isPartial', target: 'idle', actions: settleAnswered('partial') },
        { guard: ({ context, event }: GuardArgs) => !isFor(context, (event as { actionId?: string }).actionId) },
        { guard: 'isDuplicateAnswer', actions: ignored('duplicate') },
        { actions: ignored('late') },
      ],
      PLUGIN_GONE: gone(),
      CANCEL: cancel(),
      RESTORED: { actions: wait((c) => c.retryBackoffMs) },
    },
  },
} as const;
