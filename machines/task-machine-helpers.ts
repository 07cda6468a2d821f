// Small typed helpers of taskMachine's definition: the status report action, escapes for
// enqueueActions, whose types do not yet know the actions and guards of the same setup(), and the
// start of an action in the task's action actor.
import { stateIn } from 'xstate';
import type { ActionInput } from './action-types.ts';
import { ACTION_CHILD_ID } from './task-child-slots.ts';
import type { TaskStatus } from './task-types.ts';

export const report = (status: TaskStatus) => ({ type: 'reportStatus', params: { status } }) as const;

/** Actions of the same setup() are not in enqueue's type yet; they resolve by name. */
export const named = (enqueue: (action: never) => void, type: string, params: object) =>
  enqueue({ type, params } as never);
/** `check(stateIn(id))` inside enqueueActions (the guard's types do not line up there). */
export const isIn = (check: (guard: never) => boolean, id: string) => check(stateIn(id) as never);

interface ActionStarter {
  (action: never): void;
  spawnChild(src: never, options: never): void;
  sendTo(to: never, event: never): void;
}

/**
 * Starts `action` in the task's action actor (`ACTION_CHILD_ID`): the actor is made on the task's
 * first action (and again if it ever failed), then runs every later one.
 */
export function startAction(
  enqueue: unknown,
  self: { getSnapshot(): { children?: Record<string, unknown> } | undefined },
  action: ActionInput,
  /** The action actor failed and was stopped in this step: make a new one. */
  fresh = false,
): void {
  const e = enqueue as ActionStarter;
  // The snapshot before this step (a pure transition has none: it spawns, as on a first action).
  if (fresh || !self.getSnapshot()?.children?.[ACTION_CHILD_ID])
    e.spawnChild('runAction' as never, { id: ACTION_CHILD_ID } as never);
  e.sendTo(ACTION_CHILD_ID as never, { type: 'START', action } as never);
}
