// The browser side of one task: which extension serves it, its tab, and the browser actions of
// a turn. Every action passes the task's gate (one in flight, none during takeover), runs as an
// actionMachine actor through the scheduler, and is reported to the web as `toolUsed` steps.
import { createActor, fromPromise, toPromise, type InspectionEvent } from 'xstate';
import { nanoid } from 'nanoid';
import { errorValue, pagePrepMachine, type CaptureInput, type ErrorValue, type ReadabilityCapture, type ScreenshotCapture } from '../../machines/index.ts';
import type { ArtifactService } from '../artifacts/index.ts';
import type { PageContext } from '../llm/llm-types.ts';
import type { ExtensionRegistry } from '../registry/registry-types.ts';
import type { ActionScheduler } from '../scheduler/action-scheduler.ts';
import type { SnapshotStore } from '../snapshot/snapshot-types.ts';
import type { FrontendEvent } from '../../transport/contracts/index.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import type { ActionGate } from './action-gate.ts';
import { pageContextOf } from './page-context.ts';
import { paramsSummaryOf } from './params-summary.ts';

export interface ActionOutcome {
  ok: boolean;
  actionId: string;
  result?: Record<string, unknown>;
  error?: ErrorValue;
  warnings?: string[];
}

export interface Step {
  toolCallId: string;
  signal?: AbortSignal;
}

export type UrlCheck = (url: string) => Promise<{ ok: true } | { ok: false; error: ErrorValue }>;

export interface TaskBrowserDeps {
  taskId: string;
  groupTitle: () => string;
  scheduler: ActionScheduler;
  registry: ExtensionRegistry;
  artifacts: ArtifactService;
  snapshots: SnapshotStore;
  events: FrontendEventSink;
  gate: ActionGate;
  inspect?: (event: InspectionEvent) => void;
  checkUrl: UrlCheck;
  /** Re-checks the URL the tab ended up on after loading (redirects). */
  checkFinalUrl?: UrlCheck;
  /** Page-prep retry waits (tests shorten them). */
  pagePrepBackoffMs?: readonly number[];
  /** A page read completed (the orchestrator's "page may be stale after takeover" flag clears). */
  onPageRead?(): void;
  /** Each finished browser action, for the task's history (persisted as a `tool` message). */
  onStepDone?(step: StepRecord): void;
}

export interface StepRecord {
  toolCallId: string;
  actionId: string;
  actionName: string;
  paramsSummary: string;
  /** What the step acted on, in words (element label, page title). */
  target?: string;
  ok: boolean;
  durationMs: number;
  /** Small fields only (ids, urls, flags): page text and element lists stay out of the history. */
  result?: Record<string, unknown>;
  error?: ErrorValue;
}

const SMALL_RESULT_KEYS = ['artifactId', 'url', 'width', 'height', 'tabId', 'windowId', 'groupId', 'title', 'clicked', 'typed', 'strategy', 'status', 'attached', 'stopped', 'truncated', 'warnings'];

function compactResult(result: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!result) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of SMALL_RESULT_KEYS) if (result[key] !== undefined) out[key] = result[key];
  return Object.keys(out).length ? out : undefined;
}

