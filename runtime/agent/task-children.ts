// The runtime's side of a task actor's work: the task's pipeline asks the task actor for an
// action or a page preparation (ACTION_REQUESTED / PAGE_PREP_REQUESTED) and waits for its
// settle; the task actor runs the action in its action actor and the preparation with the
// provided `preparePage` (answered by PAGE_PREP_DONE), and reports back through the provided
// actions `actionStarted`, `actionSettled` and `pagePrepSettled`. What is waited for lives in the one
// action registry (runtime/scheduler/action-registry.ts), never in a map of its own here.
// One order for the web: an action's start is told (onStarted) only once every action settled
// before it has been reported (`reported`, after its settle event went out), and an action's
// settle is handed on only after its start was told; so a step's result is never shown after the
// next step's start, however long a report takes (a URL re-check before a read is reported).
// Only that ordering state (ids, not waiters) is kept here.
import {
  errorValue,
  ErrorCode,
  type ActionInput,
  type ActionOutput,
  type ActionSettledParams,
  type PagePrepInput,
  type PagePrepOutput,
  type PagePrepSettledParams,
  type PreparePageParams,
  type TaskEvent,
} from '../../machines/index.ts';
import type { ActionRegistry, SettledOutput } from '../scheduler/action-registry.ts';

export interface TaskChildrenDeps {
  send(event: TaskEvent): void;
  registry: ActionRegistry;
  now(): number;
  /** Runs one page preparation (the task's browser's captures); absent: the task cannot prepare pages. */
  pagePrep?(input: PagePrepInput): Promise<PagePrepOutput>;
}

const noPagePrep: PagePrepOutput = {
  status: 'failed',
  warnings: [],
  missing: ['screenshot', 'readability'],
  error: errorValue(ErrorCode.INTERNAL, 'this task has no page preparation', { retryable: false }),
};

export function createTaskChildren(deps: TaskChildrenDeps) {
  const { registry } = deps;
  /** Actions settled whose report (the settle event) has not gone out yet. */
  const unreported = new Set<string>();
  /** Started actions whose start is not told yet, in order; a settle that came meanwhile waits with it. */
  const waiting: Array<{ actionId: string; started: () => void; settle?: () => void }> = [];

  /** Hands the settle to the waiter (through the registry, which drops the entry). */
  function settle(actionId: string, output: ActionOutput, now: number): void {
    // Only an action some task waits for is awaited as a report (none left: nothing to wait for).
    if (registry.get(actionId)?.onSettled) unreported.add(actionId);
    registry.settle(actionId, output, now);
  }
  function runAction(input: ActionInput, onStarted: () => void): Promise<SettledOutput> {
    return new Promise((resolve) => {
      registry.add({
        actionId: input.actionId,
        taskId: input.taskId,
        actionName: input.actionName,
        clientId: input.clientId,
        onStarted,
        onSettled: resolve,
      });
      deps.send({ type: 'ACTION_REQUESTED', action: input });
    });
  }
  function reported(actionId: string): void {
    if (unreported.delete(actionId)) tellWaiting();
  }
  function tellWaiting(): void {
    while (waiting.length > 0 && unreported.size === 0) {
      const next = waiting.shift()!;
      next.started();
      next.settle?.();
    }
  }

  return {
    /** Resolves when the action child settles (canceled at once when the task cannot act); the caller calls `reported` after its settle event. */
    runAction,
    /** The settle of `actionId` has been reported (or never will be): later starts may be told. */
    reported,
    /** `runAction` for a caller that reports nothing of its own (a direct `tasks.run`): reported once settled. */
    runAndReport(input: ActionInput, onStarted: () => void): Promise<SettledOutput> {
      return runAction(input, onStarted).then((output) => {
        reported(input.actionId);
        return output;
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
        if (!started) return;
        if (unreported.size > 0 || waiting.length > 0) waiting.push({ actionId, started });
        else started();
      },
      actionSettled: (_: unknown, { actionId, output }: ActionSettledParams) => {
        const entry = registry.get(actionId);
        // Settled without a start: its start is never told.
        if (entry) entry.onStarted = undefined;
        // The duration ends now, even when the settle is handed on later.
        const now = deps.now();
        const pending = waiting.find((w) => w.actionId === actionId);
        if (pending) pending.settle = () => settle(actionId, output, now);
        else settle(actionId, output, now);
      },
      pagePrepSettled: (_: unknown, { prepId, output }: PagePrepSettledParams) => registry.settlePrep(prepId, output),
      /** The task actor runs a page preparation: its outcome goes back to it as PAGE_PREP_DONE. */
      preparePage: (_: unknown, { prepId, input }: PreparePageParams) => {
        const run = deps.pagePrep?.(input) ?? Promise.resolve(noPagePrep);
        void run.then((output) => deps.send({ type: 'PAGE_PREP_DONE', prepId, output }));
      },
    },
  };
}
