// An action starts with its first frame: the scheduler's action effects with their `sendFrame`
// telling `started(actionId)` first (the frame of a retry is no new start). Chat tasks tell the
// turn there; tool tasks (MCP sessions, `tasks.run`) their caller, so both report a step's
// `toolUsed start` at the same point.
import type { SendActionInput } from '../../machines/index.ts';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';

export function actionEffectsTellingStarts(
  effects: ActionScheduler['actionEffects'],
  started: (actionId: string) => void,
): ActionScheduler['actionEffects'] {
  return {
    ...effects,
    sendFrame: (args: unknown, input: SendActionInput) => {
      if (input.attempt === 1) started(input.actionId);
      effects.sendFrame(args, input);
    },
  };
}
