// The live task actor trees of this server, by task id: chat tasks (the orchestrator's sessions)
// and tool tasks (MCP sessions' tabs, runtime/agent/tool-task.ts). Every browser action runs as a
// child of one of them, so takeover, STOP and inspection find it by its task id whichever way it
// came in; `run` is the way in for a caller that only has a task id and an action.
import type { Actor, InspectionEvent } from 'xstate';
import type { taskMachine } from '../../machines/index.ts';
import type { Clock } from '../clock/index.ts';
import type { SettledOutput } from '../scheduler/action-registry.ts';
import type { ActionRequest, ActionScheduler } from '../scheduler/action-scheduler.ts';
import { createToolTask, type ToolTask } from './tool-task.ts';

export interface TaskTree {
  taskId: string;
  /** A chat task (stored, listed) or a tool task (an MCP session's tab, not a chat task). */
  kind: 'chat' | 'tool';
  actor: Actor<typeof taskMachine>;
  /** Runs an action for a caller that reports nothing itself: its settle counts as reported once it resolves. */
  runAction: ToolTask['runAction'];
  /** The plugin serving it now (null before its first action). */
  clientId(): string | null;
  /** Its tab (null before it has one). */
  tabId(): number | null;
  /** Cancels the action in flight and the queued ones (the MCP client's cancel signal). */
  cancel?(): void;
}

export interface TaskTreesDeps {
  scheduler: Pick<ActionScheduler, 'actionEffects' | 'registry' | 'inputOf'>;
  clock: Clock;
  inspectFor?: (taskId: string) => (event: InspectionEvent) => void;
}

export interface TaskTrees {
  get(taskId: string): TaskTree | undefined;
  add(tree: TaskTree): void;
  /** Forgets the tree (only this one: a newer tree of the same task stays). */
  remove(tree: TaskTree): void;
  /** A tool task for a caller without a chat turn, registered under its id until disposed. */
  toolTask(
    taskId: string,
    options?: {
      pagePrepLogic?: Parameters<typeof createToolTask>[0]['pagePrepLogic'];
      clientId?: () => string | null;
      tabId?: () => number | null;
    },
  ): ToolTask;
  /** Runs one action as a child of the task's tree; a task id with no live tree gets a tool task while it has actions. */
  run(request: ActionRequest, onStarted?: () => void): Promise<SettledOutput>;
  /** Actions queued or in flight in the task's tree. */
  pending(taskId: string): number;
}

export function createTaskTrees(deps: TaskTreesDeps): TaskTrees {
  const trees = new Map<string, TaskTree>();

  function toolTask(taskId: string, options: Parameters<TaskTrees['toolTask']>[1] = {}): ToolTask {
    const task = createToolTask({
      taskId,
      scheduler: deps.scheduler,
      clock: deps.clock,
      ...(deps.inspectFor ? { inspect: deps.inspectFor(taskId) } : {}),
      ...(options.pagePrepLogic ? { pagePrepLogic: options.pagePrepLogic } : {}),
    });
    const tree: TaskTree = {
      taskId,
      kind: 'tool',
      actor: task.actor,
      // A tree's runAction is for callers that report nothing themselves (tasks.run).
      runAction: task.runAndReport,
      clientId: options.clientId ?? (() => null),
      tabId: options.tabId ?? (() => null),
      cancel: task.cancel,
    };
    trees.set(taskId, tree);
    const dispose = task.dispose;
    return {
      ...task,
      dispose() {
        if (trees.get(taskId) === tree) trees.delete(taskId);
        dispose();
      },
    };
  }

  return {
    get: (taskId) => trees.get(taskId),
    add: (tree) => void trees.set(tree.taskId, tree),
    remove(tree) {
      if (trees.get(tree.taskId) === tree) trees.delete(tree.taskId);
    },
    toolTask,
    async run(request, onStarted = () => {}) {
      const input = deps.scheduler.inputOf(request);
      const live = trees.get(request.taskId);
      if (live) return live.runAction(input, onStarted);
      let clientId = request.clientId;
      const task = toolTask(request.taskId, { clientId: () => clientId });
      // One tool task for a burst of actions: disposed when its last one settles.
      let outstanding = 0;
      const tree = trees.get(request.taskId)!;
      tree.runAction = (next, started) => {
        outstanding++;
        clientId = next.clientId;
        const settled = task.runAndReport(next, started);
        void settled.then(() => {
          if (--outstanding === 0) task.dispose();
        });
        return settled;
      };
      return tree.runAction(input, onStarted);
    },
    pending(taskId) {
      const { context } = trees.get(taskId)?.actor.getSnapshot() ?? { context: null };
      return context ? context.pendingActions.length + (context.current === null ? 0 : 1) : 0;
    },
  };
}
