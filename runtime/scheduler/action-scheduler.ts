// ActionScheduler (seed 000 §1, 001 §4): the transport side of every browser_action. It gives
// the action slot its real IO once (`actionEffects`, provided to every task machine, whose
// `action` region runs the task's actions): `sendFrame` writes the typed frame to the plugin's
// room `client:{clientId}` with a Socket.IO ack (-> ACK) and, on an action's first frame,
// registers the task actor running it so the plugin's `browser_action_result` (new or legacy
// format) is routed to it by actionId (-> RESULT); `armDeadline` times the actor's waits on the
// clock (deadline-timer.ts); a plugin that disconnects fails what it had in flight at once
// (-> PLUGIN_GONE), and `cancelOnPlugin` sends task_stop when a task stop cancels an action.
// Only task actors run actions (the task machine serialises and gates them; MCP sessions have
// task actors too, runtime/agent/tool-task.ts); every action is tracked in the one action
// registry (action-registry.ts).
import type { AnyActorRef } from 'xstate';
import { nanoid } from 'nanoid';
import {
  actionStateOf,
  errorValue,
  ErrorCode,
  execTimeoutFor,
  restoredEvent,
  type ActionSlotContext,
  type CancelActionInput,
  type DeadlineInput,
  type ActionInput,
  type ActionOutput,
  type ErrorValue,
  type IgnoredResultDisposition,
  type SendActionInput,
} from '../../machines/index.ts';
import { browserActionFrame, type NormalizedActionResult } from '../../transport/contracts/index.ts';
import type { Clock } from '../clock/index.ts';
import { createActionRegistry, type ActionEntry, type ActionRegistry } from './action-registry.ts';
import { createDeadlineTimer } from './deadline-timer.ts';

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
  /** The action slot's effects with the transport: what every task machine is provided with. */
  readonly actionEffects: ActionEffects;
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

/** The action slot's effects (machines/action-slot.ts), as the runtime provides them. */
export interface ActionEffects {
  sendFrame(args: unknown, input: SendActionInput): void;
  armDeadline(args: unknown, params: DeadlineInput): void;
  reportIgnoredResult(args: unknown, params: { actionId: string; disposition: IgnoredResultDisposition }): void;
  cancelOnPlugin(args: unknown, params: CancelActionInput): void;
}

type SelfArgs = { self: AnyActorRef };

