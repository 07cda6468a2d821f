// The runtime's side of a task actor's children: the turn asks the task actor for an action or a
// page preparation and waits for it; the task actor spawns it as its child and reports back
// through the provided actions `actionStarted`, `actionSettled` and `pagePrepSettled`.
// One order for the web: an action's start is told (onStarted) only once every action settled
// before it has been reported (`reported`, after its settle event went out), and an action's
// settle is handed on only after its start was told; so a step's result is never shown after the
// next step's start, however long a report takes (a URL re-check before a read is reported).
import type { ActionInput, ActionOutput, ActionSettledParams, PagePrepInput, PagePrepOutput, PagePrepSettledParams, TaskEvent } from '../../machines/index.ts';

type Settled = ActionOutput & { durationMs: number };

export function createTaskChildren(deps: { send(event: TaskEvent): void; durationOf(actionId: string): number | undefined }) {
  const actions = new Map<string, (output: Settled) => void>();
  const starts = new Map<string, () => void>();
  const preps = new Map<string, (output: PagePrepOutput) => void>();
  /** Actions settled whose report (the settle event) has not gone out yet. */
  const unreported = new Set<string>();
  /** Started actions whose start is not told yet, in order; a settle that came meanwhile waits with it. */
  const waiting: Array<{ actionId: string; started: () => void; settle?: () => void }> = [];

  function settle(actionId: string, output: Settled): void {
    const resolve = actions.get(actionId);
    actions.delete(actionId);
    if (!resolve) return;
    unreported.add(actionId);
    resolve(output);
  }
  function tellWaiting(): void {
    while (waiting.length > 0 && unreported.size === 0) {
      const next = waiting.shift()!;
      next.started();
      next.settle?.();
    }
  }

  return {
    /** Resolves when the action child settles (canceled at once when the task cannot act). */
    runAction(input: ActionInput, onStarted: () => void): Promise<Settled> {
      return new Promise((resolve) => {
        actions.set(input.actionId, resolve);
        starts.set(input.actionId, onStarted);
        deps.send({ type: 'ACTION_REQUESTED', action: input });
      });
    },
    /** The settle of `actionId` has been reported (or never will be): later starts may be told. */
    reported(actionId: string): void {
      if (unreported.delete(actionId)) tellWaiting();
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
        if (!started) return;
        if (unreported.size > 0 || waiting.length > 0) waiting.push({ actionId, started });
        else started();
      },
      actionSettled: (_: unknown, { actionId, output }: ActionSettledParams) => {
        starts.delete(actionId);
        const settled = { ...output, durationMs: deps.durationOf(actionId) ?? 0 };
        const pending = waiting.find((w) => w.actionId === actionId);
        if (pending) pending.settle = () => settle(actionId, settled);
        else settle(actionId, settled);
      },
      pagePrepSettled: (_: unknown, { prepId, output }: PagePrepSettledParams) => {
        const resolve = preps.get(prepId);
        preps.delete(prepId);
        resolve?.(output);
      },
    },
  };
}
