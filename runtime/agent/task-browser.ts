// The browser side of one task: which extension serves it, its tab, and the browser actions of
// a turn. Every action is handed to `runAction`: for an agent task that is the task actor, which
// runs it as its child (one in flight, none during takeover); for an MCP session, the scheduler's
// queue. Page preparations likewise run through `preparePage` (a child of the task actor).
// Steps are reported to the web as `toolUsed`.
import { createActor, fromPromise, toPromise, type InspectionEvent } from 'xstate';
import { nanoid } from 'nanoid';
import {
  errorValue,
  pagePrepMachine,
  type CaptureInput,
  type ErrorValue,
  type PagePrepInput,
  type PagePrepOutput,
  type ReadabilityCapture,
  type ScreenshotCapture,
} from '../../machines/index.ts';
import type { PageContext } from '../llm/llm-types.ts';
import type { FrontendEvent } from '../../transport/contracts/index.ts';
import { ackTimeoutError, attachErrorOf, compactResult } from './action-outcome.ts';
import { fullPageOf, type FullPage, type IndexedElement } from './page-context.ts';
import { paramsSummaryOf } from './params-summary.ts';
import { markdownForAgent, readableTextOf } from './readable-text.ts';
import type { ActionOutcome, Step, TaskBrowserDeps } from './task-browser-types.ts';
import { guardedRead } from '../url-policy/read-guard.ts';
import { createPasswordFields, REDACTED } from '../redaction/redact.ts';

export type { ActionOutcome, Step, StepRecord, TaskBrowserDeps, UrlCheck } from './task-browser-types.ts';