export function createActionScheduler(deps: ActionSchedulerDeps): ActionScheduler {
  const registry =
    deps.registry ??
    createActionRegistry(deps.rememberFinished !== undefined ? { rememberFinished: deps.rememberFinished } : {});

  const deadlines = createDeadlineTimer(deps.clock);

  /** The first frame of an action: its registry entry learns its actor (results are routed to it). */
  function track(self: AnyActorRef, input: SendActionInput): void {
    let entry = registry.get(input.actionId);
    if (!entry) {
      entry = {
        actionId: input.actionId,
        actionName: input.actionName,
        taskId: input.taskId,
        clientId: input.clientId,
      };
      registry.add(entry);
    }
    entry.actor = self;
    entry.clientId = input.clientId;
    entry.startedAt = deps.clock.now();
  }

  /** The entry of an action its actor is running now (the actor runs the task's later actions after it). */
  function inFlight(actionId: string): ActionEntry | undefined {
    const entry = registry.get(actionId);
    const current = (entry?.actor?.getSnapshot() as { context?: ActionSlotContext } | undefined)?.context?.current;
    return current?.actionId === actionId ? entry : undefined;
  }

  registry.onSettled((entry, output, durationMs) => {
    if (entry.actor === undefined) return;
    entry.actor = undefined;
    deps.onSettled?.(
      { actionId: entry.actionId, actionName: entry.actionName, taskId: entry.taskId, clientId: entry.clientId },
      output,
      durationMs,
    );
  });

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

  /** Writes the frame of `input` (its task actor is `self`); a frame that cannot go out answers DISPATCH_FAILED. */
  function writeFrame(self: AnyActorRef, input: SendActionInput): void {
    const refusal = deps.refuse?.(input.clientId, input.taskId);
    if (input.attempt === 1) track(self, input);
    if (refusal) {
      self.send({ type: 'DISPATCH_FAILED', actionId: input.actionId, error: refusal });
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
    const sent = deps.channel.emitWithAck(
      input.clientId,
      frame,
      () => inFlight(input.actionId)?.actor?.send({ type: 'ACK', actionId: input.actionId }),
      () => {
        // Still waiting for this frame's ack: the wait starts again now (RESTORED restarts a live actor's wait).
        const actor = inFlight(input.actionId)?.actor;
        if (!actor || actionStateOf(actor.getSnapshot()) !== 'awaitingAck') return false;
        actor.send(restoredEvent);
        return true;
      },
    );
    if (!sent)
      self.send({
        type: 'DISPATCH_FAILED',
        actionId: input.actionId,
        error: errorValue(ErrorCode.PLUGIN_OFFLINE, `the browser extension ${input.clientId} is not connected`, {
          retryable: true,
        }),
      });
  }

  const actionEffects: ActionEffects = {
    sendFrame: (args, input) => {
      const { self } = args as SelfArgs;
      // A frame that throws on its way out fails its action, not the task actor running it.
      try {
        writeFrame(self, input);
      } catch (error) {
        self.send({
          type: 'DISPATCH_FAILED',
          actionId: input.actionId,
          error: errorValue(ErrorCode.INTERNAL, `the frame could not be written: ${String(error)}`, {
            retryable: false,
          }),
        });
      }
    },
    armDeadline: (args, { waitId, ms }) => deadlines.arm((args as SelfArgs).self, waitId, ms),
    reportIgnoredResult: (_, params) => deps.onIgnoredResult?.(params.actionId, params.disposition),
    // A stopped task: the plugin is told to stop what it does for the task (fire and forget;
    // its answer is routed like any unknown result and ignored).
    cancelOnPlugin: (_, params) =>
      stopOnPlugin(params.clientId, params.taskId, {
        closeTab: params.closeTab,
        ...(params.traceId ? { traceId: params.traceId } : {}),
      }),
  };

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
    actionEffects,
    inputOf,
    registry,
    stopOnPlugin,
    actorOf: (actionId) => inFlight(actionId)?.actor,
    inFlightIds: () => [...registry.live()].filter((entry) => inFlight(entry.actionId)).map((entry) => entry.actionId),
    taskOf: (actionId) => registry.get(actionId)?.taskId,
    handleResult(clientId, result) {
      const actionId = registry.resolve(result.actionId);
      const entry = inFlight(actionId);
      if (entry && entry.clientId !== clientId) {
        deps.onIgnoredResult?.(result.actionId, 'unknown');
        return 'foreign';
      }
      if (!entry) {
        const disposition = registry.wasFinished(actionId) || registry.get(actionId) ? 'late' : 'unknown';
        deps.onIgnoredResult?.(result.actionId, disposition);
        return disposition;
      }
      const actor = entry.actor!;
      const current = () => (actor.getSnapshot() as { context: ActionSlotContext }).context.current;
      const before = current()!.ignoredResults;
      actor.send({
        type: 'RESULT',
        actionId,
        status: result.status,
        ...(result.result !== undefined ? { result: result.result } : {}),
        ...(result.error !== undefined ? { error: result.error } : {}),
      });
      const after = current();
      return after?.actionId === actionId && after.ignoredResults > before ? 'duplicate' : 'accepted';
    },
    pluginGone(clientId, reason) {
      for (const { actionId } of [...registry.live()]) {
        const entry = inFlight(actionId);
        if (entry?.clientId === clientId)
          entry.actor!.send({
            type: 'PLUGIN_GONE',
            actionId,
            reason: reason ?? `the browser extension ${clientId} disconnected`,
          });
      }
    },
  };
}
