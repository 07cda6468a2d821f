// taskMachine: one chat/browser task on the server (seed 000 §2.1), the root of the task's
// actor tree: one actor for the task, its turn its one child, on one clock. Parallel regions:
//   `status`    the task's status (below);
//   `action`    its browser actions, one in flight at a time (task-action-region.ts: the action
//               slot's states, action-slot.ts, run by this actor itself);
//   `pluginUi`  the server's mirror of the overlay (plugin-ui-region.ts).
// The regions ride on the task's own events, so a browser action costs the task its three events
// (ACTION_REQUESTED, ACK, RESULT) and nothing else. In `status`:
//
//   created --USER_MESSAGE--> running.active --turn done--> ongoing.idle --USER_MESSAGE--> running ...
//   running.active <-TAKEOVER/RESUME-> running.takeover;  ongoing.idle <-TAKEOVER/RESUME-> ongoing.takeover
//   STOP (anywhere) -> completed;  FAIL or a failed turn -> error;  completed | error --USER_MESSAGE--> running
//
// The turn (the provided `runTurn` actor: LLM <-> tools loop for one user message) is invoked by
// `running`. It asks for browser actions with ACTION_REQUESTED: one in flight, none during takeover
// (seed 000 §2.1 rules 1 and 4), the others queued in `pendingActions`; each settled action goes
// to the provided `actionSettled`. Page preparations (PAGE_PREP_REQUESTED) are recorded in
// `pagePreps`, run by the provided `preparePage` (page-prep-run.ts) and answered by PAGE_PREP_DONE.
// Ending the task (STOP, FAIL, a failed turn) cancels what is in flight: the action in flight is
// canceled on the plugin, queued actions and page preparations settle as canceled.
import { and, assign, enqueueActions, fromPromise, not, or, setup, stateIn } from 'xstate';
import { actionSlotEffects, actionSlotFor } from './action-slot.ts';
import { withTimedWaits } from './action-waits.ts';
import { taskActionGuards, taskActionRegion } from './task-action-region.ts';
import { canceledActionOutput, canceledPrep, prepNotProvided } from './task-outputs.ts';
import { isIn, named, report } from './task-machine-helpers.ts';
import { pluginUiGuards, pluginUiRegion } from './plugin-ui-region.ts';
import { ErrorCode } from '../spec/error-codes.ts';
import { errorValue, toErrorValue } from '../spec/error-value.ts';
import type { CancelActionInput, DeadlineInput, IgnoredResultDisposition, SendActionInput } from './action-types.ts';
import type {
  ActionSettledParams,
  PagePrepSettledParams,
  PreparePageParams,
  StatusParams,
  TaskContext,
  TaskEvent,
  TaskInput,
  TaskOutput,
  TaskStatus,
  TurnInput,
} from './task-types.ts';

export const taskMachineId = 'task';

const slot = actionSlotFor<TaskContext>();

/**
 * enqueueActions typed against the task's context and events outside setup(): with the action
 * slot's actions and guards in it, setup() no longer infers these callbacks' types by itself.
 */
function taskEnqueue<P = undefined>(
  fn: (
    args: {
      context: TaskContext;
      event: TaskEvent;
      enqueue: TaskEnqueue;
      check: (guard: never) => boolean;
    },
    params: P,
  ) => void,
) {
  return enqueueActions(fn as never) as unknown as (args: unknown, params: P) => void;
}
/** What the callbacks use of enqueue: assign, and named actions (task-machine-helpers.ts `named`). */
type TaskEnqueue = ((action: never) => void) & { assign(values: Partial<TaskContext>): void };

