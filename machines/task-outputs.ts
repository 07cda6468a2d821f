// What a task's end leaves behind: the outputs of the actions and page preparations it never ran
// (the task ended or was not running first), and the task's own output once it is completed or
// failed.
import type { ActionInput, ActionOutput } from './action-types.ts';
import type { PagePrepOutput } from './page-prep.machine.ts';
import { ErrorCode } from '../spec/error-codes.ts';
import { errorValue } from '../spec/error-value.ts';
import type { TaskContext, TaskOutput } from './task-types.ts';
import { taskStatusOf } from './task-queries.ts';

/** The output of an action that was never sent: the task ended (or was not running) first. */
export function canceledActionOutput(action: ActionInput, message: string): ActionOutput {
  return {
    actionId: action.actionId,
    actionName: action.actionName,
    status: 'canceled',
    attempts: 0,
    execTimeoutStreak: 0,
    answered: false,
    error: errorValue(ErrorCode.TASK_STOPPED, message, { retryable: false }),
  };
}

export const canceledPrep = (message: string): PagePrepOutput => ({
  status: 'failed',
  warnings: [],
  missing: ['screenshot', 'readability'],
  error: errorValue(ErrorCode.TASK_STOPPED, message, { retryable: false }),
});

/** The outcome of a page preparation when the runtime provided no `preparePage`. */
export const prepNotProvided: PagePrepOutput = {
  ...canceledPrep('preparePage is not provided'),
  error: errorValue(ErrorCode.INTERNAL, 'preparePage is not provided', { retryable: false }),
};

/** What an ended task leaves: its status, the error of a failed one, messages never processed. */
export function taskOutputOf(snapshot: { value: unknown; context: TaskContext }): TaskOutput | null {
  const { context } = snapshot;
  const status = taskStatusOf(snapshot);
  if (status === 'completed') return { taskId: context.taskId, status: 'completed', unprocessed: context.queue };
  if (status === 'error') {
    return {
      taskId: context.taskId,
      status: 'error',
      error: context.error ?? errorValue(ErrorCode.INTERNAL, 'unknown task error'),
      unprocessed: context.queue,
    };
  }
  return null;
}
