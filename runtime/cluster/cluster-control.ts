// Routes every task command to the one node that runs the task (the holder of its advisory
// lock). A node that gets a command for a task nobody owns claims it and runs it itself; one
// that somebody else owns is forwarded over the adapter (`serverSideEmit` with an ack: every
// node answers, the owner with the result, the others with null). A task found running with a
// dead owner is adopted first (failover): restored from the store, the user told in the chat,
// its interrupted turn run again through the action ledger.
import type { OverlayCommand, TakeoverReport, UserMessage } from '../../transport/contracts/index.ts';
import type { Namespace } from '../../transport/server/index.ts';
import type { ControlResult, TaskControl } from '../services/task-control.ts';
import type { TaskStore } from '../store/task-types.ts';
import type { ActionLedger } from './action-ledger.ts';
import type { TaskOwnership } from './task-ownership.ts';

const CONTROL = 'mimo:control';

/** What failover needs from the orchestrator beyond TaskControl (see orchestrator.ts). */
export interface ResumableControl extends TaskControl {
  resumeInterrupted?(taskId: string, note: string): Promise<ControlResult>;
}

type Method = 'userMessage' | 'resume' | 'stop' | 'takeover' | 'takeoverReport' | 'overlayCommand';

interface ControlRequest {
  from: string;
  taskId: string;
  method: Method;
  args: unknown[];
}

export interface ClusterControl {
  wrap(local: ResumableControl | undefined): TaskControl | undefined;
  /** Failover: this node has just claimed a task whose owner died; restore it and carry on. */
  adopt(taskId: string): Promise<void>;
}

export function createClusterControl(deps: {
  nsp: Namespace;
  ownership: TaskOwnership;
  ledger: ActionLedger;
  taskStore: TaskStore;
  log: (entry: object) => void;
  /** How long a forwarded command waits for the owner's answer; default 10 s. */
  forwardTimeoutMs?: number;
}): ClusterControl {
  const { nsp, ownership, ledger, taskStore, log } = deps;
  let local: ResumableControl | undefined;
  const adopting = new Map<string, Promise<void>>();

  async function adopt(taskId: string): Promise<void> {
    const running = adopting.get(taskId);
    if (running) return running;
    const job = (async () => {
      const task = await taskStore.getTask(taskId);
      if (!task || (task.status !== 'running' && task.status !== 'takeover')) return;
      const messages = await taskStore.listMessages(taskId);
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      if (lastUser) ledger.startTurn(taskId, lastUser.id);
      const note = `The server node that was running this task stopped; node ${ownership.nodeId} took it over${task.status === 'running' ? ' and carries on where it was' : ''}.`;
      const result = local?.resumeInterrupted ? await local.resumeInterrupted(taskId, note) : undefined;
      log({ event: 'task_adopted', taskId, node: ownership.nodeId, previousStatus: task.status, result });
    })().finally(() => adopting.delete(taskId));
    adopting.set(taskId, job);
    return job;
  }

  /**
   * A user message starts a turn now unless one is running (then it queues behind it, and that
   * turn keeps its count). A message queued during a turn is replayed after a failover without
   * the ledger's matching (its actions are sent again): a known limit.
   */
  async function startTurnIfIdle(taskId: string, messageId: string): Promise<void> {
    const task = await taskStore.getTask(taskId);
    if (task?.status !== 'running') ledger.startTurn(taskId, messageId);
  }

  function forward(request: ControlRequest): Promise<ControlResult | null> {
    const adapter = nsp.adapter;
    if (!adapter) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), deps.forwardTimeoutMs ?? 10_000);
      void adapter.serverSideEmit([
        CONTROL,
        request,
        (_error: Error | null, responses: Array<ControlResult | null>) => {
          clearTimeout(timer);
          // On a timeout the adapter still hands over the answers it got (a dead node's is missing).
          resolve(responses?.find((r) => r !== null && r !== undefined) ?? null);
        },
      ]);
    });
  }

  async function call(method: Method, taskId: string, args: unknown[]): Promise<ControlResult> {
    if (!local) return { ok: false, error: { code: 'UNAVAILABLE', message: 'the agent is not running on this server' } };
    for (let attempt = 0; attempt < 2; attempt++) {
      if (ownership.owns(taskId) || (await ownership.claim(taskId))) {
        await adopt(taskId); // no-op unless it was running under a dead owner
        if (method === 'userMessage') await startTurnIfIdle(taskId, (args[0] as UserMessage).id);
        return (local[method] as (...a: unknown[]) => Promise<ControlResult>)(...args);
      }
      const answer = await forward({ from: ownership.nodeId, taskId, method, args });
      if (answer) return answer;
      // The owner did not answer (it may have died just now): try to take the task over once.
    }
    return { ok: false, error: { code: 'UNAVAILABLE', message: `the node running task ${taskId} did not answer; try again`, retryable: true } };
  }

  nsp.on(CONTROL, (request: ControlRequest, ack: (result: ControlResult | null) => void) => {
    if (!local || !ownership.owns(request.taskId)) return ack(null);
    const run = async () => {
      if (request.method === 'userMessage') await startTurnIfIdle(request.taskId, (request.args[0] as UserMessage).id);
      return (local![request.method] as (...a: unknown[]) => Promise<ControlResult>)(...request.args);
    };
    void run().then(ack, (error: unknown) => ack({ ok: false, error: { code: 'INTERNAL', message: String((error as Error)?.message ?? error) } }));
  });

  return {
    adopt,
    wrap(inner) {
      local = inner;
      if (!inner) return undefined;
      const wrapped: TaskControl = {
        userMessage: (message: UserMessage, _context) => call('userMessage', message.taskId, [message, _context]),
        resume: (taskId, source) => call('resume', taskId, [taskId, source]),
        stop: (taskId, source, reason) => call('stop', taskId, [taskId, source, reason]),
        takeover: (taskId, source, reason) => call('takeover', taskId, [taskId, source, reason]),
        takeoverReport: (report: TakeoverReport) => call('takeoverReport', report.taskId, [report]),
        overlayCommand: (command: OverlayCommand) => call('overlayCommand', command.taskId, [command]),
        ...(inner.inspect ? { inspect: inner.inspect.bind(inner) } : {}),
      };
      return wrapped;
    },
  };
}