export function createTaskBrowser(deps: TaskBrowserDeps) {
  let clientId: string | null = null;
  let tabId: number | null = null;
  let groupId: number | null = null;
  let fullPage: FullPage | null = null;
  let traceId: string | undefined;
  /** Page preparations running now: what their captures need (the step, the capture actionIds). */
  /** The start envelope of each action still in flight, by actionId (replayed to a late subscriber). */
  const inFlight = new Map<string, FrontendEvent>();
  const preps = new Map<string, { step: Step; captureIds: { screenshot: string; readability: string }; uploadUrl: string }>();
  const passwordFields = createPasswordFields();

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
    if (clientId !== selection.clientId) tabId = null;
    clientId = selection.clientId;
    if (deps.registry.bindingOf(deps.taskId) !== clientId) deps.registry.bind(deps.taskId, clientId);
    return null;
  }

  /** The URL the extension last reported for a tab of this task. */
  function tabUrl(params: Record<string, unknown>): string | undefined {
    const tab = typeof params.tabId === 'number' ? params.tabId : tabId;
    return clientId && tab !== null ? deps.snapshots.state(clientId)?.tabs.find((t) => t.tabId === tab)?.url : undefined;
  }

  /** Sends the task's tab to about:blank (after a blocked read). */
  async function park(step: Step): Promise<void> {
    if (tabId === null) return;
    await runAction(step, 'task_start', { url: 'about:blank', reuseExistingTab: true, groupTitle: deps.groupTitle() });
  }

  type ActionOptions = { retry?: boolean; actionId?: string; screenshotPresignedUrl?: string; target?: string };

  /** One browser action; page reads go through the URL policy's read guard. */
  async function action(step: Step, actionName: string, params: Record<string, unknown>, options: ActionOptions = {}): Promise<ActionOutcome> {
    return guardedRead<ActionOutcome>(actionName, params, {
      check: deps.checkFinalUrl,
      tabUrl,
      hasBrowser: () => selectPlugin() === null,
      run: (recheck) => runAction(step, actionName, params, options, recheck as (() => Promise<ErrorValue | null>) | undefined),
      park: () => park(step),
      refused: (error) => ({ ok: false, actionId: options.actionId ?? `act-${nanoid(12)}`, error: error as ErrorValue }),
    });
  }

  async function runAction(
    step: Step,
    actionName: string,
    params: Record<string, unknown>,
    options: ActionOptions = {},
    recheck?: () => Promise<ErrorValue | null>,
  ): Promise<ActionOutcome> {
    const actionId = options.actionId ?? `act-${nanoid(12)}`;
    const offline = selectPlugin();
    if (offline) return { ok: false, actionId, error: offline };
    if (step.signal?.aborted) return { ok: false, actionId, error: errorValue('TASK_STOPPED', `${actionName} was not sent: the task was stopped`, { retryable: false }) };
    // Typing into a password field: the text is a secret (redacted in steps, history, records).
    const secret = actionName === 'browser_type' && typeof params.text === 'string' && passwordFields.isTarget(params);
    if (secret) deps.secrets?.add(params.text as string);
    const paramsSummary = paramsSummaryOf(secret ? { ...params, text: REDACTED } : params);
    // `start` when it really starts: it may wait behind another action or a takeover.
    const target = options.target ? { target: options.target } : {};
    const started = () => {
      inFlight.set(actionId, deps.events.toTask(deps.taskId, { type: 'toolUsed', toolCallId: step.toolCallId, actionId, actionName, phase: 'start', paramsSummary, ...target }, traceId));
    };
    try {
      let screenshotPresignedUrl = options.screenshotPresignedUrl;
      if (actionName === 'browser_screenshot' && !screenshotPresignedUrl) {
        const presigned = await deps.artifacts.presign({ taskId: deps.taskId, kind: 'screenshot', contentType: 'image/png' });
        screenshotPresignedUrl = presigned.uploadUrl;
      }
      const output = await deps.runAction(
        deps.inputOf({
          taskId: deps.taskId,
          clientId: clientId!,
          actionName,
          params,
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
      const loadedTitle = actionName === 'browser_wait_for_loaded' && ok ? deps.snapshots.state(clientId!)?.tabs.find((t) => t.tabId === params.tabId)?.title?.trim() : undefined;
      const settledTarget = loadedTitle ? { target: loadedTitle.slice(0, 120) } : target;
      const artifacts =
        ok && actionName === 'browser_screenshot' && typeof result?.artifactId === 'string'
          ? [{ artifactId: result.artifactId, kind: 'screenshot' as const, url: String(result.url ?? '') }]
          : undefined;
      deps.events.toTask(deps.taskId, {
        type: 'toolUsed',
        toolCallId: step.toolCallId,
        actionId,
        actionName,
        phase: !ok ? 'error' : output.status === 'partial' ? 'partial' : 'success',
        paramsSummary,
        ...settledTarget,
        ...(small ? { result: small } : {}),
        durationMs: Math.max(0, Math.round(output.durationMs)),
        ...(artifacts ? { artifacts } : {}),
        ...(warnings ? { warnings } : {}),
        ...(output.error ? { error: { code: output.error.code, message: output.error.message, retryable: output.error.retryable ?? false } } : {}),
      }, traceId);
      if (output.error?.code === 'TASK_TAB_CLOSED') tabId = null;
      deps.onStepDone?.({
        toolCallId: step.toolCallId,
        actionId,
        actionName,
        paramsSummary,
        ...settledTarget,
        ok,
        durationMs: Math.max(0, Math.round(output.durationMs)),
        ...(small ? { result: small } : {}),
        ...(output.error ? { error: output.error } : {}),
      });
      return {
        ok,
        actionId,
        ...(result ? { result } : {}),
        ...(output.error ? { error: output.error } : {}),
        ...(warnings ? { warnings } : {}),
      };
    } finally {
      inFlight.delete(actionId);
    }
  }

  /** A step refused before any action ran (the URL policy): shown and stored like a failed action. */
  function refusedStep(step: Step, actionName: string, params: Record<string, unknown>, error: ErrorValue) {
    const actionId = `act-${nanoid(12)}`;
    const paramsSummary = paramsSummaryOf(params);
    const wire = { code: error.code, message: error.message, retryable: error.retryable ?? false, ...(error.details ? { details: error.details } : {}) };
    deps.events.toTask(deps.taskId, { type: 'toolUsed', toolCallId: step.toolCallId, actionId, actionName, phase: 'error', paramsSummary, durationMs: 0, error: wire }, traceId);
    deps.onStepDone?.({ toolCallId: step.toolCallId, actionId, actionName, paramsSummary, ok: false, durationMs: 0, error });
  }

  /** A capture of a running page preparation: one browser action with that preparation's actionId. */
  async function capture(kind: 'screenshot' | 'readability', input: CaptureInput): Promise<unknown> {
    const prep = input.prepId ? preps.get(input.prepId) : undefined;
    if (!prep) throw errorValue('INTERNAL', `no page preparation ${input.prepId ?? '(none)'} is running`);
    const name = kind === 'screenshot' ? 'browser_screenshot' : 'browser_readability_extract';
    const out = await action(prep.step, name, { tabId: input.tabId }, { retry: false, actionId: prep.captureIds[kind], ...(kind === 'screenshot' ? { screenshotPresignedUrl: prep.uploadUrl } : {}) });
    if (!out.ok) throw out.error;
    return out.result;
  }

  /** pagePrepMachine with this browser's captures: what the task actor spawns per preparation. */
  const pagePrepLogic = pagePrepMachine.provide({
    actors: {
      captureScreenshot: fromPromise<ScreenshotCapture, CaptureInput>(async ({ input }) => (await capture('screenshot', input)) as ScreenshotCapture),
      extractReadability: fromPromise<ReadabilityCapture, CaptureInput>(async ({ input }) => (await capture('readability', input)) as ReadabilityCapture),
    },
  });

  /** Without a task actor (MCP sessions): the preparation runs as its own actor on the clock. */
  function prepareOnItsOwn(input: PagePrepInput): Promise<PagePrepOutput> {
    const prep = createActor(pagePrepLogic, { input, ...(deps.inspect ? { inspect: deps.inspect } : {}), ...(deps.clock ? { clock: deps.clock } : {}) });
    prep.start();
    return toPromise(prep);
  }

  /** task_start (reusing the task's tab when it has one), then attach the debugger. */
  async function ensureTab(step: Step, url?: string): Promise<ActionOutcome | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = await action(step, 'task_start', {
        ...(url ? { url } : {}),
        ...(tabId !== null ? { reuseExistingTab: true } : {}),
        groupTitle: deps.groupTitle(),
      });
      if (!started.ok) {
        if (started.error?.code === 'TASK_TAB_CLOSED' && attempt === 0) continue;
        return started;
      }
      const fresh = tabId !== started.result?.tabId;
      tabId = Number(started.result?.tabId);
      groupId = typeof started.result?.groupId === 'number' ? started.result.groupId : groupId;
      if (fresh) {
        const attached = await action(step, 'browser_debugger_attach', { tabId });
        if (!attached.ok && blockedError()) return attached;
        // A failed attach is not fatal: the extension falls back to DOM strategies. The user is
        // told, with the code (CDP_PERMISSION_DENIED when the browser refused it).
        if (!attached.ok && attached.error) {
          deps.events.toTask(
            deps.taskId,
            {
              type: 'structuredOutput',
              status: 'info',
              message: 'The browser did not let Mimo attach its debugger to the task tab; clicks and typing fall back to DOM events.',
              error: { code: attached.error.code, message: attached.error.message, retryable: attached.error.retryable ?? false },
            },
            traceId,
          );
        }
      }
      return null;
    }
    return null;
  }

  /** The readable text: inline, or read back from the readability artifact (pages of 256 KB or more). */
  async function readableText(readability: ReadabilityCapture | undefined): Promise<{ text: string; fromArtifact: boolean; warning?: string }> {
    const inline = readableTextOf(readability);
    if (inline || !readability?.artifactId) return { text: inline, fromArtifact: false };
    try {
      const opened = await deps.artifacts.open(readability.artifactId);
      if (opened.taskId !== deps.taskId) return { text: '', fromArtifact: false, warning: `readability artifact ${readability.artifactId} belongs to another task` };
      const text = markdownForAgent(await new Response(opened.stream()).text());
      return { text, fromArtifact: true };
    } catch (error) {
      return { text: '', fromArtifact: false, warning: `the page text (artifact ${readability.artifactId}) could not be read back: ${(error as Error)?.message ?? String(error)}` };
    }
  }

  async function readPage(step: Step): Promise<{ ok: true; page: FullPage } | { ok: false; error: ErrorValue }> {
    if (tabId === null) return { ok: false, error: errorValue('TASK_TAB_CLOSED', 'the task has no tab yet: open a URL first', { retryable: false }) };
    const loaded = await action(step, 'browser_wait_for_loaded', { tabId });
    const loadAckMissed = blockedError();
    if (loadAckMissed) return { ok: false, error: loadAckMissed };
    // A successful load's warnings (HTTP 4xx/5xx: an error page, not the content) reach the agent too.
    const loadWarning = loaded.ok ? (loaded.warnings ?? []) : [`the page did not finish loading: ${loaded.error?.message ?? 'unknown'}`];
    // No page at all (refused, DNS, TLS): a failed read, not an error page read as content.
    if (!loaded.ok && (loaded.error?.code === 'TASK_TAB_CLOSED' || loaded.error?.code === 'NAVIGATION_FAILED')) return { ok: false, error: loaded.error };
    const tab = tabId;
    const landedOn = (typeof loaded.result?.url === 'string' ? loaded.result.url : undefined) ?? (clientId ? deps.snapshots.state(clientId)?.tabs.find((t) => t.tabId === tab)?.url : undefined);
    if (deps.checkFinalUrl && landedOn && landedOn !== 'about:blank') {
      const verdict = await deps.checkFinalUrl(landedOn);
      if (!verdict.ok) return { ok: false, error: verdict.error };
    }
    // A capture's retry is the same action (seed 001 §4.2): it keeps its actionId.
    // Presigned before the preparation starts, so both captures are requested in order at once.
    const prepId = `prep-${nanoid(12)}`;
    const upload = await deps.artifacts.presign({ taskId: deps.taskId, kind: 'screenshot', contentType: 'image/png' });
    preps.set(prepId, { step, captureIds: { screenshot: `act-${nanoid(12)}`, readability: `act-${nanoid(12)}` }, uploadUrl: upload.uploadUrl });
    const prepInput = { taskId: deps.taskId, tabId: tab, prepId, ...(deps.pagePrepBackoffMs ? { backoffMs: deps.pagePrepBackoffMs } : {}) };
    let prepared: PagePrepOutput;
    try {
      prepared = deps.preparePage ? await deps.preparePage(prepInput) : await prepareOnItsOwn(prepInput);
    } finally {
      preps.delete(prepId);
    }
    // A plugin that missed an ack is not a page that failed: the turn stops, the task stays usable.
    const ackMissed = blockedError();
    if (ackMissed) return { ok: false, error: ackMissed };
    if (prepared.status === 'failed') {
      return { ok: false, error: prepared.error ?? errorValue('PAGE_PREP_FAILED', 'screenshot and readability both failed', { retryable: true }) };
    }
    const readable = await readableText(prepared.readability);
    const indexed = await action(step, 'browser_dom_index', { tabId: tab, scope: 'document' });
    const elements = indexed.ok && Array.isArray(indexed.result?.elements) ? (indexed.result.elements as IndexedElement[]) : [];
    const snapshotTab = clientId ? deps.snapshots.state(clientId)?.tabs.find((t) => t.tabId === tab) : undefined;
    const indexWarnings = Array.isArray(indexed.result?.warnings) ? (indexed.result.warnings as string[]) : [];
    const page = fullPageOf({
      tabId: tab,
      url: snapshotTab?.url ?? landedOn ?? fullPage?.url ?? '',
      title: prepared.readability?.title ?? snapshotTab?.title,
      text: readable.text,
      textFromArtifact: readable.fromArtifact,
      elements,
      viewport: prepared.screenshot ? { width: prepared.screenshot.width, height: prepared.screenshot.height } : undefined,
      warnings: [...loadWarning, ...prepared.warnings, ...(readable.warning ? [readable.warning] : []), ...(indexed.ok ? indexWarnings : [`dom index failed: ${indexed.error?.message}`])],
      missing: prepared.missing,
    });
    fullPage = page;
    deps.onPageRead?.();
    return { ok: true, page };
  }

  return {
    get clientId() {
      return clientId;
    },
    get tabId() {
      return tabId;
    },
    get groupId() {
      return groupId;
    },
    /** The last page read, whole (the LLM sees a budgeted cut of it). */
    get fullPage() {
      return fullPage;
    },
    selectPlugin,
    pagePrepLogic,
    /** A new turn: the per-turn ack block is lifted, and its traceId goes on every frame and event. */
    beginTurn(turnTraceId?: string) {
      deps.registry.clearTurnBlock(deps.taskId);
      traceId = turnTraceId;
    },
    get traceId() {
      return traceId;
    },
    action,
    stepsInFlight: () => [...inFlight.values()],
    readPage,
    async open(step: Step, url: string) {
      const allowed = await deps.checkUrl(url);
      if (!allowed.ok) {
        refusedStep(step, 'task_start', { url }, allowed.error);
        return { ok: false as const, error: allowed.error };
      }
      const failed = await ensureTab(step, url);
      if (failed) return { ok: false as const, error: failed.error ?? errorValue('INTERNAL', 'task_start failed') };
      return readPage(step);
    },
    /** The seed 002 switch: the task now drives `newTabId` (one of its own tabs). */
    rebind(newTabId: number) {
      tabId = newTabId;
    },
    forgetTab() {
      tabId = null;
    },
  };
}

export type TaskBrowser = ReturnType<typeof createTaskBrowser>;
