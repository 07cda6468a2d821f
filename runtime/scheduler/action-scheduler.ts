// ActionScheduler (seed 000 §1, 001 §4): a serial queue per task; each browser_action is an
// `actionMachine` actor provided with the real transport. The frame goes to the plugin's room
// `client:{clientId}` with a Socket.IO ack (-> ACK); `browser_action_result` (new or legacy
// format) is correlated by actionId (-> RESULT); a plugin that disconnects fails what it had
// in flight at once (-> PLUGIN_GONE). Actions of different tasks run concurrently.
import { createActor, fromPromise, type AnyActorRef, type InspectionEvent, type Observer } from 'xstate';
import { nanoid } from 'nanoid';
import {
  actionMachine,
  errorValue,
  ErrorCode,
  execTimeoutFor,
  type ActionOutput,
  type ErrorValue,
  type IgnoredResultDisposition,
  type SendActionInput,
} from '../../machines/index.ts';
import { browserActionFrame, type BrowserAction, type NormalizedActionResult } from '../../transport/contracts/index.ts';
import type { Clock } from '../clock/index.ts';
import { createKeyedQueue } from '../store/keyed-queue.ts';

/** How the scheduler reaches a plugin: emit to its room and report the first ack. */
export interface PluginChannel {
  /** True when at least one socket of this plugin is connected. */
  isConnected(clientId: string): boolean;
  /** Emits `frame` to the plugin with an ack callback; returns false when nobody received it. */
  emitWithAck(clientId: string, frame: unknown, onAck: (response: unknown) => void): boolean;
}

export interface ActionRequest {
  taskId: string;
  clientId: string;
  actionName: string;
  params: Record<string, unknown>;
  /** Where a browser_screenshot uploads its PNG (seed 001 §2.4). */
  screenshotPresignedUrl?: string;
  ackTimeoutMs?: number;
  execTimeoutMs?: number;
  /** Wait before the one retry (default 1 s). */
  retryBackoffMs?: number;
  retry?: boolean;
  /** Defaults to a fresh id; reused across the retry of this action. */
  actionId?: string;
  traceId?: string;
}

export interface SchedulerEvents {
  /** Once per action, when it settles. */
  onSettled?(request: ActionRequest & { actionId: string }, output: ActionOutput, durationMs: number): void;
  /** A result for an action that is not in flight (finished, unknown) or a duplicate. */
  onIgnoredResult?(actionId: string, disposition: IgnoredResultDisposition | 'unknown'): void;
}

export interface ActionSchedulerDeps extends SchedulerEvents {
  channel: PluginChannel;
  /** The runtime's clock: it times the action actors' T_ack / T_exec / retry waits. */
  clock: Clock;
  /** XState inspection observer for the action actors of a task. */
  inspectFor?: (taskId: string) => Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** Default ack timeout (T_ack) for every action; the machine's default when absent. */
  ackTimeoutMs?: number;
  /** How many finished action ids are remembered to tell "late" from "unknown". */
  rememberFinished?: number;
  /**
   * Asked when an action's turn in the queue comes, before anything is sent: an error value
   * refuses it (e.g. the plugin is unhealthy, seed 001 §4.1) and the action fails with it at once.
   */
  refuse?(clientId: string): ErrorValue | null;
}

export type ResultDisposition = 'accepted' | IgnoredResultDisposition | 'unknown' | 'foreign';

export interface ActionScheduler {
  /** Queues an action behind the task's previous ones; resolves with the machine's output. */
  run(request: ActionRequest): Promise<ActionOutput & { durationMs: number }>;
  /** Routes a plugin's browser_action_result to its action; says what became of it. */
  handleResult(clientId: string, result: NormalizedActionResult): ResultDisposition;
  /** The plugin's last socket went away (or it was flagged unhealthy): fail its in-flight actions with PLUGIN_OFFLINE. */
  pluginGone(clientId: string, reason?: string): void;
  /** Actions queued or running for a task. */
  pending(taskId: string): number;
  /** The live action actor of an action id (for inspection and tests). */
  actorOf(actionId: string): AnyActorRef | undefined;
  /** Ids of the actions in flight right now. */
  inFlightIds(): string[];
  /** The task of an action in flight. */
  taskOf(actionId: string): string | undefined;
}

