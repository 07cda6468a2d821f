// One MCP task tab: a TaskBrowser (runtime/agent) on its own ULID task id, whose actions run as
// children of its own task actor (a tool task, runtime/agent/tool-task.ts): the takeover gate,
// STOP, the MCP client's cancel and live inspection apply to them as to the agent's. The tab
// itself (which one, navigation under the URL policy with the final URL re-checked, its URL,
// closing) is the TaskBrowser's TaskTab (runtime/agent/task-tab.ts), the same as the agent's.
// This adds what MCP callers need on top: MCP-shaped outcomes, readable text (inline or from the
// readability artifact), the DOM index, click/type by clickId and screenshots.
import { ulid } from 'ulid';
import { errorValue, taskStatusOf, type ErrorValue } from '../../../machines/index.ts';
import { checkPageRead } from '../../url-policy/read-guard.ts';
import { passwordTargetsOf } from '../../redaction/redact.ts';
import type { DomIndexElement, ModalScope, PageModelSource } from '../../../transport/contracts/index.ts';
import { createTaskBrowser, type ActionOutcome, type TaskBrowser, type UrlCheck } from '../../agent/task-browser.ts';
import { readTaskArtifactText } from '../../agent/task-artifact-text.ts';
import type { Settled } from '../../agent/task-tab.ts';
import type { RuntimeServices } from '../../services/runtime-services.ts';
import type { ToolTask } from '../../agent/tool-task.ts';
import { pageElementOf, type IndexedElement } from '../../agent/page-context.ts';
import type { PageElement } from '../../llm/llm-types.ts';
import { mcpStepRefusal, type McpConsequentialPolicy } from './consequential-policy.ts';

/** The actions a consequential step can be (reads never are). */
const CONSEQUENTIAL_ACTIONS = new Set([
  'browser_click',
  'browser_type',
  'browser_press',
  'browser_dblclick',
  'browser_check',
  'browser_select',
]);

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

export interface PageText {
  title: string;
  text: string;
  /** The readability text was cut by the extension (or read from its artifact). */
  truncated: boolean;
}

export interface Screenshot {
  artifactId: string;
  url: string;
  width: number;
  height: number;
}

export interface PageDriverOptions {
  groupTitle: string;
  checkUrl: UrlCheck;
  /** Final URL after redirects; the same policy, phrased for a landing page. */
  checkFinalUrl: UrlCheck;
  taskId?: string;
  /** Consequential steps: refused with CONFIRMATION_REQUIRED (default) or allowed. */
  consequentialSteps?: McpConsequentialPolicy;
}

export type PageDriver = ReturnType<typeof createPageDriver>;

const stepOf = (signal?: AbortSignal) => ({ toolCallId: `mcp-${ulid()}`, ...(signal ? { signal } : {}) });

function failure(outcome: ActionOutcome, fallback: string): { ok: false; error: ErrorValue } {
  return { ok: false, error: outcome.error ?? errorValue('PLUGIN_ERROR', fallback) };
}

