// The task machine's `action` region: the task's browser actions, one in flight at a time, run
// by the task actor itself (no child actor, no START / ACTION_DONE between two actors). Its
// states are the action slot's (action-slot.ts, the same ones actionMachine runs); its `idle`
// takes the turn's ACTION_REQUESTED:
//
//   idle --ACTION_REQUESTED (the task runs, nothing queued)--> awaitingAck (frame written)
//   idle --(a queued action, the task runs: after a settle, on RESUME)--> awaitingAck
//   ACTION_REQUESTED otherwise: queued (`pendingActions`) while a turn runs, else settled unsent
//   the task ended (completed | error) with an action in flight --> idle: canceled; the plugin is
//     told (`cancelOnPlugin`), its tab closed when a STOP ended the task (unless it said
//     `closeTab: false`, as an MCP session's cancel does)
//
// Every settle hands the output to the provided `actionSettled` in the step that settles it.
import { assign } from 'xstate';
import { actionSlotStates, maxActionAttempts } from './action-slot.ts';
import { actionContextOf, cancel, dispatchFirst, type Built, type CancelOf } from './action-steps.ts';
import type { TaskContext, TaskEvent } from './task-types.ts';

type Args = { context: TaskContext; event: TaskEvent };

/** The task runs (not taken over): a requested or queued action may start. */
const mayAct = (context: TaskContext) => context.reportedStatus === 'running';

/** The action canceled by the task's end: a STOP closes its tab unless it says otherwise. */
const endOf: CancelOf = (event) => {
  const closeTab = (event as TaskEvent).type === 'STOP' && (event as { closeTab?: boolean }).closeTab !== false;
  return { reason: closeTab ? 'the task was stopped' : 'the task failed', closeTab };
};

/** The region's guards, for the task machine's setup(). */
export const taskActionGuards = {
  /** ACTION_REQUESTED starts the action now: the slot is free, the task runs, nothing is queued. */
  startsActionNow: ({ context }: Args) =>
    context.current === null && context.pendingActions.length === 0 && mayAct(context),
  /** A queued action may start (after a settle, on RESUME). */
  canStartQueued: ({ context }: Args) => context.pendingActions.length > 0 && mayAct(context),
  /** A settle now leaves the slot empty: no queued action starts in its place. */
  noQueuedStart: ({ context }: Args) => !(context.pendingActions.length > 0 && mayAct(context)),
  /** A RESULT for the action in flight that fails it (an error result that allows no retry). */
  isFinalErrorAnswer: ({ context, event }: Args) =>
    event.type === 'RESULT' &&
    event.status === 'error' &&
    context.current !== null &&
    (event.actionId === undefined || event.actionId === context.current.actionId) &&
    !(event.error?.retryable === true && context.current.retryAllowed && context.current.attempts < maxActionAttempts),
  /** The task ended (stopped or failed) with an action in flight. */
  endsActionInFlight: ({ context }: Args) =>
    context.current !== null && (context.reportedStatus === 'completed' || context.reportedStatus === 'error'),
};

/** The first queued action becomes the one in flight: its frame is written, its ack waited for. */
const dispatchQueued: Built = [
  assign<TaskContext, TaskEvent, undefined, TaskEvent, never>(({ context }) => {
    const [next, ...rest] = context.pendingActions;
    const c = actionContextOf(next!);
    return {
      pendingActions: rest,
      current: { ...c, attempts: 1 },
      waitId: context.waitId + 1,
      waitMs: c.ackTimeoutMs,
    };
  }),
  ...(dispatchFirst as unknown[]).slice(1),
];

/** The region's config (its transitions name the slot's and the guards above). */
export const taskActionRegion = {
  initial: 'idle',
  // A request while an action is in flight waits its turn (or settles unsent: no turn runs).
  on: { ACTION_REQUESTED: { actions: 'queueAction' } },
  always: {
    guard: 'endsActionInFlight',
    target: '.idle',
    actions: (cancel(endOf) as { actions: Built }).actions as Built,
  },
  states: {
    idle: {
      always: { guard: 'canStartQueued', target: 'awaitingAck', actions: dispatchQueued },
      on: {
        ACTION_REQUESTED: [
          { guard: 'startsActionNow', target: 'awaitingAck', actions: dispatchFirst },
          { actions: 'queueAction' },
        ],
      },
    },
    ...actionSlotStates,
  },
} as const;