const untimedTaskMachine = setup({
  types: {} as {
    context: TaskContext;
    events: TaskEvent;
    input: TaskInput;
    output: TaskOutput;
  },
  actors: {
    runTurn: fromPromise<unknown, TurnInput>(async () => {
      throw errorValue(ErrorCode.INTERNAL, 'runTurn is not provided');
    }),
  },
  actions: {
    ...slot.assigns,
    // The action slot's effects (action-slot.ts): the frame, the deadline, an ignored result, a cancel on the plugin.
    sendFrame: (args, params: SendActionInput) => actionSlotEffects.sendFrame(args as never, params),
    armDeadline: (args, params: DeadlineInput) => actionSlotEffects.armDeadline(args as never, params),
    reportIgnoredResult: (_, _params: { actionId: string; disposition: IgnoredResultDisposition }) => {},
    cancelOnPlugin: (_, _params: CancelActionInput) => {},
    persistStatus: (_, _params: StatusParams) => {},
    notifyStatus: (_, _params: StatusParams) => {},
    actionSettled: (_, _params: ActionSettledParams) => {},
    pagePrepSettled: (_, _params: PagePrepSettledParams) => {},
    /** Runs the page preparation (captures as browser actions); its outcome comes back as PAGE_PREP_DONE. */
    preparePage: ({ self }, params: PreparePageParams) =>
      self.send({ type: 'PAGE_PREP_DONE', prepId: params.prepId, output: prepNotProvided }),
    reportStatus: taskEnqueue(({ context, enqueue }, params: { status: TaskStatus }) => {
      if (context.reportedStatus === params.status) return;
      enqueue.assign({ reportedStatus: params.status });
      const statusParams: StatusParams = { taskId: context.taskId, status: params.status };
      named(enqueue, 'persistStatus', statusParams);
      named(enqueue, 'notifyStatus', statusParams);
    }),
    startTurnWith: assign(({ context, event }) => ({
      currentMessage: (event as Extract<TaskEvent, { type: 'USER_MESSAGE' }>).message,
      turns: context.turns + 1,
    })),
    startTurnWithQueued: assign(({ context }) => ({
      currentMessage: context.queue[0] ?? null,
      queue: context.queue.slice(1),
      turns: context.turns + 1,
    })),
    enqueueMessage: assign({
      queue: ({ context, event }) => [
        ...context.queue,
        (event as Extract<TaskEvent, { type: 'USER_MESSAGE' }>).message,
      ],
    }),
    /** An action that cannot start now: queued while a turn runs, else settled unsent. */
    queueAction: taskEnqueue(({ context, event, enqueue, check }) => {
      const action = (event as Extract<TaskEvent, { type: 'ACTION_REQUESTED' }>).action;
      if (isIn(check, '#task.status.running')) enqueue.assign({ pendingActions: [...context.pendingActions, action] });
      else
        named(enqueue, 'actionSettled', {
          actionId: action.actionId,
          output: canceledActionOutput(action, `${action.actionName} was not sent: no turn is running`),
        });
    }),
    /** The outcome of a page preparation in flight; one that was canceled meanwhile is already settled. */
    settlePagePrep: taskEnqueue(({ context, event, enqueue }) => {
      const { prepId, output } = event as Extract<TaskEvent, { type: 'PAGE_PREP_DONE' }>;
      if (!context.pagePreps.some((p) => p.prepId === prepId)) return;
      enqueue.assign({ pagePreps: context.pagePreps.filter((p) => p.prepId !== prepId) });
      named(enqueue, 'pagePrepSettled', { prepId, output });
    }),
    startPagePrep: taskEnqueue(({ context, event, enqueue, check }) => {
      const { prepId, input } = event as Extract<TaskEvent, { type: 'PAGE_PREP_REQUESTED' }>;
      if (!isIn(check, '#task.status.running')) {
        named(enqueue, 'pagePrepSettled', {
          prepId,
          output: canceledPrep('the page was not prepared: no turn is running'),
        });
        return;
      }
      enqueue.assign({ pagePreps: [...context.pagePreps, { prepId }] });
      named(enqueue, 'preparePage', { prepId, input: { ...input, prepId } } satisfies PreparePageParams);
    }),
    /** The task ended: cancel the action in flight, settle queued ones unsent, stop preparations. */
    cancelWork: taskEnqueue(({ context, enqueue }, params: { closeTab: boolean }) => {
      // The action in flight is canceled by the action region (task-action-region.ts).
      const reason = params.closeTab ? 'the task was stopped' : 'the task failed';
      for (const action of context.pendingActions) {
        named(enqueue, 'actionSettled', {
          actionId: action.actionId,
          output: canceledActionOutput(action, `${action.actionName} was not sent: ${reason}`),
        });
      }
      for (const { prepId } of context.pagePreps) {
        named(enqueue, 'pagePrepSettled', {
          prepId,
          output: canceledPrep(`the page preparation was canceled: ${reason}`),
        });
      }
      enqueue.assign({ pendingActions: [], pagePreps: [] });
    }),
    clearError: assign({ error: null }),
    recordFailure: assign({ error: ({ event }) => (event as Extract<TaskEvent, { type: 'FAIL' }>).error }),
    recordTurnError: assign({
      error: ({ event }) => toErrorValue((event as { error?: unknown }).error, ErrorCode.INTERNAL),
    }),
  },
  guards: {
    hasQueuedMessage: ({ context }) => context.queue.length > 0,
    inTakeover: stateIn('#task.status.running.takeover'),
    ...slot.guards,
    ...taskActionGuards,
    ...pluginUiGuards,
  },
}).createMachine({
  id: taskMachineId,
  context: ({ input }) => ({
    taskId: input.taskId,
    currentMessage: null,
    queue: [],
    pendingActions: [],
    pagePreps: [],
    turns: 0,
    error: null,
    reportedStatus: null,
    current: null,
    waitId: 0,
    waitMs: 0,
    last: null,
    settled: 0,
  }),
  // A parallel node's own transitions run only when no region takes the event (hence `status.on`).
  type: 'parallel',
  on: {
    PAGE_PREP_REQUESTED: { actions: 'startPagePrep' },
    PAGE_PREP_DONE: { actions: 'settlePagePrep' },
  },
  states: {
    // The task's status (seed 000 §2.1).
    status: {
      initial: 'created',
      on: {
        STOP: { target: '.completed' },
        FAIL: { target: '.error', actions: 'recordFailure' },
      },
      states: {
        created: {
          entry: report('created'),
          on: { USER_MESSAGE: { target: 'running', actions: 'startTurnWith' } },
        },
        running: {
          initial: 'active',
          invoke: {
            id: 'turn',
            src: 'runTurn',
            input: ({ context }) => ({ taskId: context.taskId, message: context.currentMessage! }),
            onDone: [
              {
                guard: and(['hasQueuedMessage', 'inTakeover']),
                target: '#task.status.running.takeover',
                reenter: true,
                actions: 'startTurnWithQueued',
              },
              { guard: 'hasQueuedMessage', target: 'running', reenter: true, actions: 'startTurnWithQueued' },
              { guard: 'inTakeover', target: 'ongoing.takeover' },
              { target: 'ongoing' },
            ],
            onError: { target: 'error', actions: 'recordTurnError' },
          },
          on: { USER_MESSAGE: { actions: 'enqueueMessage' } },
          states: {
            active: {
              entry: report('running'),
              on: { TAKEOVER: { target: 'takeover' } },
            },
            takeover: {
              entry: report('takeover'),
              on: { RESUME: { target: 'active' } },
            },
          },
        },
        ongoing: {
          initial: 'idle',
          states: {
            idle: {
              entry: report('ongoing'),
              on: {
                TAKEOVER: { target: 'takeover' },
                USER_MESSAGE: { target: '#task.status.running', actions: 'startTurnWith' },
              },
            },
            takeover: {
              entry: report('takeover'),
              on: {
                RESUME: { target: 'idle' },
                USER_MESSAGE: { target: '#task.status.running.takeover', actions: 'startTurnWith' },
              },
            },
          },
        },
        // Ended, not final: the task keeps its actor, and a follow-up message is this transition.
        completed: {
          // Stopped: the tab closes with the canceled action (README: a stopped task's tab closes),
          // unless the STOP says it stays (an MCP client's cancel: its session keeps the tab).
          entry: [
            report('completed'),
            {
              type: 'cancelWork',
              params: ({ event }) => ({ closeTab: !(event.type === 'STOP' && event.closeTab === false) }),
            },
          ],
          on: { USER_MESSAGE: { target: 'running', actions: ['clearError', 'startTurnWith'] } },
        },
        error: {
          entry: [report('error'), { type: 'cancelWork', params: { closeTab: false } }],
          // A message acknowledged while the failed turn ran was queued behind it: it still runs (the
          // failed turn's outcome is stored and reported first), as after a turn that succeeded.
          always: { guard: 'hasQueuedMessage', target: 'running', actions: ['clearError', 'startTurnWithQueued'] },
          on: { USER_MESSAGE: { target: 'running', actions: ['clearError', 'startTurnWith'] } },
        },
      },
    },
    action: taskActionRegion,
    pluginUi: pluginUiRegion,
  },
});

/** The task machine, the waits of its action in flight timed by the provided `armDeadline` (action-waits.ts). */
export const taskMachine = withTimedWaits(untimedTaskMachine);
