// Routes every task command to the one node that runs the task (the holder of its advisory
// lock). A command for a task this node holds runs here, on the live actor (a message during a
// turn queues behind it, as on one node). Otherwise the node tries to claim the task: the claim
// succeeds only when no live node holds the lock (its owner died, handed it over, or finished
// with it). A FRESH claim of a task found running (or in takeover) is a takeover: the task is
// restored from the store, the user told once (not after a handoff), and the interrupted turn and
// every message queued behind it run again in order (task-replay.ts), answered actions coming
// from the ledger. A claim that fails means a live owner: the command is forwarded to it
// (control-forward.ts); if that owner's lock goes while we wait, we claim at once.
// Shortly after a database outage (ownership.inGrace) a node does not take over tasks whose
// recorded owner has not come back yet: that owner is re-claiming them.
// The person's controls (a held step's answer, the scope, a secret, showing the tab, the
// overlay's answer) are routed the same way: they live in the owner's task session.
import type { Clock } from '../clock/index.ts';
import type {
  ConfirmationDecision,
  NormalizedActionResult,
  OverlayCommand,
  PluginConfirmationAnswer,
  TakeoverReport,
  UserMessage,
} from '../../transport/contracts/index.ts';
import type { Namespace } from '../../transport/server/index.ts';
import type { ReplayMessage } from '../agent/task-recovery.ts';
import type { ControlResult, TaskControl } from '../services/task-control.ts';
import type { TaskStore } from '../store/task-types.ts';
import { createForwarder, type ControlRequest, type Forwarder } from './control-forward.ts';
import type { TaskFence } from './task-fence.ts';
import { HANDOFF_PREFIX, type TaskOwnership } from './task-ownership.ts';
import { replayOf, takeoverNote } from './task-replay.ts';

/** What failover needs from the orchestrator beyond TaskControl (see orchestrator.ts). */
export interface ResumableControl extends TaskControl {
  resumeInterrupted?(taskId: string, note: string | null, replay?: ReplayMessage[]): Promise<ControlResult>;
  drop?(taskId: string): void;
  /** The live session of a task on this node, if any. */
  sessionOf?(taskId: string): unknown;
}

type Method =
  | 'userMessage'
  | 'resume'
  | 'stop'
  | 'takeover'
  | 'takeoverReport'
  | 'overlayCommand'
  // The person's controls: the held step, the scope and the secrets live in the owner's
  // task session, so they are answered there too.
  | 'confirmationAnswer'
  | 'setTaskScope'
  | 'setTaskSecret'
  | 'showTaskTab'
  | 'overlayConfirmation'
  | 'selectExtension'
  // Told to the owner's session, not a command: never a reason to claim the task.
  | 'lateResult';

/** Methods that are not ControlResult commands: run on the owner if there is one, never claimed for. */
const QUERIES = new Set<Method>(['lateResult']);

export interface ClusterControl {
  wrap(local: ResumableControl | undefined): TaskControl | undefined;
  /** Claims the task if no live node holds it; a fresh claim of a running task adopts it. True: this node owns it. */
  takeOver(taskId: string): Promise<boolean>;
  /** Another node runs these tasks now: their actors here stop. */
  dropTasks(taskIds: string[]): void;
  /**
   * Resolves when no command of the task runs on this node. A task that ended is released only
   * then: a message being stored here would otherwise start its turn on a node that no longer
   * holds the task, while another node claims it and runs the message too.
   */
  whenIdle(taskId: string): Promise<void>;
}

const unavailable = (message: string): ControlResult => ({
  ok: false,
  error: { code: 'UNAVAILABLE', message, retryable: true },
});

