// The runtime's side of a task actor's children: the task's pipeline asks the task actor for an
// action or a page preparation (ACTION_REQUESTED / PAGE_PREP_REQUESTED) and waits for its
// settle; the task actor spawns it as its child and reports back through the provided actions
// `actionStarted`, `actionSettled` and `pagePrepSettled`. What is waited for lives in the one
// action registry (runtime/scheduler/action-registry.ts), never in a map of its own here.
import type { ActionInput, ActionSettledParams, PagePrepInput, PagePrepOutput, PagePrepSettledParams, TaskEvent } from '../../machines/index.ts';
import type { ActionRegistry, SettledOutput } from '../scheduler/action-registry.ts';

export interface TaskChildrenDeps {
  send(event: TaskEvent): void;
  registry: ActionRegistry;
  now(): number;
}

export function createTaskChildren(deps: TaskChildrenDeps) {
  const { registry } = deps;
  return {
    /** Resolves when the action child settles (canceled at once when the task cannot act). */
    runAction(input: ActionInput, onStarted: () => void): Promise<SettledOutput> {
      return new Promise((resolve) => {
        registry.add({ actionId: input.actionId, taskId: input.taskId, actionName: input.actionName, clientId: input.clientId, onStarted, onSettled: resolve });
        deps.send({ type: 'ACTION_REQUESTED', action: input });
      });
    },
    preparePage(input: PagePrepInput & { prepId: string }): Promise<PagePrepOutput> {
      return new Promise((resolve) => {
        registry.addPrep(input.prepId, resolve);
        deps.send({ type: 'PAGE_PREP_REQUESTED', prepId: input.prepId, input });
      });
    },
    /** The provided actions of the task machine. */
    provided: {
      actionStarted: (_: unknown, { actionId }: { actionId: string }) => {
        const entry = registry.get(actionId);
        const started = entry?.onStarted;
        if (entry) entry.onStarted = undefined;
        // After the previous action's settle has been reported (its promise continuation runs first).
        if (started) queueMicrotask(started);
      },
      actionSettled: (_: unknown, { actionId, output }: ActionSettledParams) => registry.settle(actionId, output, deps.now()),
      pagePrepSettled: (_: unknown, { prepId, output }: PagePrepSettledParams) => registry.settlePrep(prepId, output),
    },
  };
}

export type TaskChildren = ReturnType<typeof createTaskChildren>;
