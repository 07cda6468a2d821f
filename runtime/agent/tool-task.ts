// A task actor for a caller that has no chat turn: an MCP session's tab (browser-shell, template
// steps) or a direct `tasks.run`. Its actions run as children of its own taskMachine actor
// exactly as an agent task's do (its `action` region): one at a time, held during a takeover until RESUME, canceled by
// STOP (the plugin is told), inspected with the task's id. It is not a chat task: nothing is
// stored and no task list shows it. In place of a turn it holds the task `running` while its
// caller uses it; an action after a STOP (the MCP client's cancel, the overlay's Stop) opens a
// new hold, as a follow-up message reopens a chat task.
import { createActor, fromPromise, type Actor, type InspectionEvent } from 'xstate';
import {
  canceledActionOutput,
  errorValue,
  ErrorCode,
  taskMachine,
  turnRunningOf,
  type ActionInput,
  type PagePrepInput,
  type PagePrepOutput,
} from '../../machines/index.ts';
import type { Clock } from '../clock/index.ts';
import type { SettledOutput } from '../scheduler/action-registry.ts';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';
import { createTaskChildren } from './task-children.ts';
import { actionEffectsTellingStarts } from './action-starts.ts';

export interface ToolTaskDeps {
  taskId: string;
  scheduler: Pick<ActionScheduler, 'actionEffects' | 'registry'>;
  clock: Clock;
  inspect?: (event: InspectionEvent) => void;
  /** The page preparation of the task's browser (TaskBrowser.pagePrepLogic), when it has one. */
  pagePrepLogic?: (input: PagePrepInput) => Promise<PagePrepOutput>;
}

export interface ToolTask {
  taskId: string;
  actor: Actor<typeof taskMachine>;
  /** Runs an action; the caller calls `reported` once its settle event went out (TaskBrowser does). */
  runAction(input: ActionInput, onStarted: () => void): Promise<SettledOutput>;
  /** The settle of `actionId` went out (or never will): the next action's start may be told. */
  reported(actionId: string): void;
  /** `runAction` for a caller that reports nothing itself: reported as soon as it settles. */
  runAndReport(input: ActionInput, onStarted: () => void): Promise<SettledOutput>;
  preparePage(input: PagePrepInput & { prepId: string }): Promise<PagePrepOutput>;
  /** Cancels what runs now (the action in flight is told to stop on the plugin, queued ones settle unsent). */
  cancel(): void;
  /** Actions queued or in flight. */
  pending(): number;
  /** Ends the hold and stops the actor (the caller is done with it). */
  dispose(): void;
}

export function createToolTask(deps: ToolTaskDeps): ToolTask {
  const { taskId } = deps;
  let holds = 0;
  let disposed = false;
  let release: (() => void) | null = null;
  let actor!: Actor<typeof taskMachine>;
  const children = createTaskChildren({
    send: (event) => actor.send(event),
    registry: deps.scheduler.registry,
    now: () => deps.clock.now(),
    ...(deps.pagePrepLogic ? { pagePrep: deps.pagePrepLogic } : {}),
  });
  const machine = taskMachine.provide({
    actors: {
      // The hold: ends when the task leaves `running` (STOP aborts it) or when disposed.
      runTurn: fromPromise(
        ({ signal }) =>
          new Promise<void>((resolve) => {
            release = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          }),
      ),
    },
    actions: {
      // The step's `toolUsed start` is told with the action's first frame, as a chat task's is.
      ...actionEffectsTellingStarts(deps.scheduler.actionEffects, (actionId) =>
        children.provided.actionStarted(undefined, { actionId }),
      ),
      ...children.provided,
    },
  });
  actor = createActor(machine, {
    id: `task:${taskId}`,
    input: { taskId },
    clock: deps.clock,
    ...(deps.inspect ? { inspect: deps.inspect } : {}),
  });
  actor.start();

  /** Actions only run while the task is `running`: opens a hold when there is none. */
  function open(): void {
    if (turnRunningOf(actor.getSnapshot())) return;
    holds++;
    actor.send({ type: 'USER_MESSAGE', message: { id: `hold-${holds}`, content: '' } });
  }

  return {
    taskId,
    actor,
    runAction(input, onStarted) {
      if (disposed)
        return Promise.resolve({
          ...canceledActionOutput(input, `${input.actionName} was not sent: the session's tab is closed`),
          durationMs: 0,
        });
      open();
      return children.runAction(input, onStarted);
    },
    reported: children.reported,
    runAndReport(input, onStarted) {
      if (disposed)
        return Promise.resolve({
          ...canceledActionOutput(input, `${input.actionName} was not sent: the session's tab is closed`),
          durationMs: 0,
        });
      open();
      return children.runAndReport(input, onStarted);
    },
    preparePage(input) {
      if (disposed)
        return Promise.resolve({
          status: 'failed',
          warnings: [],
          missing: ['screenshot', 'readability'],
          error: errorValue(ErrorCode.TASK_STOPPED, "the session's tab is closed", { retryable: false }),
        });
      open();
      return children.preparePage(input);
    },
    // The session goes on with its tab: the plugin stops the work without closing it.
    cancel: () => actor.send({ type: 'STOP', closeTab: false }),
    pending() {
      const { context } = actor.getSnapshot();
      return context.pendingActions.length + (context.current === null ? 0 : 1);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      // Settles what is queued or in flight (no waiter is left hanging), then ends the actor.
      if (turnRunningOf(actor.getSnapshot())) actor.send({ type: 'STOP', closeTab: false });
      release?.();
      actor.stop();
    },
  };
}