export function createActionScheduler(deps: ActionSchedulerDeps): ActionScheduler {
  const queue = createKeyedQueue();
  const inFlight = new Map<string, { actor: AnyActorRef; clientId: string; taskId: string; request: ActionRequest }>();
  const finished = new Set<string>();
  const rememberFinished = deps.rememberFinished ?? 10_000;
  const pendingByTask = new Map<string, number>();

  function remember(actionId: string): void {
    finished.add(actionId);
    if (finished.size > rememberFinished) finished.delete(finished.values().next().value!);
  }

  function frameOf(input: SendActionInput, request: ActionRequest): BrowserAction {
    return browserActionFrame({
      actionId: input.actionId,
      taskId: input.taskId,
      clientId: input.clientId,
      timestamp: deps.clock.now(),
      actionName: input.actionName,
      params: input.params,
      // The plugin learns the T_exec the server holds it to (seed 001 §3.5 `timeoutMs`).
      timeoutMs: execTimeoutFor(input.actionName, request.execTimeoutMs),
      ...(request.traceId ? { traceId: request.traceId } : {}),
      ...(request.screenshotPresignedUrl ? { screenshotPresignedUrl: request.screenshotPresignedUrl } : {}),
    });
  }

  // The machine is provided once: building it per action re-creates every state node.
  // sendAction finds its action's request and actor by actionId.
  const machine = actionMachine.provide({
    actors: {
      sendAction: fromPromise<void, SendActionInput>(async ({ input }) => {
        const entry = inFlight.get(input.actionId);
        const sent =
          entry !== undefined &&
          deps.channel.emitWithAck(input.clientId, frameOf(input, entry.request), () => entry.actor.send({ type: 'ACK' }));
        if (!sent) {
          throw errorValue(ErrorCode.PLUGIN_OFFLINE, `the browser extension ${input.clientId} is not connected`, { retryable: true });
        }
      }),
    },
    actions: {
      reportIgnoredResult: (_, params) => deps.onIgnoredResult?.(params.actionId, params.disposition),
    },
  });

  function refused(request: ActionRequest, actionId: string, error: ErrorValue): ActionOutput & { durationMs: number } {
    const output: ActionOutput = { actionId, actionName: request.actionName, status: 'failed', attempts: 0, execTimeoutStreak: 0, answered: false, error };
    remember(actionId);
    deps.onSettled?.({ ...request, actionId }, output, 0);
    return { ...output, durationMs: 0 };
  }

  function execute(request: ActionRequest, actionId: string): Promise<ActionOutput & { durationMs: number }> {
    const started = deps.clock.now();
    const refusal = deps.refuse?.(request.clientId);
    if (refusal) return Promise.resolve(refused(request, actionId, refusal));
    return new Promise((resolve) => {
      const actor = createActor(machine, {
        id: `action:${actionId}`,
        clock: deps.clock,
        input: {
          actionId,
          actionName: request.actionName,
          params: request.params,
          taskId: request.taskId,
          clientId: request.clientId,
          ...(request.ackTimeoutMs ?? deps.ackTimeoutMs ? { ackTimeoutMs: request.ackTimeoutMs ?? deps.ackTimeoutMs } : {}),
          ...(request.execTimeoutMs !== undefined ? { execTimeoutMs: request.execTimeoutMs } : {}),
          ...(request.retry !== undefined ? { retry: request.retry } : {}),
          ...(request.retryBackoffMs !== undefined ? { retryBackoffMs: request.retryBackoffMs } : {}),
        },
        ...(deps.inspectFor ? { inspect: deps.inspectFor(request.taskId) } : {}),
      });
      inFlight.set(actionId, { actor, clientId: request.clientId, taskId: request.taskId, request });
      actor.subscribe({
        complete: () => {
          inFlight.delete(actionId);
          remember(actionId);
          const output = actor.getSnapshot().output as ActionOutput;
          const durationMs = deps.clock.now() - started;
          deps.onSettled?.({ ...request, actionId }, output, durationMs);
          resolve({ ...output, durationMs });
        },
      });
      actor.start();
    });
  }

  return {
    actorOf: (actionId) => inFlight.get(actionId)?.actor,
    inFlightIds: () => [...inFlight.keys()],
    taskOf: (actionId) => inFlight.get(actionId)?.taskId,
    run(request) {
      const actionId = request.actionId ?? `act-${nanoid(12)}`;
      pendingByTask.set(request.taskId, (pendingByTask.get(request.taskId) ?? 0) + 1);
      return queue.run(request.taskId, () => execute(request, actionId)).finally(() => {
        const left = (pendingByTask.get(request.taskId) ?? 1) - 1;
        if (left === 0) pendingByTask.delete(request.taskId);
        else pendingByTask.set(request.taskId, left);
      });
    },
    handleResult(clientId, result) {
      const entry = inFlight.get(result.actionId);
      if (entry && entry.clientId !== clientId) {
        deps.onIgnoredResult?.(result.actionId, 'unknown');
        return 'foreign';
      }
      if (!entry) {
        const disposition = finished.has(result.actionId) ? 'late' : 'unknown';
        deps.onIgnoredResult?.(result.actionId, disposition);
        return disposition;
      }
      const before = entry.actor.getSnapshot().context.ignoredResults as number;
      entry.actor.send({
        type: 'RESULT',
        status: result.status,
        ...(result.result !== undefined ? { result: result.result } : {}),
        ...(result.error !== undefined ? { error: result.error } : {}),
      });
      const after = entry.actor.getSnapshot();
      return after.status === 'active' && (after.context.ignoredResults as number) > before ? 'duplicate' : 'accepted';
    },
    pluginGone(clientId, reason) {
      for (const entry of [...inFlight.values()]) {
        if (entry.clientId === clientId) entry.actor.send({ type: 'PLUGIN_GONE', reason: reason ?? `the browser extension ${clientId} disconnected` });
      }
    },
    pending(taskId) {
      return pendingByTask.get(taskId) ?? 0;
    },
  };
}
