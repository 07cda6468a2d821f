// Runs pluginUiMachine (machines/plugin-ui.machine.ts) for the task tab: turns what the
// background says (session on load, server ui_state, actions starting and settling, task end)
// into machine events, provides its report* actions (-> background -> server) and renders the
// overlay from its state.
import { createActor } from 'xstate';
import { pluginUiMachine } from '../../machines/plugin-ui.machine.ts';
import type { PluginUiState } from '../../machines/plugin-ui.machine.ts';
import type { OverlayCommandName } from '../../transport/contracts/index.ts';
import type { BackgroundToContentMessage, TabSession } from '../shared/internal-messages.ts';

/** Stand-in action id for "the server says the AI is driving" (plugin_ui_state ongoing). */
export const SERVER_ONGOING_ACTION = 'server:ongoing';

export interface UiControllerDeps {
  session: TabSession;
  render(state: PluginUiState, step: string): void;
  reportTakeover(taskId: string, reason: string): void;
  reportCommand(taskId: string, command: OverlayCommandName): void;
}

export interface UiController {
  handle(message: BackgroundToContentMessage): void;
  /**
   * Reconciles with what the background knows now (polled while the overlay shows): a task that
   * ended, an action that settled while its message was lost (a navigation, a worker restart),
   * a server state that changed. Never starts showing anything by itself.
   */
  sync(session: TabSession | null): void;
  userInput(kind: string): void;
  resume(): void;
  stop(): void;
  state(): PluginUiState;
  /** The task this tab's overlay belongs to. */
  readonly taskId: string;
  /** The server's last word is that the task's turn runs (between steps included): Take over is offered. */
  turnRunning(): boolean;
  destroy(): void;
}

export function createUiController(deps: UiControllerDeps): UiController {
  const taskId = deps.session.taskId;
  let step = deps.session.message ?? 'working';
  let lastInput = 'user_input';
  /** A RESUME the server decided (web UI) is applied without reporting it back. */
  let silentResume = false;
  let serverOngoing = false;
  /** The last server state applied (plugin_ui_state), to apply a changed one only once. */
  let appliedUiState: PluginUiState | undefined;

  const machine = pluginUiMachine.provide({
    actions: {
      reportTakeover: () => deps.reportTakeover(taskId, lastInput),
      reportResume: () => {
        if (silentResume) silentResume = false;
        else deps.reportCommand(taskId, 'resume');
      },
      reportStop: () => deps.reportCommand(taskId, 'stop'),
    },
  });
  const actor = createActor(machine, { input: { taskId } });
  const state = () => actor.getSnapshot().value as PluginUiState;
  actor.subscribe((snapshot) => deps.render(snapshot.value as PluginUiState, step));
  actor.start();
  deps.render(state(), step);

  function resumeFromServer(): void {
    if (state() !== 'takeover') return;
    silentResume = true;
    actor.send({ type: 'RESUME' });
    silentResume = false;
  }

  function applyUiState(uiState: PluginUiState): void {
    appliedUiState = uiState;
    switch (uiState) {
      case 'idle':
        serverOngoing = false;
        actor.send({ type: 'TASK_ENDED' });
        return;
      case 'takeover':
        actor.send({ type: 'TASK_STATUS', status: 'takeover', taskId });
        return;
      case 'hidden':
        serverOngoing = false;
        resumeFromServer();
        actor.send({ type: 'TASK_STATUS', status: 'running', taskId });
        actor.send({ type: 'ACTION_SETTLED', actionId: SERVER_ONGOING_ACTION });
        return;
      case 'ongoing':
        serverOngoing = true;
        resumeFromServer();
        actor.send({ type: 'TASK_STATUS', status: 'running', taskId });
        actor.send({ type: 'ACTION_STARTED', actionId: SERVER_ONGOING_ACTION });
        return;
    }
  }

  // Restore what the background knows (this content script may be new after a navigation).
  if (deps.session.uiState) applyUiState(deps.session.uiState);
  if (deps.session.takeoverPending) actor.send({ type: 'TASK_STATUS', status: 'takeover', taskId });
  if (deps.session.action) {
    step = deps.session.action.label;
    actor.send({ type: 'ACTION_STARTED', actionId: deps.session.action.actionId });
  }

  return {
    handle(message) {
      if ('taskId' in message && message.taskId !== taskId) return;
      switch (message.kind) {
        case 'ui_state':
          if (message.message !== undefined) step = message.message;
          applyUiState(message.state);
          deps.render(state(), step);
          return;
        case 'action_started':
          step = message.label;
          actor.send({ type: 'ACTION_STARTED', actionId: message.actionId });
          deps.render(state(), step);
          return;
        case 'action_settled':
          actor.send({ type: 'ACTION_SETTLED', actionId: message.actionId });
          if (serverOngoing && state() === 'hidden')
            actor.send({ type: 'ACTION_STARTED', actionId: SERVER_ONGOING_ACTION });
          return;
        case 'task_ended':
          serverOngoing = false;
          actor.send({ type: 'TASK_ENDED' });
          return;
        case 'session':
          return;
      }
    },
    sync(session) {
      if (!session || session.taskId !== taskId) {
        serverOngoing = false;
        actor.send({ type: 'TASK_ENDED' });
        return;
      }
      const inFlight = actor.getSnapshot().context.actionInFlight;
      if (inFlight && inFlight !== SERVER_ONGOING_ACTION && inFlight !== session.action?.actionId)
        actor.send({ type: 'ACTION_SETTLED', actionId: inFlight });
      if (session.takeoverPending) return; // the server has not answered the user's takeover yet
      if (session.uiState !== undefined && session.uiState !== appliedUiState) applyUiState(session.uiState);
      else if (session.uiState === undefined && serverOngoing) {
        // The background lost the server's state (worker restart): show nothing it cannot vouch for.
        serverOngoing = false;
        actor.send({ type: 'ACTION_SETTLED', actionId: SERVER_ONGOING_ACTION });
      }
      deps.render(state(), step);
    },
    userInput(kind) {
      lastInput = kind;
      actor.send({ type: 'USER_INPUT', kind });
    },
    resume: () => actor.send({ type: 'RESUME' }),
    stop: () => actor.send({ type: 'STOP' }),
    state,
    taskId,
    turnRunning: () => appliedUiState === 'ongoing' || appliedUiState === 'hidden',
    destroy: () => actor.stop(),
  };
}
