// pluginUiMachine: the Manus-aligned overlay state of seed 000 §2.2. The same
// definition runs in the extension's content script (drives the overlay, reports user
// input) and mirrored on the server (fed the same events, for the live view).
//
//   idle     no task: no overlay                  hidden   task in background / suspended
//   ongoing  AI drives the tab: overlay shown     takeover user has control: resume/stop
//
// Alignment with the task (seed 000 §2.2), see `uiStateForTask`:
//   task running/ongoing/created + an action executing -> ongoing, without one -> hidden;
//   task takeover -> takeover; task completed/error or TASK_ENDED -> idle.
// USER_INPUT while ongoing -> takeover (reportTakeover). From takeover only RESUME
// (-> ongoing if the in-flight action has not settled yet, else hidden; reportResume),
// STOP (-> idle; reportStop) or the end of the task leave it: a TASK_STATUS 'running'
// that was on the wire before the server saw the takeover must not undo it, so a resume
// decided elsewhere (web UI) reaches the content script as RESUME too.
// The report* actions are the side effects: the content script sends them to the
// server; the server mirror provides them as no-ops or forwards them to the task actor.
import { assign, setup } from 'xstate';
import type { TaskStatus } from './task-types.ts';

export const pluginUiMachineId = 'pluginUi';

export type PluginUiState = 'idle' | 'hidden' | 'ongoing' | 'takeover';

export type PluginUiEvent =
  | { type: 'TASK_STATUS'; status: TaskStatus; taskId?: string }
  | { type: 'ACTION_STARTED'; actionId: string }
  | { type: 'ACTION_SETTLED'; actionId: string }
  | { type: 'USER_INPUT'; kind?: string }
  | { type: 'RESUME' }
  | { type: 'STOP' }
  | { type: 'TASK_ENDED' };

export interface PluginUiContext {
  taskId: string | null;
  /** The action currently executing on the tab, if any. */
  actionInFlight: string | null;
}

export interface UiReportParams {
  taskId: string | null;
}

/** The UI state seed 000 §2.2 asks for, given the task's status. */
export function uiStateForTask(status: TaskStatus, actionInFlight: boolean): PluginUiState {
  if (status === 'completed' || status === 'error') return 'idle';
  if (status === 'takeover') return 'takeover';
  return actionInFlight ? 'ongoing' : 'hidden';
}

const reportParams = ({ context }: { context: PluginUiContext }): UiReportParams => ({ taskId: context.taskId });

const taskEndTransitions = {
  TASK_ENDED: { target: 'idle' },
  STOP: { target: 'idle', actions: { type: 'reportStop', params: reportParams } },
} as const;

export const pluginUiMachine = setup({
  types: {} as {
    context: PluginUiContext;
    events: PluginUiEvent;
  },
  actions: {
    reportTakeover: (_, _params: UiReportParams) => {},
    reportResume: (_, _params: UiReportParams) => {},
    reportStop: (_, _params: UiReportParams) => {},
    resetSession: assign({ taskId: null, actionInFlight: null }),
    rememberTask: assign({
      taskId: ({ context, event }) => (event.type === 'TASK_STATUS' && event.taskId) || context.taskId,
    }),
    markActionStarted: assign({
      actionInFlight: ({ event }) => (event as Extract<PluginUiEvent, { type: 'ACTION_STARTED' }>).actionId,
    }),
    markActionSettled: assign({ actionInFlight: null }),
  },
  guards: {
    taskIsOver: ({ event }) => event.type === 'TASK_STATUS' && uiStateForTask(event.status, false) === 'idle',
    taskIsTakenOver: ({ event }) => event.type === 'TASK_STATUS' && uiStateForTask(event.status, false) === 'takeover',
    actionIsInFlight: ({ context }) => context.actionInFlight !== null,
    settlesActionInFlight: ({ context, event }) =>
      event.type === 'ACTION_SETTLED' && event.actionId === context.actionInFlight,
  },
}).createMachine({
  id: pluginUiMachineId,
  // No input: the task is learned from TASK_STATUS, the action from ACTION_STARTED.
  context: { taskId: null, actionInFlight: null },
  initial: 'idle',
  on: {
    ACTION_SETTLED: { guard: 'settlesActionInFlight', actions: 'markActionSettled' },
  },
  states: {
    idle: {
      entry: 'resetSession',
      on: {
        TASK_STATUS: [
          { guard: 'taskIsOver' },
          { guard: 'taskIsTakenOver', target: 'takeover', actions: 'rememberTask' },
          { target: 'hidden', actions: 'rememberTask' },
        ],
        ACTION_STARTED: { target: 'ongoing', actions: 'markActionStarted' },
      },
    },
    hidden: {
      on: {
        ...taskEndTransitions,
        TASK_STATUS: [
          { guard: 'taskIsOver', target: 'idle' },
          { guard: 'taskIsTakenOver', target: 'takeover', actions: 'rememberTask' },
          { actions: 'rememberTask' },
        ],
        ACTION_STARTED: { target: 'ongoing', actions: 'markActionStarted' },
      },
    },
    ongoing: {
      on: {
        ...taskEndTransitions,
        TASK_STATUS: [
          { guard: 'taskIsOver', target: 'idle' },
          { guard: 'taskIsTakenOver', target: 'takeover', actions: 'rememberTask' },
          { actions: 'rememberTask' },
        ],
        ACTION_STARTED: { actions: 'markActionStarted' },
        ACTION_SETTLED: { guard: 'settlesActionInFlight', target: 'hidden', actions: 'markActionSettled' },
        USER_INPUT: { target: 'takeover', actions: { type: 'reportTakeover', params: reportParams } },
      },
    },
    takeover: {
      on: {
        ...taskEndTransitions,
        TASK_STATUS: { guard: 'taskIsOver', target: 'idle' },
        // Recorded (so RESUME knows), but the overlay stays in takeover.
        ACTION_STARTED: { actions: 'markActionStarted' },
        RESUME: [
          { guard: 'actionIsInFlight', target: 'ongoing', actions: { type: 'reportResume', params: reportParams } },
          { target: 'hidden', actions: { type: 'reportResume', params: reportParams } },
        ],
      },
    },
  },
});