export function createTaskBrowser(deps: TaskBrowserDeps) {
  let clientId: string | null = null;
  let tabId: number | null = null;
  let groupId: number | null = null;
  let lastPage: PageContext | null = null;

  function selectPlugin(): ErrorValue | null {
    if (clientId && deps.registry.isOnline(clientId)) return null;
    const selection = deps.registry.selectFor(deps.taskId);
    if (!selection.ok) return selection.error;
    if (clientId !== selection.clientId) tabId = null;
    clientId = selection.clientId;
    deps.registry.bind(deps.taskId, clientId);
    return null;
  }

  /** The start envelope of each action still in flight, by actionId (replayed to a late subscriber). */
  const inFlight = new Map<string, FrontendEvent>();

  async function action(step: Step, actionName: string, params: Record<string, unknown>, options: { retry?: boolean; target?: string } = {}): Promise<ActionOutcome> {
    const actionId = `act-${nanoid(12)}`;
    const offline = selectPlugin();
    if (offline) return { ok: false, actionId, error: offline };
    await deps.gate.acquire(actionId, step.signal);
    const paramsSummary = paramsSummaryOf(params);
    const target = options.target ? { target: options.target } : {};
    inFlight.set(actionId, deps.events.toTask(deps.taskId, { type: 'toolUsed', toolCallId: step.toolCallId, actionId, actionName, phase: 'start', paramsSummary, ...target }));
    try {
      let frameExtras: Record<string, unknown> | undefined;
      if (actionName === 'browser_screenshot') {
        const presigned = await deps.artifacts.presign({ taskId: deps.taskId, kind: 'screenshot', contentType: 'image/png' });
        frameExtras = { screenshotPresignedUrl: presigned.uploadUrl };
      }
      const output = await deps.scheduler.run({
        taskId: deps.taskId,
        clientId: clientId!,
        actionName,
        params,
        actionId,
        ...(frameExtras ? { frameExtras } : {}),
        ...(options.retry !== undefined ? { retry: options.retry } : {}),
      });
      deps.registry.markUsed(clientId!);
      const result = (output.result ?? undefined) as Record<string, unknown> | undefined;
      const warnings = Array.isArray(result?.warnings) ? (result.warnings as string[]) : undefined;
      const ok = output.status !== 'failed';
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
      });
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
      deps.gate.release(actionId);
    }
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
        // A failed attach is not fatal: the extension falls back to DOM strategies.
        void attached;
      }
      return null;
    }
    return null;
  }

  async function readPage(step: Step): Promise<{ ok: true; page: PageContext } | { ok: false; error: ErrorValue }> {
    if (tabId === null) return { ok: false, error: errorValue('TASK_TAB_CLOSED', 'the task has no tab yet: open a URL first', { retryable: false }) };
    const loaded = await action(step, 'browser_wait_for_loaded', { tabId });
    const loadWarning = loaded.ok ? [] : [`the page did not finish loading: ${loaded.error?.message ?? 'unknown'}`];
    if (!loaded.ok && loaded.error?.code === 'TASK_TAB_CLOSED') return { ok: false, error: loaded.error };
    const tab = tabId;
    const landedOn = (typeof loaded.result?.url === 'string' ? loaded.result.url : undefined) ?? (clientId ? deps.snapshots.state(clientId)?.tabs.find((t) => t.tabId === tab)?.url : undefined);
    if (deps.checkFinalUrl && landedOn && landedOn !== 'about:blank') {
      const verdict = await deps.checkFinalUrl(landedOn);
      if (!verdict.ok) return { ok: false, error: verdict.error };
    }
    const machine = pagePrepMachine.provide({
      actors: {
        captureScreenshot: fromPromise<ScreenshotCapture, CaptureInput>(async () => {
          const out = await action(step, 'browser_screenshot', { tabId: tab }, { retry: false });
          if (!out.ok) throw out.error;
          return out.result as unknown as ScreenshotCapture;
        }),
        extractReadability: fromPromise<ReadabilityCapture, CaptureInput>(async () => {
          const out = await action(step, 'browser_readability_extract', { tabId: tab }, { retry: false });
          if (!out.ok) throw out.error;
          return out.result as ReadabilityCapture;
        }),
      },
    });
    const prep = createActor(machine, {
      input: { taskId: deps.taskId, tabId: tab, ...(deps.pagePrepBackoffMs ? { backoffMs: deps.pagePrepBackoffMs } : {}) },
      ...(deps.inspect ? { inspect: deps.inspect } : {}),
    });
    prep.start();
    const prepared = await toPromise(prep);
    if (prepared.status === 'failed') {
      return { ok: false, error: prepared.error ?? errorValue('PAGE_PREP_FAILED', 'screenshot and readability both failed', { retryable: true }) };
    }
    const indexed = await action(step, 'browser_dom_index', { tabId: tab, scope: 'document' });
    const elements = indexed.ok && Array.isArray(indexed.result?.elements) ? (indexed.result.elements as PageContext['elements']) : [];
    const snapshotTab = clientId ? deps.snapshots.state(clientId)?.tabs.find((t) => t.tabId === tab) : undefined;
    const page = pageContextOf({
      tabId: tab,
      url: snapshotTab?.url ?? lastPage?.url ?? '',
      title: prepared.readability?.title ?? snapshotTab?.title,
      readability: prepared.readability,
      elements,
      warnings: [...loadWarning, ...prepared.warnings, ...(indexed.ok ? [] : [`dom index failed: ${indexed.error?.message}`])],
      missing: prepared.missing,
    });
    lastPage = page;
    deps.onPageRead?.();
    return { ok: true, page };
  }

  /** A step refused before any action ran (the URL policy): shown and stored like a failed action. */
  function refused(step: Step, actionName: string, params: Record<string, unknown>, error: ErrorValue) {
    const actionId = `act-${nanoid(12)}`;
    const paramsSummary = paramsSummaryOf(params);
    const wire = { code: error.code, message: error.message, retryable: error.retryable ?? false, ...(error.details ? { details: error.details } : {}) };
    deps.events.toTask(deps.taskId, { type: 'toolUsed', toolCallId: step.toolCallId, actionId, actionName, phase: 'error', paramsSummary, durationMs: 0, error: wire });
    deps.onStepDone?.({ toolCallId: step.toolCallId, actionId, actionName, paramsSummary, ok: false, durationMs: 0, error });
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
    get lastPage() {
      return lastPage;
    },
    selectPlugin,
    action,
    stepsInFlight: () => [...inFlight.values()],
    readPage,
    async open(step: Step, url: string) {
      const allowed = await deps.checkUrl(url);
      if (!allowed.ok) {
        refused(step, 'task_start', { url }, allowed.error);
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
