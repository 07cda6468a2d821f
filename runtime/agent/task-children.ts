// The runtime's side of a task actor's children: the turn asks the task actor for an action or a
// page preparation and waits for it; the task actor spawns it as its child and reports back
// through the provided actions `actionStarted`, `actionSettled` and `pagePrepSettled`.
import type { ActionInput, ActionOutput, ActionSettledParams, PagePrepInput, PagePrepOutput, PagePrepSettledParams, TaskEvent } from '../../machines/index.ts';

export function createTaskChildren(deps: { send(event: TaskEvent): void; durationOf(actionId: string): number | undefined }) {
  const actions = new Map<string, (output: ActionOutput & { durationMs: number }) => void>();
  const starts = new Map<string, () => void>();
  const preps = new Map<string, (output: PagePrepOutput) => void>();
  return {
    /** Resolves when the action child settles (canceled at once when the task cannot act). */
    runAction(input: ActionInput, onStarted: () => void): Promise<ActionOutput & { durationMs: number }> {
      return new Promise((resolve) => {
        actions.set(input.actionId, resolve);
        starts.set(input.actionId, onStarted);
        deps.send({ type: 'ACTION_REQUESTED', action: input });
      });
    },
    preparePage(input: PagePrepInput & { prepId: string }): Promise<PagePrepOutput> {
      return new Promise((resolve) => {
        preps.set(input.prepId, resolve);
        deps.send({ type: 'PAGE_PREP_REQUESTED', prepId: input.prepId, input });
      });
    },
    /** The provided actions of the task machine. */
    provided: {
      actionStarted: (_: unknown, { actionId }: { actionId: string }) => {
        const started = starts.get(actionId);
        starts.delete(actionId);
        // After the previous action's settle has been reported (its promise continuation runs first).
        if (started) queueMicrotask(started);
      },
      actionSettled: (_: unknown, { actionId, output }: ActionSettledParams) => {
        starts.delete(actionId);
        const resolve = actions.get(actionId);
        actions.delete(actionId);
        resolve?.({ ...output, durationMs: deps.durationOf(actionId) ?? 0 });
      },
      pagePrepSettled: (_: unknown, { prepId, output }: PagePrepSettledParams) => {
        const resolve = preps.get(prepId);
        preps.delete(prepId);
        resolve?.(output);
      },
    },
  };
}
