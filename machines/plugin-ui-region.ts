// The plugin-UI mirror as a region of the task machine: the overlay state the extension's
// pluginUiMachine shows for this task (seed 000 §2.2), kept by the task actor itself so it costs
// no actor, no event and no inspection step of its own. On the server the mirror is fed in lock
// step with the task (its status reports, its action starting and settling, the person's
// Resume/Stop, which are the task's own events), so its state is a function of the task's:
// `uiStateForTask(reported status, action in flight)`, idle before the first status report.
//
//   idle -> hidden;  hidden | ongoing | takeover -> any other   (the target is derived, below)
//
// Each state leaves by an eventless transition to the derived state when it differs; the two
// changes of every action (hidden -> ongoing when it starts, ongoing -> hidden when it settles)
// ride on the task's own events instead (the ACTION_REQUESTED that starts the action at once, the
// RESULT that settles it), with the action region's guards, in the same microstep: no extra step.
import { and, not, or, stateIn } from 'xstate';
import { uiStateForTask, type PluginUiState } from './plugin-ui.machine.ts';
import type { TaskContext, TaskEvent } from './task-types.ts';

/** The mirror's state for the task's context (the status last reported, the action in flight). */
export function pluginUiStateOf(context: TaskContext): PluginUiState {
  if (context.reportedStatus === null) return 'idle';
  return uiStateForTask(context.reportedStatus, context.current !== null);
}

type Args = { context: TaskContext; event: TaskEvent };

const derived =
  (state: PluginUiState) =>
  ({ context }: Args) =>
    pluginUiStateOf(context) === state;

/** The region's guards, for the task machine's setup(). */
export const pluginUiGuards = {
  uiIsIdle: derived('idle'),
  uiIsHidden: derived('hidden'),
  uiIsOngoing: derived('ongoing'),
  uiIsTakeover: derived('takeover'),
};

const to = (state: PluginUiState) => ({
  guard: `uiIs${state[0]!.toUpperCase()}${state.slice(1)}` as keyof typeof pluginUiGuards,
  target: state,
});
const others = (state: PluginUiState) =>
  (['idle', 'hidden', 'ongoing', 'takeover'] as const).filter((s) => s !== state).map(to);

/** The region's config (its transitions name the guards above). */
export const pluginUiRegion = {
  initial: 'idle',
  states: {
    // Left only by a follow-up message: a turn starts with nothing in flight (the task's end
    // canceled it), never straight into a takeover.
    idle: { always: to('hidden') },
    hidden: {
      on: { ACTION_REQUESTED: { guard: 'startsActionNow', target: 'ongoing' } },
      always: others('hidden'),
    },
    ongoing: {
      // The RESULT that settles the action in flight (task-action-region.ts), no queued one starting.
      on: {
        RESULT: [
          { guard: and(['noQueuedStart', or(['isSuccess', 'isPartial'])]), target: 'hidden' },
          {
            guard: and(['noQueuedStart', 'isFinalErrorAnswer', not(stateIn('#task.action.retryWait'))]),
            target: 'hidden',
          },
        ],
      },
      always: others('ongoing'),
    },
    takeover: { always: others('takeover') },
  },
} as const;
