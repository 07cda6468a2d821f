// ActionScheduler (seed 000 §1, 001 §4): the transport side of every browser_action. It provides
// `actionMachine` with the real IO once (`actionLogic`): `sendFrame` writes the typed frame to
// the plugin's room `client:{clientId}` with a Socket.IO ack (-> ACK), `announce` registers the
// live actor so the plugin's `browser_action_result` (new or legacy format) is routed to it by
// actionId (-> RESULT), a plugin that disconnects fails what it had in flight at once
// (-> PLUGIN_GONE), and `cancelOnPlugin` sends task_stop when a task stop cancels an action.
// Task actors spawn `actionLogic` as their children (the task machine serialises and gates
// them); callers without a task actor (MCP sessions) use `run`, a per-task serial queue of
// top-level actors of the same logic.
import { createActor, type AnyActorRef, type InspectionEvent, type Observer } from 'xstate';
import { nanoid } from 'nanoid';
import {
  actionMachine,
  errorValue,
  ErrorCode,
  type ActionContext,
  type ActionInput,
  type ActionOutput,
  type ErrorValue,
  type IgnoredResultDisposition,
  type SendActionInput,
} from '../../machines/index.ts';
import { browserActionFrame, type NormalizedActionResult } from '../../transport/contracts/index.ts';
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

/** Who an action belonged to, for the settle hook. */
export interface SettledAction {
  actionId: string;
  actionName: string;
  taskId: string;
  clientId: string;
}

export interface SchedulerEvents {
  /** Once per action, when it settles. */
  onSettled?(action: SettledAction, output: ActionOutput, durationMs: number): void;
  /** A result for an action that is not in flight (finished, unknown) or a duplicate. */
  onIgnoredResult?(actionId: string, disposition: IgnoredResultDisposition | 'unknown'): void;
}

export interface ActionSchedulerDeps extends SchedulerEvents {
  channel: PluginChannel;
  /** The runtime's clock: it times the actors `run` creates (task children use their task's). */
  clock: Clock;
  /** XState inspection observer for the actors `run` creates. */
  inspectFor?: (taskId: string) => Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** Default ack timeout (T_ack) for every action; the machine's default when absent. */
  ackTimeoutMs?: number;
  /** How many finished action ids are remembered to tell "late" from "unknown". */
  rememberFinished?: number;
  /**
   * Asked before a frame is written: an error value refuses the action (e.g. the plugin is
   * unhealthy, seed 001 §4.1) and it fails with that error without being sent.
   */
  refuse?(clientId: string, taskId: string): ErrorValue | null;
}

export type ResultDisposition = 'accepted' | IgnoredResultDisposition | 'unknown' | 'foreign';

export interface ActionScheduler {
  /** actionMachine provided with the transport: what task actors spawn as their children. */
  readonly actionLogic: typeof actionMachine;
  /** The machine input for a request (defaults filled in: actionId, T_ack). */
  inputOf(request: ActionRequest): ActionInput;
  /** Runs an action as its own actor, queued behind the task's previous ones (MCP sessions). */
  run(request: ActionRequest, onStarted?: () => void): Promise<ActionOutput & { durationMs: number }>;
  /** How long a settled action ran (from its actor's start), read once. */
  takeDuration(actionId: string): number | undefined;
  /** Routes a plugin's browser_action_result to its action; says what became of it. */
  handleResult(clientId: string, result: NormalizedActionResult): ResultDisposition;
  /** The plugin's last socket went away (or it was flagged unhealthy): fail its in-flight actions with PLUGIN_OFFLINE. */
  pluginGone(clientId: string, reason?: string): void;
  /** Actions queued or running through `run` for a task. */
  pending(taskId: string): number;
  /** The live action actor of an action id (for inspection and tests). */
  actorOf(actionId: string): AnyActorRef | undefined;
  /** Ids of the actions in flight right now. */
  inFlightIds(): string[];
  /** The task of an action in flight. */
  taskOf(actionId: string): string | undefined;
}

