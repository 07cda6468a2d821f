// ActionScheduler (seed 000 §1, 001 §4): the transport side of every browser_action. It provides
// `actionMachine` with the real IO once (`actionLogic`): `sendFrame` writes the typed frame to
// the plugin's room `client:{clientId}` with a Socket.IO ack (-> ACK), `announce` registers the
// live actor so the plugin's `browser_action_result` (new or legacy format) is routed to it by
// actionId (-> RESULT), a plugin that disconnects fails what it had in flight at once
// (-> PLUGIN_GONE), and `cancelOnPlugin` sends task_stop when a task stop cancels an action.
// Only task actors run `actionLogic`, as their children (the task machine serialises and gates
// them; MCP sessions have task actors too, runtime/agent/tool-task.ts); every action is tracked
// in the one action registry (action-registry.ts).
import type { AnyActorRef } from 'xstate';
import { nanoid } from 'nanoid';
import {
  actionMachine,
  errorValue,
  ErrorCode,
  execTimeoutFor,
  restoredEvent,
  type ActionContext,
  type ActionInput,
  type ActionOutput,
  type ErrorValue,
  type IgnoredResultDisposition,
  type SendActionInput,
} from '../../machines/index.ts';
import { browserActionFrame, type NormalizedActionResult } from '../../transport/contracts/index.ts';
import type { Clock } from '../clock/index.ts';
import { createActionRegistry, type ActionRegistry } from './action-registry.ts';

/** How the scheduler reaches a plugin: emit to its room and report the first ack. */
export interface PluginChannel {
  /** True when at least one socket of this plugin is connected. */
  isConnected(clientId: string): boolean;
  /**
   * Emits `frame` to the plugin with an ack callback; returns false when nobody received it.
   * A channel that holds a frame before it leaves (the cluster's action ledger, across a database
   * outage) calls `onHeldFrameSent` once it has really gone out (again): T_ack counts from then,
   * so a wait on the database is not taken for the extension missing its ack (no resend after a
   * missed ack, seed 001 §4.1). It returns false when the action no longer awaits this ack (then
   * the frame must not go out again).
   */
  emitWithAck(
    clientId: string,
    frame: unknown,
    onAck: (response: unknown) => void,
    onHeldFrameSent?: () => boolean,
  ): boolean;
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
  /** The runtime's clock (frame timestamps, step durations). */
  clock: Clock;
  /** Default ack timeout (T_ack) for every action; the machine's default when absent. */
  ackTimeoutMs?: number;
  /** How many finished action ids are remembered to tell "late" from "unknown". */
  rememberFinished?: number;
  /** The one action registry (default: a new one). */
  registry?: ActionRegistry;
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
  /** Every action in flight or waiting, by id (shared with the task trees). */
  readonly registry: ActionRegistry;
  /** The machine input for a request (defaults filled in: actionId, T_ack). */
  inputOf(request: ActionRequest): ActionInput;
  /** Fire and forget: tells the plugin to stop the task's work (task_stop), e.g. after STOP with nothing in flight. */
  stopOnPlugin(clientId: string, taskId: string, options: { closeTab: boolean; traceId?: string }): void;
  /** Routes a plugin's browser_action_result to its action; says what became of it. */
  handleResult(clientId: string, result: NormalizedActionResult): ResultDisposition;
  /** The plugin's last socket went away (or it was flagged unhealthy): fail its in-flight actions with PLUGIN_OFFLINE. */
  pluginGone(clientId: string, reason?: string): void;
  /** The live action actor of an action id (for inspection and tests). */
  actorOf(actionId: string): AnyActorRef | undefined;
  /** Ids of the actions in flight right now. */
  inFlightIds(): string[];
  /** The task of an action in flight. */
  taskOf(actionId: string): string | undefined;
}

