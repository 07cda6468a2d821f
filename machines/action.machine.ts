// actionMachine: the browser actions of one task (seed 001 §3.5 / §4, seed 000 §5.1), one after
// another, in one actor that lives as long as its task (the task actor's child `action`).
//
//   idle --START--> awaitingAck (frame written) --ACK--> executing
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
// Settling goes back to `idle`: the output is kept as `last` and sent to the parent as
// ACTION_DONE. The states of an action in flight are the action slot's (action-slot.ts), which the
// task machine runs as its `action` region: this machine is that slot as an actor of its own. Plugin events that name another action than the one in flight are ignored.
//
// Timeouts are deadlines: entering a wait sets a new `waitId` and its `waitMs` in the context;
// once that step is committed the provided `armDeadline` (waitId, ms) is called (action-waits.ts:
// from the snapshot, not as a transition's action), and answers DEADLINE { waitId } once the time
// has passed on the actor's clock; a DEADLINE for an older wait is ignored, so nothing is ever
// canceled. The default implementation uses the actor system's scheduler (its clock); the runtime
// provides one timer per actor that is re-armed only when a deadline passes
// (runtime/scheduler/deadline-timer.ts).
//
// Side effects are provided by the runtime: `sendFrame` (hands the frame to the transport at
// once; a plugin with no socket, or a refusal, comes back as DISPATCH_FAILED) and
// `reportIgnoredResult` (a late or duplicate result). T_ack runs from the write, T_exec from the
// ack. Input `retry: false` turns the retry off (callers with their own policy, e.g. page
// preparation). After a restore, RESTORED re-arms the current wait in full (restored-event.ts).
import { enqueueActions, setup } from 'xstate';
import { dispatchFirst } from './action-steps.ts';
import { actionSlotActions, actionSlotGuards, actionSlotStates } from './action-slot.ts';
import { withTimedWaits } from './action-waits.ts';
export { actionContextOf } from './action-steps.ts';
export { maxActionAttempts } from './action-slot.ts';
import type { ActionEvent, ActionOutput, ActionSlotContext } from './action-types.ts';

export const actionMachineId = 'action';

export type {
  ActionAnswer,
  ActionContext,
  ActionEvent,
  ActionInput,
  ActionOutput,
  ActionResultEvent,
  ActionResultStatus,
  ActionSlotContext,
  ActionStatus,
  ActionTimeoutKind,
  CancelActionInput,
  DeadlineInput,
  IgnoredResultDisposition,
  SendActionInput,
} from './action-types.ts';

const untimedActionMachine = setup({
  types: {} as {
    context: ActionSlotContext;
    events: ActionEvent;
  },
  actions: {
    ...actionSlotActions,
    /** The parent (the task actor) hears each settled action as ACTION_DONE. */
    actionSettled: enqueueActions(({ enqueue, self }, params: unknown) => {
      const { output } = params as { actionId: string; output: ActionOutput };
      if (self._parent) enqueue.sendParent({ type: 'ACTION_DONE', output } as never);
    }),
  },
  guards: actionSlotGuards,
}).createMachine({
  id: actionMachineId,
  context: { current: null, waitId: 0, waitMs: 0, last: null, settled: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: {
        START: {
          target: 'awaitingAck',
          actions: dispatchFirst,
        },
      },
    },
    ...actionSlotStates,
  },
});

/** The action machine, its waits timed by the provided `armDeadline` (action-waits.ts). */
export const actionMachine = withTimedWaits(untimedActionMachine);