interface Tracked {
  actor: AnyActorRef;
  action: SettledAction;
  startedAt: number;
}

export function createActionScheduler(deps: ActionSchedulerDeps): ActionScheduler {
  const queue = createKeyedQueue();
  const inFlight = new Map<string, Tracked>();
  /** Dispatch ids of retries after an error result (seed 001 §4.2), to their actionId. */
  const dispatchIds = new Map<string, string>();
  const finished = new Set<string>();
  const durations = new Map<string, number>();
  const rememberFinished = deps.rememberFinished ?? 10_000;
  const pendingByTask = new Map<string, number>();

  function remember(actionId: string): void {
    finished.add(actionId);
    if (finished.size > rememberFinished) finished.delete(finished.values().next().value!);
  }

  function track(self: AnyActorRef, context: ActionContext): void {
    const action: SettledAction = { actionId: context.actionId, actionName: context.actionName, taskId: context.taskId, clientId: context.clientId };
    const entry: Tracked = { actor: self, action, startedAt: deps.clock.now() };
    inFlight.set(action.actionId, entry);
    const done = () => {
      if (inFlight.get(action.actionId) !== entry) return;
      inFlight.delete(action.actionId);
      remember(action.actionId);
      for (const [dispatchId, actionId] of dispatchIds) if (actionId === action.actionId) dispatchIds.delete(dispatchId);
      const snapshot = self.getSnapshot() as { status: string; output?: ActionOutput };
      const durationMs = deps.clock.now() - entry.startedAt;
      durations.set(action.actionId, durationMs);
      if (durations.size > 1_000) durations.delete(durations.keys().next().value!);
      if (snapshot.output) deps.onSettled?.(action, snapshot.output, durationMs);
    };
    self.subscribe({ complete: done, error: done });
  }

  // Provided once: building it per action would re-create every state node.
  const actionLogic = actionMachine.provide({
    actions: {
      sendFrame: ({ self }, input: SendActionInput) => {
        const refusal = deps.refuse?.(input.clientId, input.taskId);
        if (refusal) {
          self.send({ type: 'DISPATCH_FAILED', error: refusal });
          return;
        }
        if (input.dispatchId !== input.actionId) dispatchIds.set(input.dispatchId, input.actionId);
        const frame = browserActionFrame({
          actionId: input.dispatchId,
          taskId: input.taskId,
          clientId: input.clientId,
          timestamp: deps.clock.now(),
          actionName: input.actionName,
          params: input.params,
          // The plugin learns the T_exec the server holds it to (seed 001 §3.5 `timeoutMs`).
          timeoutMs: input.execTimeoutMs,
          ...(input.traceId ? { traceId: input.traceId } : {}),
          ...(input.screenshotPresignedUrl ? { screenshotPresignedUrl: input.screenshotPresignedUrl } : {}),
        });
        const sent = deps.channel.emitWithAck(input.clientId, frame, () => inFlight.get(input.actionId)?.actor.send({ type: 'ACK' }));
        if (!sent) self.send({ type: 'DISPATCH_FAILED', error: errorValue(ErrorCode.PLUGIN_OFFLINE, `the browser extension ${input.clientId} is not connected`, { retryable: true }) });
      },
      announce: ({ self, context }) => track(self, context),
      reportIgnoredResult: (_, params) => deps.onIgnoredResult?.(params.actionId, params.disposition),
      // A stopped task: the plugin is told to stop what it does for the task (fire and forget;
      // its answer is routed like any unknown result and ignored).
      cancelOnPlugin: (_, params) => {
        deps.channel.emitWithAck(
          params.clientId,
          browserActionFrame({
            actionId: `act-${nanoid(12)}`,
            taskId: params.taskId,
            clientId: params.clientId,
            timestamp: deps.clock.now(),
            actionName: 'task_stop',
            params: { closeTab: params.closeTab },
            timeoutMs: 5_000,
            ...(params.traceId ? { traceId: params.traceId } : {}),
          }),
          () => {},
        );
      },
    },
  });

  function inputOf(request: ActionRequest): ActionInput {
    const ackTimeoutMs = request.ackTimeoutMs ?? deps.ackTimeoutMs;
    return {
      actionId: request.actionId ?? `act-${nanoid(12)}`,
      actionName: request.actionName,
      params: request.params,
      taskId: request.taskId,
      clientId: request.clientId,
      ...(ackTimeoutMs ? { ackTimeoutMs } : {}),
      ...(request.execTimeoutMs !== undefined ? { execTimeoutMs: request.execTimeoutMs } : {}),
      ...(request.retry !== undefined ? { retry: request.retry } : {}),
      ...(request.retryBackoffMs !== undefined ? { retryBackoffMs: request.retryBackoffMs } : {}),
      ...(request.traceId ? { traceId: request.traceId } : {}),
      ...(request.screenshotPresignedUrl ? { screenshotPresignedUrl: request.screenshotPresignedUrl } : {}),
    };
  }

  function execute(input: ActionInput): Promise<ActionOutput & { durationMs: number }> {
    const started = deps.clock.now();
    return new Promise((resolve) => {
      const actor = createActor(actionLogic, {
        id: `action:${input.actionId}`,
        clock: deps.clock,
        input,
        ...(deps.inspectFor ? { inspect: deps.inspectFor(input.taskId) } : {}),
      });
      actor.subscribe({
        complete: () => {
          const output = actor.getSnapshot().output as ActionOutput;
          resolve({ ...output, durationMs: deps.clock.now() - started });
        },
      });
      actor.start();
    });
  }

  return {
    actionLogic,
    inputOf,
    actorOf: (actionId) => inFlight.get(actionId)?.actor,
    inFlightIds: () => [...inFlight.keys()],
    taskOf: (actionId) => inFlight.get(actionId)?.action.taskId,
    takeDuration(actionId) {
      const ms = durations.get(actionId);
      durations.delete(actionId);
      const live = inFlight.get(actionId);
      return ms ?? (live ? deps.clock.now() - live.startedAt : undefined);
    },
    run(request, onStarted) {
      const input = inputOf(request);
      pendingByTask.set(request.taskId, (pendingByTask.get(request.taskId) ?? 0) + 1);
      return queue.run(request.taskId, () => {
        onStarted?.();
        return execute(input);
      }).finally(() => {
        const left = (pendingByTask.get(request.taskId) ?? 1) - 1;
        if (left === 0) pendingByTask.delete(request.taskId);
        else pendingByTask.set(request.taskId, left);
      });
    },
    handleResult(clientId, result) {
      const entry = inFlight.get(dispatchIds.get(result.actionId) ?? result.actionId);
      if (entry && entry.action.clientId !== clientId) {
        deps.onIgnoredResult?.(result.actionId, 'unknown');
        return 'foreign';
      }
      if (!entry) {
        const disposition = finished.has(result.actionId) ? 'late' : 'unknown';
        deps.onIgnoredResult?.(result.actionId, disposition);
        return disposition;
      }
      const before = (entry.actor.getSnapshot() as { context: ActionContext }).context.ignoredResults;
      entry.actor.send({
        type: 'RESULT',
        status: result.status,
        ...(result.result !== undefined ? { result: result.result } : {}),
        ...(result.error !== undefined ? { error: result.error } : {}),
      });
      const after = entry.actor.getSnapshot() as { status: string; context: ActionContext };
      return after.status === 'active' && after.context.ignoredResults > before ? 'duplicate' : 'accepted';
    },
    pluginGone(clientId, reason) {
      for (const entry of [...inFlight.values()]) {
        if (entry.action.clientId === clientId) entry.actor.send({ type: 'PLUGIN_GONE', reason: reason ?? `the browser extension ${clientId} disconnected` });
      }
    },
    pending(taskId) {
      return pendingByTask.get(taskId) ?? 0;
    },
  };
}
