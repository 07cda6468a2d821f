// An action starts with its first frame: the scheduler's action logic with its `sendFrame` step
// telling `started(actionId)` first (the frame of a retry is no new start). Chat tasks tell the
// plugin-UI mirror and the turn there; tool tasks (MCP sessions, `tasks.run`) their caller, so
// both report a step's `toolUsed start` at the same point.
import type { SendActionInput } from '../../machines/index.ts';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';

export function actionLogicTellingStarts(
  actionLogic: ActionScheduler['actionLogic'],
  started: (actionId: string) => void,
): ActionScheduler['actionLogic'] {
  const writeFrame = actionLogic.implementations.actions.sendFrame as (args: unknown, input: SendActionInput) => void;
  return actionLogic.provide({
    actions: {
      sendFrame: (args, input) => {
        if (input.attempt === 1) started(input.actionId);
        writeFrame(args, input);
      },
    },
  });
}
