// taskMachine: one chat/browser task on the server (seed 000 §2.1).
//
//   created --USER_MESSAGE--> running.active --turn done--> ongoing.idle --USER_MESSAGE--> running ...
//   running.active <-TAKEOVER/RESUME-> running.takeover
//   ongoing.idle   <-TAKEOVER/RESUME-> ongoing.takeover
//   STOP (anywhere) -> completed;  FAIL or a failed turn -> error
//   completed | error --USER_MESSAGE--> running   (a follow-up reopens the same task: one
//   actor for the task's whole life, so `created` is reported once)
//
// Takeover is a substate of the state that owns the turn, so the turn (the provided
// `runTurn` actor: LLM <-> tools loop for one user message) is paused, not canceled:
// the runtime's turn asks before each browser action and waits for RESUME. A turn that
// ends during takeover lands in ongoing.takeover; a message queued during takeover
// starts its turn in running.takeover. `taskStatusOf` flattens both takeovers to
// 'takeover'.
//
// Action gating (seed 000 §2.1 rule 1 and 4): ACTION_STARTED {actionId} is accepted
// only in running.active with nothing in flight; ACTION_SETTLED {actionId} clears it in
// any state, so an action started before a takeover may finish during it. The runtime
// checks `canDispatchAction(snapshot)` before dispatching and `actionInFlightOf` after.
import { and, assign, enqueueActions, fromPromise, setup, stateIn } from 'xstate';
import { ErrorCode } from './spec/error-codes.ts';
import { errorValue, toErrorValue, type ErrorValue } from './spec/error-value.ts';

export const taskMachineId = 'task';

export type TaskStatus = 'created' | 'running' | 'ongoing' | 'takeover' | 'completed' | 'error';

export interface TaskMessage {
  id: string;
  content: string;
  /** Follows the message through the store, the LLM calls, plugin frames and frontend events. */
  traceId?: string;
}

export interface TaskInput {
  taskId: string;
}

export interface TurnInput {
  taskId: string;
  message: TaskMessage;
}

export type TaskEvent =
  | { type: 'USER_MESSAGE'; message: TaskMessage }
  | { type: 'TAKEOVER'; reason?: string }
  | { type: 'RESUME' }
  | { type: 'STOP' }
  | { type: 'FAIL'; error: ErrorValue }
  | { type: 'ACTION_STARTED'; actionId: string }
  | { type: 'ACTION_SETTLED'; actionId: string };

export interface TaskContext {
  taskId: string;
  /** The message the current (or last) turn works on. */
  currentMessage: TaskMessage | null;
  /** Messages that arrived while a turn was running, oldest first. */
  queue: TaskMessage[];
  /** The one browser action in flight for this task, if any. */
  inFlightActionId: string | null;
  /** Turns started so far. */
  turns: number;
  error: ErrorValue | null;
  /** The status last handed to persistStatus/notifyStatus (keeps them change-only). */
  reportedStatus: TaskStatus | null;
}

export interface TaskOutput {
  taskId: string;
  status: 'completed' | 'error';
  error?: ErrorValue;
  /** Messages still queued when the task ended (never dropped silently). */
  unprocessed: TaskMessage[];
}

export interface StatusParams {
  taskId: string;
  status: TaskStatus;
}

const report = (status: TaskStatus) => ({ type: 'reportStatus', params: { status } }) as const;

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
  },
  actions: {
    persistStatus: (_, _params: StatusParams) => {},
    notifyStatus: (_, _params: StatusParams) => {},
    reportStatus: enqueueActions(({ context, enqueue }, params: { status: TaskStatus }) => {
      if (context.reportedStatus === params.status) return;
      enqueue.assign({ reportedStatus: params.status });
      const statusParams: StatusParams = { taskId: context.taskId, status: params.status };
      // Actions of the same setup() are not in enqueue's type yet; they resolve by name.
      type Enqueued = Parameters<typeof enqueue>[0];
      enqueue({ type: 'persistStatus', params: statusParams } as unknown as Enqueued);
      enqueue({ type: 'notifyStatus', params: statusParams } as unknown as Enqueued);
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
      queue: ({ context, event }) => [...context.queue, (event as Extract<TaskEvent, { type: 'USER_MESSAGE' }>).message],
    }),
    markActionInFlight: assign({
      inFlightActionId: ({ event }) => (event as Extract<TaskEvent, { type: 'ACTION_STARTED' }>).actionId,
    }),
    clearActionInFlight: assign({ inFlightActionId: null }),
    recordFailure: assign({ error: ({ event }) => (event as Extract<TaskEvent, { type: 'FAIL' }>).error }),
    clearError: assign({ error: null }),
    recordTurnError: assign({
      error: ({ event }) => toErrorValue((event as { error?: unknown }).error, ErrorCode.INTERNAL),
    }),
  },
  guards: {
    hasQueuedMessage: ({ context }) => context.queue.length > 0,
    noActionInFlight: ({ context }) => context.inFlightActionId === null,
    settlesInFlightAction: ({ context, event }) =>
      event.type === 'ACTION_SETTLED' && event.actionId === context.inFlightActionId,
    inTakeover: stateIn('#task.running.takeover'),
  },
}).createMachine({
  id: taskMachineId,
  context: ({ input }) => ({
    taskId: input.taskId,
    currentMessage: null,
    queue: [],
    inFlightActionId: null,
    turns: 0,
    error: null,
    reportedStatus: null,
  }),
  initial: 'created',
  on: {
    STOP: { target: '.completed' },
    FAIL: { target: '.error', actions: 'recordFailure' },
    ACTION_SETTLED: { guard: 'settlesInFlightAction', actions: 'clearActionInFlight' },
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
            target: '#task.running.takeover',
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
          on: {
            TAKEOVER: { target: 'takeover' },
            ACTION_STARTED: { guard: 'noActionInFlight', actions: 'markActionInFlight' },
          },
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
            USER_MESSAGE: { target: '#task.running', actions: 'startTurnWith' },
          },
        },
        takeover: {
          entry: report('takeover'),
          on: {
            RESUME: { target: 'idle' },
            USER_MESSAGE: { target: '#task.running.takeover', actions: 'startTurnWith' },
          },
        },
      },
    },
    // Ended, not final: the task keeps its actor, and a follow-up message is this transition.
    completed: {
      entry: report('completed'),
      on: { USER_MESSAGE: { target: 'running', actions: ['clearError', 'startTurnWith'] } },
    },
    error: {
      entry: report('error'),
      on: { USER_MESSAGE: { target: 'running', actions: ['clearError', 'startTurnWith'] } },
    },
  },
});

/** What an ended task leaves: its status, the error of a failed one, messages never processed. */
export function taskOutputOf(snapshot: { value: unknown; context: TaskContext }): TaskOutput | null {
  const { context } = snapshot;
  if (snapshot.value === 'completed') return { taskId: context.taskId, status: 'completed', unprocessed: context.queue };
  if (snapshot.value === 'error') {
    return {
      taskId: context.taskId,
      status: 'error',
      error: context.error ?? errorValue(ErrorCode.INTERNAL, 'unknown task error'),
      unprocessed: context.queue,
    };
  }
  return null;
}