export function createPageDriver(services: RuntimeServices, options: PageDriverOptions) {
  const taskId = options.taskId ?? ulid();
  let task!: ToolTask;
  const browser: TaskBrowser = createTaskBrowser({
    taskId,
    groupTitle: () => options.groupTitle,
    runAction: (input, onStarted) => task.runAction(input, onStarted),
    reported: (actionId) => task.reported(actionId),
    preparePage: (input) => task.preparePage(input),
    inputOf: (request) => services.scheduler.inputOf(request),
    actionRegistry: services.scheduler.registry,
    registry: services.registry,
    artifacts: services.artifacts,
    snapshots: services.snapshots,
    events: services.events,
    clock: services.clock,
    checkUrl: options.checkUrl,
    // Every read (snapshot, text, DOM index, screenshot) re-checks the tab's current URL.
    checkFinalUrl: options.checkFinalUrl,
    secrets: services.secrets,
    stoppedError: () => errorValue('RUN_CANCELED', 'stopped before the action was sent'),
  });
  // The tab (which one, its URL and title, navigation, closing) is the task's TaskTab.
  const tab = browser.tab;
  task = services.tasks.toolTask(taskId, {
    pagePrepLogic: browser.pagePrepLogic,
    clientId: () => browser.clientId,
    tabId: () => tab.tabId,
  });

  /** The elements of the last DOM index: what a click or type by clickId acts on (consequential-policy.ts). */
  let lastElements: PageElement[] = [];
  const refusal = (toolName: string, args: Record<string, unknown>) =>
    mcpStepRefusal(options.consequentialSteps ?? 'refuse', {
      toolName,
      args,
      pageUrl: tab.currentUrl() ?? undefined,
      elements: lastElements,
    });
  const act = (name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<ActionOutcome> => {
    // Text for a password field is a secret even when the step is refused: the MCP call carried it
    // (the session recorder writes the call's arguments, redacted, when it returns).
    if (
      name === 'browser_type' &&
      typeof params.text === 'string' &&
      typeof params.clickId === 'number' &&
      passwordTargetsOf(lastElements).clickIds.has(params.clickId)
    )
      services.secrets.add(params.text);
    const refused = CONSEQUENTIAL_ACTIONS.has(name) ? refusal(name, params) : null;
    if (refused) return Promise.resolve({ ok: false, actionId: 'not-sent', error: refused });
    return browser.action(stepOf(signal), name, params);
  };

  function needTab(): { ok: false; error: ErrorValue } | null {
    if (tab.closed)
      return { ok: false, error: errorValue('TASK_TAB_CLOSED', 'this tab was closed', { retryable: false }) };
    if (tab.tabId === null)
      return {
        ok: false,
        error: errorValue('TASK_TAB_CLOSED', 'no page is open yet: open a URL first', { retryable: false }),
      };
    return null;
  }

  /** A settled load as MCP answers it: blocked landing URL, failed load, or where it landed. */
  function loadedValue(
    settled: Settled,
    fallbackUrl: string,
  ): Outcome<{ url: string; title?: string; httpStatus?: number; warnings: string[] }> {
    if (settled.refused) return { ok: false, error: settled.refused };
    const { loaded } = settled;
    if (!loaded.ok) return failure(loaded, 'the page did not load');
    const r = loaded.result ?? {};
    return {
      ok: true,
      value: {
        url: settled.landed ?? fallbackUrl,
        ...(typeof r.title === 'string' ? { title: r.title } : {}),
        ...(typeof r.httpStatus === 'number' ? { httpStatus: r.httpStatus } : {}),
        warnings: loaded.warnings ?? [],
      },
    };
  }

  return {
    taskId,
    /** The task's tab owner, the same module the agent's TaskBrowser uses. */
    tab,
    get tabId() {
      return tab.tabId;
    },
    get clientId() {
      return browser.clientId;
    },
    get closed() {
      return tab.closed;
    },
    /** The URL the extension reports for the tab: the snapshot's (tab events follow redirects), else task_start's. */
    currentUrl: () => tab.currentUrl(),

    /**
     * The tab's current URL as a read sees it (`wait --url`): re-checked with the
     * policy's final-URL rules first; a page that moved to a blocked URL answers URL_BLOCKED (its
     * host at most, never its path or query) and the tab is parked on about:blank, like every read.
     */
    async checkedUrl(signal?: AbortSignal): Promise<Outcome<string>> {
      const url = tab.currentUrl() ?? '';
      const verdict = await checkPageRead(options.checkFinalUrl, url);
      if (verdict.ok) return { ok: true, value: url };
      await tab.park(stepOf(signal)).catch(() => {});
      return {
        ok: false,
        error: errorValue('URL_BLOCKED', verdict.error.message, {
          retryable: false,
          ...(verdict.error.details ? { details: verdict.error.details as Record<string, unknown> } : {}),
        }),
      };
    },

    /** The tab's navigation (TaskTab.navigate): policy check, task_start, attach, load, final URL check. */
    async open(
      url: string,
      signal?: AbortSignal,
    ): Promise<Outcome<{ url: string; title: string; httpStatus?: number; warnings: string[] }>> {
      const navigated = await tab.navigate(stepOf(signal), url);
      if (!navigated.ok) return navigated;
      const loaded = loadedValue(navigated.settled, url);
      // The new document's title, read after it loaded (task_start's is the tab's previous one).
      return loaded.ok ? { ok: true, value: { ...loaded.value, title: loaded.value.title ?? '' } } : loaded;
    },

    async waitLoaded(
      timeoutMs?: number,
      signal?: AbortSignal,
    ): Promise<Outcome<{ url: string; title?: string; httpStatus?: number; warnings: string[] }>> {
      const missing = needTab();
      if (missing) return missing;
      return loadedValue(await tab.settle(stepOf(signal), timeoutMs !== undefined ? { timeoutMs } : {}), '');
    },

    /** Any other catalog action on this tab (select, check, hover, dblclick, focus, press). */
    async perform(
      name: string,
      params: Record<string, unknown>,
      signal?: AbortSignal,
    ): Promise<Outcome<Record<string, unknown>>> {
      const missing = needTab();
      if (missing) return missing;
      const done = await act(name, { tabId: tab.tabId, ...params }, signal);
      if (!done.ok) return failure(done, `${name} failed`);
      return { ok: true, value: done.result ?? {} };
    },

    async readText(signal?: AbortSignal): Promise<Outcome<PageText>> {
      const missing = needTab();
      if (missing) return missing;
      const read = await act('browser_readability_extract', { tabId: tab.tabId }, signal);
      if (!read.ok) return failure(read, 'readability failed');
      const result = read.result ?? {};
      let text =
        typeof result.text === 'string' ? result.text : typeof result.markdown === 'string' ? result.markdown : '';
      let truncated = result.truncated === true;
      if (!text && typeof result.artifactId === 'string') {
        const stored = await readTaskArtifactText(services.artifacts, taskId, result.artifactId);
        if (stored.ok) text = stored.text;
        else truncated = true;
      }
      return { ok: true, value: { title: typeof result.title === 'string' ? result.title : '', text, truncated } };
    },

    async domIndex(
      signal?: AbortSignal,
    ): Promise<
      Outcome<{ elements: DomIndexElement[]; warnings: string[]; source?: PageModelSource; modal?: ModalScope }>
    > {
      const missing = needTab();
      if (missing) return missing;
      const indexed = await act('browser_dom_index', { tabId: tab.tabId, scope: 'document' }, signal);
      if (!indexed.ok) return failure(indexed, 'dom index failed');
      const elements = Array.isArray(indexed.result?.elements) ? (indexed.result.elements as DomIndexElement[]) : [];
      const value: { elements: DomIndexElement[]; warnings: string[]; source?: PageModelSource; modal?: ModalScope } = {
        elements,
        warnings: indexed.warnings ?? [],
      };
      // Which page model this is (the accessibility tree or the DOM fallback) and the modal that scopes it.
      if (indexed.result?.source === 'ax' || indexed.result?.source === 'dom') value.source = indexed.result.source;
      if (indexed.result?.modal && typeof indexed.result.modal === 'object')
        value.modal = indexed.result.modal as ModalScope;
      lastElements = elements.map((e) => pageElementOf(e as IndexedElement));
      return { ok: true, value };
    },

    async click(
      clickId: number,
      signal?: AbortSignal,
    ): Promise<Outcome<{ warnings: string[]; result: Record<string, unknown> }>> {
      const missing = needTab();
      if (missing) return missing;
      const clicked = await act('browser_click', { tabId: tab.tabId, clickId }, signal);
      if (!clicked.ok) return failure(clicked, 'click failed');
      return { ok: true, value: { warnings: clicked.warnings ?? [], result: clicked.result ?? {} } };
    },

    async type(
      clickId: number,
      text: string,
      submit: boolean,
      signal?: AbortSignal,
    ): Promise<Outcome<{ warnings: string[]; result: Record<string, unknown> }>> {
      const missing = needTab();
      if (missing) return missing;
      const typed = await act(
        'browser_type',
        { tabId: tab.tabId, clickId, text, ...(submit ? { submit: true } : {}) },
        signal,
      );
      if (!typed.ok) return failure(typed, 'typing failed');
      return { ok: true, value: { warnings: typed.warnings ?? [], result: typed.result ?? {} } };
    },

    async screenshot(fullPage: boolean, signal?: AbortSignal): Promise<Outcome<Screenshot>> {
      const missing = needTab();
      if (missing) return missing;
      const shot = await act(
        'browser_screenshot',
        { tabId: tab.tabId, ...(fullPage ? { fullPage: true } : {}) },
        signal,
      );
      if (!shot.ok) return failure(shot, 'screenshot failed');
      const r = shot.result ?? {};
      return {
        ok: true,
        value: {
          artifactId: String(r.artifactId ?? ''),
          url: String(r.url ?? ''),
          width: Number(r.width ?? 0),
          height: Number(r.height ?? 0),
        },
      };
    },

    /** The MCP client canceled: the action in flight is stopped on the plugin, queued ones are not sent. */
    cancel: () => task.cancel(),

    /** task_stop with closeTab; forgets the task's extension binding; ends its task actor. Idempotent. */
    async close(): Promise<Outcome<{ closed: true }>> {
      // Closing ends the session's use of the tab: a takeover would hold the closing task_stop
      // forever (shutdown, idle sweep), so the task is stopped first and closes from a fresh hold.
      if (taskStatusOf(task.actor.getSnapshot()) === 'takeover') task.cancel();
      try {
        const closed = await tab.close(stepOf());
        return closed.ok ? { ok: true, value: { closed: true } } : closed;
      } finally {
        task.dispose();
      }
    },
  };
}
