// The action pipeline of one task (agent or MCP): the plugin that serves it (select_extension
// honoured at once, never a plugin that missed an ack this turn), the read guard of the URL
// policy, the `toolUsed` steps the web sees (start when the action really starts, then its
// settle), password typing kept secret, and each finished step for the task's history.
import { nanoid } from 'nanoid';
import { errorValue, type ErrorValue } from '../../machines/index.ts';
import { guardedRead } from '../url-policy/read-guard.ts';
import { createPasswordFields, REDACTED } from '../redaction/redact.ts';
import { ackTimeoutError, attachErrorOf, compactResult } from './action-outcome.ts';
import { paramsSummaryOf } from './params-summary.ts';
import { createStoppedSteps, type LateAnswer } from './stopped-steps.ts';
import type { ActionOutcome, Step, StepRecord, TaskBrowserDeps } from './task-browser-types.ts';

/** Where a stored step sorts: at its start's seq (as the web shows it), with its settle's seq. */
const stepOrder = (
  startSeq: number | undefined,
  settleSeq: number | undefined,
): { seq?: number; settleSeq?: number } => (settleSeq === undefined ? {} : { seq: startSeq ?? settleSeq, settleSeq });

export type ActionOptions = { retry?: boolean; actionId?: string; screenshotPresignedUrl?: string; target?: string };

/** What the pipeline needs of the task's tab (runtime/agent/task-tab.ts). */
export interface TabHooks {
  /** The URL the extension last reported for `tab` (default: the task's tab). */
  reportedUrlOf(tab?: number | null): string | undefined;
  titleOf(tab: number | null): string | undefined;
  park(step: Step): Promise<void>;
  /** The tab is gone, or the task moved to another plugin. */
  forget(): void;
}

