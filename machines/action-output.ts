// The action machine's pure helpers: a RESULT event as an answer, a context as the output of a
// final state.
import type { ActionAnswer, ActionContext, ActionOutput, ActionResultEvent, ActionStatus } from './action-types.ts';

export function answerOf(event: ActionResultEvent): ActionAnswer {
  const answer: ActionAnswer = { status: event.status };
  if (event.result !== undefined) answer.result = event.result;
  if (event.error !== undefined) answer.error = event.error;
  return answer;
}

export function outputOf(context: ActionContext, status: ActionStatus): ActionOutput {
  const output: ActionOutput = {
    actionId: context.actionId,
    actionName: context.actionName,
    status,
    attempts: context.attempts,
    execTimeoutStreak: context.execTimeoutStreak,
    answered: context.answered,
  };
  if (context.result !== undefined) output.result = context.result;
  if ((status === 'failed' || status === 'canceled') && context.error !== undefined) output.error = context.error;
  if (status === 'failed' && context.timedOut !== undefined) output.timedOut = context.timedOut;
  return output;
}

/** The dispatch id of attempt `attempt` after an error result: new to the plugin's dedupe cache (seed 001 §4.2). */
export function retryDispatchIdOf(actionId: string, attempt: number): string {
  return `${actionId}~${attempt}`;
}