export function createActionScheduler(deps: ActionSchedulerDeps): ActionScheduler {
  const registry =
    deps.registry ??
    createActionRegistry(deps.rememberFinished !== undefined ? { rememberFinished: deps.rememberFinished } : {});

  function track(self: AnyActorRef, context: ActionContext): void {
    let entry = registry.get(context.actionId);
    if (!entry) {
      entry = {
        actionId: context.actionId,
        actionName: context.actionName,
        taskId: context.taskId,
        clientId: context.clientId,
      };
      registry.add(entry);
    }
    entry.actor = self;
    entry.clientId = context.clientId;
    entry.startedAt = deps.clock.now();
    const action: SettledAction = {
      actionId: context.actionId,
      actionName: context.actionName,
      taskId: context.taskId,
      clientId: context.clientId,
    };
    const startedAt = entry.startedAt;
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      // Ends the action's dispatch-id aliases too (action-registry.ts).
      if (registry.get(action.actionId)?.actor === self) registry.ended(action.actionId);
      const snapshot = self.getSnapshot() as { status: string; output?: ActionOutput };
      if (snapshot.output) deps.onSettled?.(action, snapshot.output, deps.clock.now() - startedAt);
    };
    self.subscribe({ complete: done, error: done });
  }

  function stopOnPlugin(clientId: string, taskId: string, options: { closeTab: boolean; traceId?: string }): void {
    deps.channel.emitWithAck(
      clientId,
      browserActionFrame({
        actionId: `act-${nanoid(12)}`,
        taskId,
        clientId,
        timestamp: deps.clock.now(),
        actionName: 'task_stop',
        params: { closeTab: options.closeTab },
        timeoutMs: execTimeoutFor('task_stop'),
        ...(options.traceId ? { traceId: options.traceId } : {}),
      }),
      () => {},
    );
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
        // A retry after an error result goes out under a new dispatch id; its result comes back to this action.
        if (input.dispatchId !== input.actionId) registry.alias(input.dispatchId, input.actionId);
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
        const actorOf = () => registry.get(input.actionId)?.actor;
        const sent = deps.channel.emitWithAck(
          input.clientId,
          frame,
          () => actorOf()?.send({ type: 'ACK' }),
          () => {
            // Still waiting for this frame's ack: the wait starts again now (RESTORED restarts a live actor's wait).
            const actor = actorOf();
            if (!actor?.getSnapshot().matches({ attempt: 'awaitingAck' })) return false;
            actor.send(restoredEvent);
            return true;
          },
        );
        if (!sent)
          self.send({
            type: 'DISPATCH_FAILED',
            error: errorValue(ErrorCode.PLUGIN_OFFLINE, `the browser extension ${input.clientId} is not connected`, {
              retryable: true,
            }),
          });
      },
      announce: ({ self, context }) => track(self, context),
      reportIgnoredResult: (_, params) => deps.onIgnoredResult?.(params.actionId, params.disposition),
      // A stopped task: the plugin is told to stop what it does for the task (fire and forget;
      // its answer is routed like any unknown result and ignored).
      cancelOnPlugin: (_, params) =>
        stopOnPlugin(params.clientId, params.taskId, {
          closeTab: params.closeTab,
          ...(params.traceId ? { traceId: params.traceId } : {}),
        }),
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

  return {
    actionLogic,
    inputOf,
    registry,
    stopOnPlugin,
    actorOf: (actionId) => registry.get(actionId)?.actor,
    inFlightIds: () => [...registry.live()].map((entry) => entry.actionId),
    taskOf: (actionId) => registry.get(actionId)?.taskId,
    handleResult(clientId, result) {
      const actionId = registry.resolve(result.actionId);
      const entry = registry.get(actionId);
      if (entry?.actor && entry.clientId !== clientId) {
        deps.onIgnoredResult?.(result.actionId, 'unknown');
        return 'foreign';
      }
      if (!entry?.actor) {
        const disposition = registry.wasFinished(actionId) ? 'late' : 'unknown';
        deps.onIgnoredResult?.(result.actionId, disposition);
        return disposition;
      }
      const actor = entry.actor;
      const before = (actor.getSnapshot() as { context: ActionContext }).context.ignoredResults;
      actor.send({
        type: 'RESULT',
        status: result.status,
        ...(result.result !== undefined ? { result: result.result } : {}),
        ...(result.error !== undefined ? { error: result.error } : {}),
      });
      const after = actor.getSnapshot() as { status: string; context: ActionContext };
      return after.status === 'active' && after.context.ignoredResults > before ? 'duplicate' : 'accepted';
    },
    pluginGone(clientId, reason) {
      for (const entry of [...registry.live()]) {
        if (entry.clientId === clientId)
          entry.actor!.send({
            type: 'PLUGIN_GONE',
            reason: reason ?? `the browser extension ${clientId} disconnected`,
          });
      }
    },
  };
}