export function createClusterControl(deps: {
  nsp: Namespace;
  ownership: TaskOwnership;
  fence: TaskFence;
  taskStore: TaskStore;
  log: (entry: object) => void;
  /** How long a command may look for its task's owner in all; default 20 s. */
  routeTimeoutMs?: number;
  forwardTimeoutMs?: number;
  /** How often a waiting forward checks that the owner still holds the task; default 200 ms. */
  forwardPollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** A fresh claim, before anything of the task runs here (its event order starts above the last owner's: owner-seq.ts). */
  claimed?: (taskId: string, generation: number) => Promise<void>;
  /** The forwarder's timers (the injected clock). */
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}): ClusterControl {
  const { nsp, ownership, fence, taskStore, log } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let local: ResumableControl | undefined;
  /** Claims (and their adoption) under way on this node: commands for the task wait for them. */
  const claiming = new Map<string, Promise<boolean>>();

  async function adopt(taskId: string, previous: string | null): Promise<void> {
    // This node released the lock itself (a task that reached error or completed is released) and
    // its actor lives on: a message queued behind a failed turn, or a follow-up, runs here already.
    // Replaying it would run it twice.
    if (previous === ownership.nodeId && local?.sessionOf?.(taskId))
      return void log({ event: 'task_reclaimed', taskId, node: ownership.nodeId });
    const task = await taskStore.getTask(taskId);
    // A task in error is not over (h22a: a follow-up message runs a new turn): one acknowledged
    // after the failed turn and not answered is replayed as for an ongoing task.
    if (!task || task.status === 'completed') return;
    const handedOver = previous?.startsWith(HANDOFF_PREFIX) ?? false;
    // In takeover the user has the tab: nothing runs until they resume. Otherwise every message
    // not answered yet runs again (also when the owner died between acknowledging a message and
    // storing `running`: the task is then still created, ongoing or in error).
    const replay = task.status === 'takeover' ? [] : replayOf(await taskStore.listMessages(taskId));
    if (task.status !== 'running' && task.status !== 'takeover' && replay.length === 0) return;
    const note = handedOver ? null : takeoverNote(ownership.nodeId, task.status);
    const result = local?.resumeInterrupted ? await local.resumeInterrupted(taskId, note, replay) : undefined;
    log({
      event: handedOver ? 'task_handed_over' : 'task_adopted',
      taskId,
      node: ownership.nodeId,
      previous,
      previousStatus: task.status,
      replayed: replay.map((m) => m.id),
      result,
    });
  }

  function takeOver(taskId: string): Promise<boolean> {
    const running = claiming.get(taskId);
    if (running) return running;
    const job = (async () => {
      const claim = await ownership.claimTask(taskId);
      if (!claim.ok) return false;
      if (claim.fresh) {
        fence.regained(taskId);
        await deps.claimed?.(taskId, claim.generation);
        await adopt(taskId, claim.previous).catch((error: unknown) =>
          log({ event: 'task_adopt_failed', taskId, error: String(error) }),
        );
      }
      return true;
    })().finally(() => claiming.delete(taskId));
    claiming.set(taskId, job);
    return job;
  }

  /** Commands of a task running on this node, and who waits for none to run. */
  const busy = new Map<string, number>();
  const idle = new Map<string, Array<() => void>>();
  function whenIdle(taskId: string): Promise<void> {
    if (!busy.get(taskId)) return Promise.resolve();
    return new Promise((resolve) => idle.set(taskId, [...(idle.get(taskId) ?? []), resolve]));
  }

  async function runLocal(method: Method, args: unknown[], taskId?: string): Promise<ControlResult> {
    const run = local![method] as ((...a: unknown[]) => unknown) | undefined;
    if (!run) return { ok: false, error: { code: 'UNAVAILABLE', message: `${method} is not available here` } };
    if (taskId) busy.set(taskId, (busy.get(taskId) ?? 0) + 1);
    let value: unknown;
    try {
      value = await run.apply(local, args);
    } finally {
      if (taskId) {
        const left = busy.get(taskId)! - 1;
        if (left > 0) busy.set(taskId, left);
        else {
          busy.delete(taskId);
          idle.get(taskId)?.forEach((resolve) => resolve());
          idle.delete(taskId);
        }
      }
    }
    // A query's value travels as a ControlResult's data.
    return QUERIES.has(method) ? { ok: true, data: { value: value ?? null } } : (value as ControlResult);
  }

  /** A query for the task's owner (this node or another); null when no live node owns it. */
  async function ask(method: Method, taskId: string, args: unknown[]): Promise<unknown> {
    await claiming.get(taskId);
    const valueOf = (result: ControlResult) => (result.ok ? result.data?.value : null);
    if (ownership.owns(taskId)) return valueOf(await runLocal(method, args));
    const owner = await ownership.ownerOf(taskId).catch(() => null);
    if (!owner || owner === ownership.nodeId) return null;
    const outcome = await forwarderOf().forward(owner, taskId, method, args);
    return outcome.kind === 'answer' ? valueOf(outcome.result) : null;
  }

  async function handle(request: ControlRequest): Promise<ControlResult | null> {
    await claiming.get(request.taskId);
    if (!local || !ownership.owns(request.taskId) || fence.state(request.taskId) === 'lost') return null;
    return runLocal(request.method as Method, request.args, request.taskId);
  }

  let forwarder: Forwarder | undefined;
  const forwarderOf = () =>
    (forwarder ??= createForwarder({
      nsp,
      nodeId: () => ownership.nodeId,
      ownerOf: (id) => ownership.ownerOf(id),
      handle,
      log,
      ...(deps.forwardTimeoutMs ? { timeoutMs: deps.forwardTimeoutMs } : {}),
      ...(deps.forwardPollMs ? { pollMs: deps.forwardPollMs } : {}),
      ...(deps.clock ? { clock: deps.clock } : {}),
    }));

  /** In the grace after an outage, a task recorded as another node's waits for that node to re-claim it. */
  async function mayClaim(taskId: string): Promise<boolean> {
    if (!ownership.inGrace()) return true;
    const recorded = await ownership.recordedOwner(taskId).catch(() => 'unknown');
    return recorded === null || recorded === ownership.nodeId || recorded.startsWith(HANDOFF_PREFIX);
  }

  async function call(method: Method, taskId: string, args: unknown[]): Promise<ControlResult> {
    if (!local)
      return { ok: false, error: { code: 'UNAVAILABLE', message: 'the agent is not running on this server' } };
    const deadline = Date.now() + (deps.routeTimeoutMs ?? 20_000);
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      if (attempt > 0) await sleep(Math.min(500, 50 * attempt));
      await claiming.get(taskId);
      if (ownership.owns(taskId)) return runLocal(method, args, taskId);
      if (!fence.draining() && !ownership.fenced() && (await mayClaim(taskId)) && (await takeOver(taskId)))
        return runLocal(method, args, taskId);
      const owner = await ownership.ownerOf(taskId).catch(() => null);
      if (owner === null) {
        if (fence.draining()) return unavailable(`this node is leaving; task ${taskId} has no owner yet, try again`);
        continue; // no live owner yet (the database is away, or in the grace after it came back)
      }
      const outcome = await forwarderOf().forward(owner, taskId, method, args);
      if (outcome.kind === 'answer') return outcome.result;
      log({ event: 'control_forward_retry', taskId, to: owner, outcome: outcome.kind });
    }
    return unavailable(`no node could run task ${taskId} in time; try again`);
  }

  return {
    takeOver,
    whenIdle,
    dropTasks(taskIds) {
      fence.markLost(taskIds);
      for (const taskId of taskIds) local?.drop?.(taskId);
      if (taskIds.length > 0) log({ event: 'tasks_dropped', node: ownership.nodeId, tasks: taskIds });
    },
    wrap(inner) {
      local = inner;
      if (!inner) return undefined;
      forwarderOf();
      const wrapped: TaskControl = {
        userMessage: (message: UserMessage, context) => call('userMessage', message.taskId, [message, context]),
        resume: (taskId, source) => call('resume', taskId, [taskId, source]),
        stop: (taskId, source, reason) => call('stop', taskId, [taskId, source, reason]),
        takeover: (taskId, source, reason) => call('takeover', taskId, [taskId, source, reason]),
        takeoverReport: (report: TakeoverReport) => call('takeoverReport', report.taskId, [report]),
        overlayCommand: (command: OverlayCommand) => call('overlayCommand', command.taskId, [command]),
        ...(inner.confirmationAnswer
          ? {
              confirmationAnswer: (
                taskId: string,
                requestId: string,
                decision: ConfirmationDecision,
                by?: 'web' | 'overlay',
              ) => call('confirmationAnswer', taskId, [taskId, requestId, decision, by]),
            }
          : {}),
        ...(inner.setTaskScope
          ? {
              setTaskScope: (taskId: string, sites: readonly string[]) => call('setTaskScope', taskId, [taskId, sites]),
            }
          : {}),
        ...(inner.setTaskSecret
          ? {
              setTaskSecret: (taskId: string, name: string, value: string) =>
                call('setTaskSecret', taskId, [taskId, name, value]),
            }
          : {}),
        ...(inner.showTaskTab ? { showTaskTab: (taskId: string) => call('showTaskTab', taskId, [taskId]) } : {}),
        ...(inner.overlayConfirmation
          ? {
              overlayConfirmation: (answer: PluginConfirmationAnswer) =>
                call('overlayConfirmation', answer.taskId, [answer]),
            }
          : {}),
        ...(inner.selectExtension
          ? {
              selectExtension: (taskId: string, clientId: string) =>
                call('selectExtension', taskId, [taskId, clientId]),
            }
          : {}),
        // The steps in flight this node runs (synchronous: replayed in the tick the subscriber joins
        // the room, so a step is neither missed nor shown twice).
        ...(inner.stepsInFlight ? { stepsInFlight: inner.stepsInFlight.bind(inner) } : {}),
        // A stopped step's late result reaches the node its extension is connected to: told to the owner.
        ...(inner.lateResult
          ? {
              lateResult: (result: NormalizedActionResult) => {
                if (result.taskId) void ask('lateResult', result.taskId, [result]).catch(() => undefined);
              },
            }
          : {}),
        ...(inner.liveTarget ? { liveTarget: inner.liveTarget.bind(inner) } : {}),
        ...(inner.inspect ? { inspect: inner.inspect.bind(inner) } : {}),
      };
      return wrapped;
    },
  };
}
