// Small typed helpers of taskMachine's definition: the status report action and escapes for
// enqueueActions, whose types do not yet know the actions and guards of the same setup().
import { stateIn } from 'xstate';
import type { TaskStatus } from './task-types.ts';

export const report = (status: TaskStatus) => ({ type: 'reportStatus', params: { status } }) as const;

/** Actions of the same setup() are not in enqueue's type yet; they resolve by name. */
export const named = (enqueue: (action: never) => void, type: string, params: object) =>
  enqueue({ type, params } as never);
/** `check(stateIn(id))` inside enqueueActions (the guard's types do not line up there). */
export const isIn = (check: (guard: never) => boolean, id: string) => check(stateIn(id) as never);
