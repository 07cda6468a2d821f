// taskMachine: one chat/browser task on the server (seed 000 §2.1), the root of the task's
// actor tree: its turn and its browser actions are its children, in one actor system on one
// clock; it runs its page preparations itself. Parallel: region `status` is the task's status,
// region `pluginUi` the server's mirror of the overlay (plugin-ui-region.ts), so the mirror costs
// no actor and no inspection step of its own. In `status`:
//
//   created --USER_MESSAGE--> running.active --turn done--> ongoing.idle --USER_MESSAGE--> running ...
//   running.active <-TAKEOVER/RESUME-> running.takeover;  ongoing.idle <-TAKEOVER/RESUME-> ongoing.takeover
//   STOP (anywhere) -> completed;  FAIL or a failed turn -> error;  completed | error --USER_MESSAGE--> running
//
// The turn (the provided `runTurn` actor: LLM <-> tools loop for one user message) is invoked by
// `running`. It asks for browser actions with ACTION_REQUESTED: the action is sent (START) to the task's one action actor
// (`runAction`, made on the first action and kept) when the task may act (000 §2.1 rules 1, 4: one in flight, none in takeover);
// otherwise it waits in `pendingActions` and starts on RESUME or when the action in flight
// settles (its start is the action actor's first frame). The action actor reports each settled
// action as ACTION_DONE, handed to the provided `actionSettled`. Page preparations
// (PAGE_PREP_REQUESTED) are no actors: they are recorded in `pagePreps`, run by the provided
// `preparePage` (page-prep-run.ts) and answered by one PAGE_PREP_DONE. Ending the task (STOP,
// FAIL, a failed turn) cancels what is in flight: the action actor gets CANCEL, queued actions
// and page preparations settle as canceled (a later PAGE_PREP_DONE is ignored).
import { and, assign, enqueueActions, fromPromise, setup, stateIn, type ActorRefFrom } from 'xstate';
import { actionMachine } from './action.machine.ts';
import type { ActionInput, ActionOutput } from './action-types.ts';
import { ACTION_CHILD_ID } from './task-child-slots.ts';
import { canceledActionOutput, canceledPrep, prepNotProvided } from './task-outputs.ts';
import { isIn, named, report, startAction } from './task-machine-helpers.ts';
import { pluginUiGuards, pluginUiRegion } from './plugin-ui-region.ts';
import { ErrorCode } from '../spec/error-codes.ts';
import { errorValue, toErrorValue } from '../spec/error-value.ts';
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
export { ACTION_CHILD_ID } from './task-child-slots.ts';

export const taskMachine = setup({
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
    runAction: actionMachine,
  },
  actions: {
    persistStatus: (_, _params: StatusParams) => {},
    notifyStatus: (_, _params: StatusParams) => {},
    actionSettled: (_, _params: ActionSettledParams) => {},
    pagePrepSettled: (_, _params: PagePrepSettledParams) => {},
    /** Runs the page preparation (captures as browser actions); its outcome comes back as PAGE_PREP_DONE. */
    preparePage: ({ self }, params: PreparePageParams) =>
      self.send({ type: 'PAGE_PREP_DONE', prepId: params.prepId, output: prepNotProvided }),
    reportStatus: enqueueActions(({ context, enqueue }, params: { status: TaskStatus }) => {
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
    /** Starts the requested action now, or queues it until the task may act. */
    requestAction: enqueueActions(({ context, event, enqueue, check, self }) => {
      const action = (event as Extract<TaskEvent, { type: 'ACTION_REQUESTED' }>).action;
      if (!isIn(check, '#task.status.running')) {
        named(enqueue, 'actionSettled', {
          actionId: action.actionId,
          output: canceledActionOutput(action, `${action.actionName} was not sent: no turn is running`),
        });
      } else if (
        context.inFlightActionId === null &&
        context.pendingActions.length === 0 &&
        isIn(check, '#task.status.running.active')
      ) {
        enqueue.assign({ inFlightActionId: action.actionId });
        startAction(enqueue, self, action);
      } else {
        enqueue.assign({ pendingActions: [...context.pendingActions, action] });
      }
    }),
    /** The next queued action, when nothing is in flight and the task is not taken over. */
    startNextAction: enqueueActions(({ context, enqueue, self }) => {
      const [next, ...rest] = context.pendingActions;
      if (!next || context.inFlightActionId !== null) return;
      enqueue.assign({ inFlightActionId: next.actionId, pendingActions: rest });
      startAction(enqueue, self, next);
    }),
    /** The action actor settled the action in flight (ACTION_DONE), or failed itself (then it is gone). */
    settleAction: enqueueActions(({ context, event, enqueue, check, self }) => {
      const done = event as { type: string; output?: ActionOutput; error?: unknown };
      // An action actor that failed is gone for good: the next action gets a new one.
      const failed = done.type !== 'ACTION_DONE';
      if (failed) enqueue.stopChild(ACTION_CHILD_ID);
      const actionId = context.inFlightActionId;
      if (actionId === null) return;
      const output =
        done.type === 'ACTION_DONE' && done.output
          ? done.output
          : {
              ...canceledActionOutput({ actionId, actionName: 'unknown' } as ActionInput, 'the action actor failed'),
              status: 'failed' as const,
              error: toErrorValue(done.error, ErrorCode.INTERNAL),
            };
      enqueue.assign({ inFlightActionId: null });
      named(enqueue, 'actionSettled', { actionId, output });
      const [next, ...rest] = context.pendingActions;
      if (next && isIn(check, '#task.status.running.active')) {
        enqueue.assign({ inFlightActionId: next.actionId, pendingActions: rest });
        startAction(enqueue, self, next, failed);
      }
    }),
    /** The outcome of a page preparation in flight; one that was canceled meanwhile is already settled. */
    settlePagePrep: enqueueActions(({ context, event, enqueue }) => {
      const { prepId, output } = event as Extract<TaskEvent, { type: 'PAGE_PREP_DONE' }>;
      if (!context.pagePreps.some((p) => p.prepId === prepId)) return;
      enqueue.assign({ pagePreps: context.pagePreps.filter((p) => p.prepId !== prepId) });
      named(enqueue, 'pagePrepSettled', { prepId, output });
    }),
    startPagePrep: enqueueActions(({ context, event, enqueue, check }) => {
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
    cancelWork: enqueueActions(({ context, enqueue }, params: { closeTab: boolean }) => {
      const reason = params.closeTab ? 'the task was stopped' : 'the task failed';
      if (context.inFlightActionId !== null)
        enqueue.sendTo(ACTION_CHILD_ID, { type: 'CANCEL', reason, closeTab: params.closeTab });
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
    ...pluginUiGuards,
  },
}).createMachine({
  id: taskMachineId,
  context: ({ input }) => ({
    taskId: input.taskId,
    currentMessage: null,
    queue: [],
    inFlightActionId: null,
    pendingActions: [],
    pagePreps: [],
    turns: 0,
    error: null,
    reportedStatus: null,
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
        ACTION_REQUESTED: { actions: 'requestAction' },
        ACTION_DONE: { actions: 'settleAction' },
        [`xstate.error.actor.${ACTION_CHILD_ID}`]: { actions: 'settleAction' },
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
              entry: [report('running'), 'startNextAction'],
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
    pluginUi: pluginUiRegion,
  },
});

export type TaskActionRef = ActorRefFrom<typeof actionMachine>;