export function createTaskActions(deps: TaskBrowserDeps, tab: TabHooks) {
  let clientId: string | null = null;
  let traceId: string | undefined;
  const passwordFields = createPasswordFields();
  // Steps a Stop cut short after their frame was sent: stored once the browser says what happened.
  const stopped = createStoppedSteps({
    clock: deps.clock,
    store: (record) => deps.onStepDone?.(record),
    show: (event) => deps.events.toTask(deps.taskId, { type: 'toolUsed', ...event }, traceId),
  });

  /** The plugin that missed an ack in this turn (seed 001 §4.1): the error every later action gets. */
  function blockedError(): ErrorValue | null {
    const block = deps.registry.turnBlockOf(deps.taskId);
    return block && (clientId === null || block.clientId === clientId) ? block.error : null;
  }

  /** The plugin for the next action: honours select_extension at once, never an unhealthy one. */
  function selectPlugin(): ErrorValue | null {
    const selection = deps.registry.selectFor(deps.taskId);
    if (!selection.ok) return selection.error;
    const block = deps.registry.turnBlockOf(deps.taskId);
    if (block && block.clientId === selection.clientId) return block.error;
    if (clientId !== selection.clientId) tab.forget();
    clientId = selection.clientId;
    if (deps.registry.bindingOf(deps.taskId) !== clientId) deps.registry.bind(deps.taskId, clientId);
    return null;
  }

  const stoppedError = (actionName: string) =>
    deps.stoppedError?.() ??
    errorValue('TASK_STOPPED', `${actionName} was not sent: the task was stopped`, { retryable: false });

  /** One browser action; page reads go through the URL policy's read guard. */
  async function action(
    step: Step,
    actionName: string,
    params: Record<string, unknown>,
    options: ActionOptions = {},
  ): Promise<ActionOutcome> {
    const actionId = options.actionId ?? `act-${nanoid(12)}`;
    if (step.signal?.aborted) return { ok: false, actionId, error: stoppedError(actionName) };
    return guardedRead<ActionOutcome>(actionName, params, {
      check: deps.checkFinalUrl,
      tabUrl: (p) => (clientId ? tab.reportedUrlOf(typeof p.tabId === 'number' ? p.tabId : undefined) : undefined),
      hasBrowser: () => selectPlugin() === null,
      run: (recheck) =>
        runAction(
          step,
          actionName,
          params,
          { ...options, actionId },
          recheck as (() => Promise<ErrorValue | null>) | undefined,
        ),
      park: () => tab.park(step),
      refused: (error) => ({ ok: false, actionId, error: error as ErrorValue }),
    });
  }

  async function runAction(
    step: Step,
    actionName: string,
    params: Record<string, unknown>,
    options: ActionOptions & { actionId: string },
    recheck?: () => Promise<ErrorValue | null>,
  ): Promise<ActionOutcome> {
    const { actionId } = options;
    const offline = selectPlugin();
    if (offline) return { ok: false, actionId, error: offline };
    if (step.signal?.aborted) return { ok: false, actionId, error: stoppedError(actionName) };
    // Typing into a password field: the text is a secret (redacted in steps, history, records).
    const secret = actionName === 'browser_type' && typeof params.text === 'string' && passwordFields.isTarget(params);
    if (secret) deps.secrets?.add(params.text as string);
    const paramsSummary = paramsSummaryOf(secret ? { ...params, text: REDACTED } : params);
    // `{{secret:name}}`: the model, the steps and the history keep the placeholder; only the frame to the plugin has the value.
    const filled =
      actionName === 'browser_type' && typeof params.text === 'string' && deps.fillSecrets
        ? deps.fillSecrets(params.text)
        : null;
    if (filled && !filled.ok) return { ok: false, actionId, error: filled.error };
    const wireParams = filled ? { ...params, text: filled.text } : params;
    // `start` when it really starts: it may wait behind another action or a takeover.
    const target = options.target ? { target: options.target } : {};
    // Its start envelope goes on its registry entry (replayed to a late subscriber while it runs).
    let startSeq: number | undefined;
    const started = () => {
      const envelope = deps.events.toTask(
        deps.taskId,
        {
          type: 'toolUsed',
          toolCallId: step.toolCallId,
          actionId,
          actionName,
          phase: 'start',
          paramsSummary,
          ...target,
        },
        traceId,
      );
      const entry = deps.actionRegistry.get(actionId);
      if (entry) entry.startEnvelope = envelope;
      startSeq = envelope.seq;
    };
    try {
      let screenshotPresignedUrl = options.screenshotPresignedUrl;
      if (actionName === 'browser_screenshot' && !screenshotPresignedUrl) {
        const presigned = await deps.artifacts.presign({
          taskId: deps.taskId,
          kind: 'screenshot',
          contentType: 'image/png',
        });
        screenshotPresignedUrl = presigned.uploadUrl;
      }
      const output = await deps.runAction(
        deps.inputOf({
          taskId: deps.taskId,
          clientId: clientId!,
          actionName,
          params: wireParams,
          actionId,
          ...(screenshotPresignedUrl ? { screenshotPresignedUrl } : {}),
          ...(options.retry !== undefined ? { retry: options.retry } : {}),
          ...(traceId ? { traceId } : {}),
        }),
        started,
      );
      if (output.timedOut === 'ack' && output.error) {
        output.error = ackTimeoutError(clientId!, output.error);
        deps.registry.blockForTurn(deps.taskId, clientId!, output.error);
      } else if (output.error && actionName === 'browser_debugger_attach') {
        output.error = attachErrorOf(output.error);
      }
      deps.registry.markUsed(clientId!);
      // A page read whose page is (now) on a blocked URL: its content goes nowhere.
      const refused = recheck && output.status !== 'failed' && output.status !== 'canceled' ? await recheck() : null;
      if (refused) {
        output.status = 'failed';
        output.result = undefined;
        output.error = refused;
      }
      const result = (output.result ?? undefined) as Record<string, unknown> | undefined;
      if (actionName === 'browser_dom_index' && typeof params.tabId === 'number' && Array.isArray(result?.elements)) {
        passwordFields.noteIndex(params.tabId, result.elements as Array<Record<string, unknown>>);
      }
      const warnings = Array.isArray(result?.warnings) ? (result.warnings as string[]) : undefined;
      const ok = output.status !== 'failed' && output.status !== 'canceled';
      const small = compactResult(result);
      // A page that finished loading is named by its title (from the tab snapshot) from now on.
      const loadedTitle =
        actionName === 'browser_wait_for_loaded' && ok && typeof params.tabId === 'number'
          ? tab.titleOf(params.tabId)?.trim()
          : undefined;
      const settledTarget = loadedTitle ? { target: loadedTitle.slice(0, 120) } : target;
      const artifacts =
        ok && actionName === 'browser_screenshot' && typeof result?.artifactId === 'string'
          ? [{ artifactId: result.artifactId, kind: 'screenshot' as const, url: String(result.url ?? '') }]
          : undefined;
      const durationMs = Math.max(0, Math.round(output.durationMs));
      const settled = {
        toolCallId: step.toolCallId,
        actionId,
        actionName,
        phase: !ok ? 'error' : output.status === 'partial' ? 'partial' : 'success',
        paramsSummary,
        ...settledTarget,
        ...(small ? { result: small } : {}),
        durationMs,
        ...(artifacts ? { artifacts } : {}),
        ...(warnings ? { warnings } : {}),
        ...(output.error
          ? {
              error: {
                code: output.error.code,
                message: output.error.message,
                retryable: output.error.retryable ?? false,
              },
            }
          : {}),
      } as const;
      const settledEvent = deps.events.toTask(deps.taskId, { type: 'toolUsed', ...settled }, traceId);
      if (output.error?.code === 'TASK_TAB_CLOSED') tab.forget();
      const record: StepRecord = {
        toolCallId: step.toolCallId,
        actionId,
        actionName,
        paramsSummary,
        ...settledTarget,
        ok,
        durationMs,
        ...(small ? { result: small } : {}),
        ...(output.error ? { error: output.error } : {}),
        ...stepOrder(startSeq, settledEvent.seq),
      };
      // Stopped after it was sent: the browser may have done it; its late answer says (stopped-steps.ts).
      if (output.status === 'canceled' && output.attempts > 0) stopped.hold(record, settled);
      else deps.onStepDone?.(record);
      return {
        ok,
        actionId,
        ...(result ? { result } : {}),
        ...(output.error ? { error: output.error } : {}),
        ...(warnings ? { warnings } : {}),
      };
    } finally {
      // Settled actions leave the registry; one that never reached its task actor (a throw) too.
      const entry = deps.actionRegistry.get(actionId);
      if (entry) entry.startEnvelope = undefined;
      // Its settle event went out (or never will): the next action's start may be told.
      deps.reported?.(actionId);
    }
  }

  /** A step refused before any action ran (the URL policy): shown and stored like a failed action. */
  function refusedStep(step: Step, actionName: string, params: Record<string, unknown>, error: ErrorValue): void {
    const actionId = `act-${nanoid(12)}`;
    const paramsSummary = paramsSummaryOf(params);
    const wire = {
      code: error.code,
      message: error.message,
      retryable: error.retryable ?? false,
      ...(error.details ? { details: error.details } : {}),
    };
    const { seq } = deps.events.toTask(
      deps.taskId,
      {
        type: 'toolUsed',
        toolCallId: step.toolCallId,
        actionId,
        actionName,
        phase: 'error',
        paramsSummary,
        durationMs: 0,
        error: wire,
      },
      traceId,
    );
    deps.onStepDone?.({
      toolCallId: step.toolCallId,
      actionId,
      actionName,
      paramsSummary,
      ok: false,
      durationMs: 0,
      error,
      ...stepOrder(undefined, seq),
    });
  }

  return {
    get clientId() {
      return clientId;
    },
    get traceId() {
      return traceId;
    },
    /** A new turn: the per-turn ack block is lifted, and its traceId goes on every frame and event. */
    beginTurn(turnTraceId?: string) {
      deps.registry.clearTurnBlock(deps.taskId);
      traceId = turnTraceId;
    },
    blockedError,
    selectPlugin,
    action,
    refusedStep,
    stepsInFlight: () => deps.actionRegistry.startedOf(deps.taskId),
    /** A result for an action that had already settled (e.g. canceled by a Stop): true when it completed a held step. */
    lateResult: (actionId: string, answer: LateAnswer) => stopped.answer(actionId, answer),
  };
}

export type TaskActions = ReturnType<typeof createTaskActions>;
