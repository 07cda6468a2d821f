// The tools the LLM can call, and how each maps onto browser actions of the task's tab. Every
// outcome is a seed 000 §5 tool result; an unknown tool, bad arguments or a refused tab come
// back as readable tool errors (seed 002), never as exceptions.
import { errorValue, type ErrorValue } from '../../machines/index.ts';
import type { LlmTool } from '../llm/llm-types.ts';
import { browserContextOf } from './browser-context.ts';
import { availableInputTools, inputActionOf } from './browser-input-tools.ts';
import { listElements, readTextWindow } from './context-budget.ts';
import type { FullPage } from './page-context.ts';
import type { GuardedCall } from './person-guard.ts';
import type { Step, TaskBrowser } from './task-browser.ts';

export const browserTools: LlmTool[] = [
  {
    name: 'browser_open',
    description:
      "Open a URL in the task's own background tab (created on first use) and return the page: readable text and the interactive elements with their clickId.",
    schema: {
      type: 'object',
      properties: { url: { type: 'string', description: 'absolute http(s) URL' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_read_page',
    description: 'Read the task tab again (after the page changed): readable text and interactive elements.',
    schema: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'browser_read_page_text',
    description:
      'Read more of the readable text of the last page read, from a character offset (the page context says where its text was cut, in paging.textEnd).',
    schema: {
      type: 'object',
      properties: { offset: { type: 'integer', minimum: 0 } },
      required: ['offset'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_list_elements',
    description:
      'List the interactive elements of the last page read that the page context left out: page 1, 2, ... in document order, or only those whose text, name or placeholder contain all the words of `query`.',
    schema: {
      type: 'object',
      properties: { page: { type: 'integer', minimum: 1 }, query: { type: 'string' } },
      additionalProperties: false,
    },
  },
  {
    name: 'browser_click',
    description:
      'Click an element of the current page by its clickId from the latest page read. Returns the page after the click.',
    schema: {
      type: 'object',
      properties: { clickId: { type: 'integer', minimum: 0 } },
      required: ['clickId'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_type',
    description:
      'Type text into an input of the current page by its clickId; submit=true presses Enter / submits the form. Returns the page afterwards.',
    schema: {
      type: 'object',
      properties: { clickId: { type: 'integer', minimum: 0 }, text: { type: 'string' }, submit: { type: 'boolean' } },
      required: ['clickId', 'text'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_switch_tab',
    description:
      "Make another tab of this task (e.g. one a link opened) the task's tab. Only tabs listed in the browser state as belonging to the task's group are allowed.",
    schema: {
      type: 'object',
      properties: { tabId: { type: 'integer' } },
      required: ['tabId'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_screenshot',
    description: 'Take a screenshot of the task tab (shown to the user).',
    schema: { type: 'object', properties: {}, additionalProperties: false },
  },
];

/** Every tool the LLM may call with the extension's current action catalog. */
export function availableBrowserTools(): LlmTool[] {
  return [...browserTools, ...availableInputTools()];
}

export interface ToolOutcome {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: ErrorValue;
  warnings?: string[];
  /** The fresh page, whole, when the tool read it (the turn puts a budgeted cut of it in `result.page`). */
  page?: FullPage;
}

/** The tools that act on a page (reads, paging and screenshots never wait for the person). */
const GUARDED_TOOLS = new Set([
  'browser_open',
  'browser_click',
  'browser_type',
  'browser_select',
  'browser_check',
  'browser_press',
  'browser_dblclick',
]);

const fail = (code: string, message: string, retryable = false): ToolOutcome => ({
  ok: false,
  error: errorValue(code, message, { retryable }),
});

function intArg(args: Record<string, unknown>, key: string): number | null {
  const value = args[key];
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** The element's words from the latest page read (its text, label, placeholder or name), for the step's `target`. */
function labelOf(browser: TaskBrowser, clickId: number): { target?: string } {
  const el = browser.fullPage?.elements.find((e) => e.clickId === clickId);
  const words =
    el && [el.text, el.placeholder, el.name].find((w): w is string => typeof w === 'string' && w.trim() !== '');
  return words ? { target: words.trim().slice(0, 80) } : {};
}

async function afterInteraction(
  browser: TaskBrowser,
  step: Step,
  result: Record<string, unknown> | undefined,
  warnings?: string[],
): Promise<ToolOutcome> {
  const read = await browser.readPage(step);
  if (!read.ok) return { ok: true, result: { ...result, pageError: read.error }, ...(warnings ? { warnings } : {}) };
  return { ok: true, result: { ...result }, page: read.page, ...(warnings ? { warnings } : {}) };
}

export async function runBrowserTool(
  browser: TaskBrowser,
  deps: {
    snapshotOf(clientId: string):
      | {
          tabs: Array<{
            tabId: number;
            windowId: number;
            url?: string;
            title?: string;
            active: boolean;
            groupId?: number;
          }>;
          activeTabId: number | null;
        }
      | undefined;
    /** Tokens one paging result may take (the step budget less the browser state). */
    pagingTokens?: number;
    /** The person's guard (person-guard.ts): a held step waits for their yes; null lets it go ahead. */
    guard?: { check(call: GuardedCall): Promise<ErrorValue | null> };
  },
  name: string,
  args: Record<string, unknown>,
  step: Step,
): Promise<ToolOutcome> {
  if (deps.guard && GUARDED_TOOLS.has(name)) {
    const refused = await deps.guard.check({
      toolName: name,
      args,
      toolCallId: step.toolCallId,
      signal: step.signal,
      // The tab's URL as the extension reports it, else the last page read, else where task_start sent it.
      pageUrl:
        browser.tabId === null
          ? undefined
          : (browser.tab.reportedUrlOf() ?? browser.fullPage?.url ?? browser.tab.currentUrl() ?? undefined),
      elements: browser.fullPage?.elements ?? [],
    });
    if (refused) return { ok: false, error: refused };
  }
  switch (name) {
    case 'browser_open': {
      const url = args.url;
      if (typeof url !== 'string' || url.length === 0)
        return fail('SCHEMA_VALIDATION_FAILED', 'browser_open needs { url: string }');
      const opened = await browser.open(step, url);
      if (!opened.ok) return { ok: false, error: opened.error };
      return { ok: true, result: {}, page: opened.page };
    }
    case 'browser_read_page': {
      const read = browser.tabId === null ? null : await browser.readPage(step);
      if (!read) return fail('TASK_TAB_CLOSED', 'the task has no tab yet: call browser_open first');
      if (!read.ok) return { ok: false, error: read.error };
      return { ok: true, result: {}, page: read.page };
    }
    case 'browser_read_page_text': {
      const offset = args.offset === undefined ? 0 : intArg(args, 'offset');
      if (offset === null || offset < 0)
        return fail(
          'SCHEMA_VALIDATION_FAILED',
          'browser_read_page_text needs { offset: integer >= 0 } (paging.textEnd of the page context)',
        );
      const page = browser.fullPage;
      if (!page)
        return fail('TASK_TAB_CLOSED', 'no page has been read yet: call browser_open or browser_read_page first');
      if (offset > page.text.length)
        return fail(
          'INVALID_TARGET',
          `offset ${offset} is past the end of the page text (${page.text.length} characters)`,
        );
      return { ok: true, result: { pageText: readTextWindow(page, offset, deps.pagingTokens ?? 3_000) } };
    }
    case 'browser_list_elements': {
      const pageNumber = args.page === undefined ? 1 : intArg(args, 'page');
      if (pageNumber === null || pageNumber < 1 || (args.query !== undefined && typeof args.query !== 'string')) {
        return fail('SCHEMA_VALIDATION_FAILED', 'browser_list_elements takes { page?: integer >= 1, query?: string }');
      }
      const page = browser.fullPage;
      if (!page)
        return fail('TASK_TAB_CLOSED', 'no page has been read yet: call browser_open or browser_read_page first');
      const listed = listElements(
        page,
        { page: pageNumber, ...(typeof args.query === 'string' && args.query.trim() ? { query: args.query } : {}) },
        deps.pagingTokens ?? 3_000,
      );
      if (pageNumber > listed.pages)
        return fail('INVALID_TARGET', `there are only ${listed.pages} page(s) of elements`);
      return { ok: true, result: { elementsPage: listed } };
    }
    case 'browser_click': {
      const clickId = intArg(args, 'clickId');
      if (clickId === null)
        return fail('SCHEMA_VALIDATION_FAILED', 'browser_click needs { clickId: integer } from the latest page read');
      if (browser.tabId === null) return fail('TASK_TAB_CLOSED', 'the task has no tab yet: call browser_open first');
      const out = await browser.action(
        step,
        'browser_click',
        { tabId: browser.tabId, clickId },
        labelOf(browser, clickId),
      );
      if (!out.ok) return { ok: false, ...(out.error ? { error: out.error } : {}) };
      return afterInteraction(browser, step, out.result, out.warnings);
    }
    case 'browser_type': {
      const clickId = intArg(args, 'clickId');
      if (clickId === null || typeof args.text !== 'string') {
        return fail(
          'SCHEMA_VALIDATION_FAILED',
          'browser_type needs { clickId: integer, text: string, submit?: boolean }',
        );
      }
      if (browser.tabId === null) return fail('TASK_TAB_CLOSED', 'the task has no tab yet: call browser_open first');
      const out = await browser.action(
        step,
        'browser_type',
        {
          tabId: browser.tabId,
          clickId,
          text: args.text,
          ...(args.submit === true ? { submit: true } : {}),
        },
        labelOf(browser, clickId),
      );
      if (!out.ok) return { ok: false, ...(out.error ? { error: out.error } : {}) };
      return afterInteraction(browser, step, out.result, out.warnings);
    }
    case 'browser_switch_tab': {
      const tabId = intArg(args, 'tabId');
      if (tabId === null) return fail('SCHEMA_VALIDATION_FAILED', 'browser_switch_tab needs { tabId: integer }');
      const snapshot = browser.clientId ? deps.snapshotOf(browser.clientId) : undefined;
      const context = browserContextOf(snapshot, browser.tabId);
      const target = snapshot?.tabs.find((t) => t.tabId === tabId);
      if (!target)
        return fail(
          'INVALID_TARGET',
          `there is no tab ${tabId}; known tabs: ${context.tabs.map((t) => t.tabId).join(', ') || 'none'}`,
        );
      const ownGroup = browser.groupId !== null && target.groupId === browser.groupId;
      if (tabId !== browser.tabId && !ownGroup) {
        return fail(
          'INVALID_TASK_TAB',
          `tab ${tabId} does not belong to this task (only tabs in the task's group can be switched to)`,
        );
      }
      const out = await browser.action(step, 'browser_switch_tab', { tabId });
      if (!out.ok) return { ok: false, ...(out.error ? { error: out.error } : {}) };
      browser.rebind(tabId);
      return afterInteraction(browser, step, out.result, out.warnings);
    }
    case 'browser_screenshot': {
      if (browser.tabId === null) return fail('TASK_TAB_CLOSED', 'the task has no tab yet: call browser_open first');
      const out = await browser.action(step, 'browser_screenshot', { tabId: browser.tabId });
      return out.ok
        ? { ok: true, ...(out.result ? { result: out.result } : {}) }
        : { ok: false, ...(out.error ? { error: out.error } : {}) };
    }
    default: {
      const mapped = inputActionOf(name, args, browser.tabId ?? -1);
      if (!mapped)
        return fail(
          'INVALID_TARGET',
          `unknown tool "${name}"; available: ${availableBrowserTools()
            .map((t) => t.name)
            .join(', ')}`,
        );
      if (!mapped.ok) return { ok: false, error: mapped.error };
      if (browser.tabId === null) return fail('TASK_TAB_CLOSED', 'the task has no tab yet: call browser_open first');
      const out = await browser.action(step, mapped.actionName, mapped.params);
      if (!out.ok) return { ok: false, ...(out.error ? { error: out.error } : {}) };
      return afterInteraction(
        browser,
        step,
        { ...out.result, ...(mapped.actionName !== name ? { via: mapped.actionName } : {}) },
        out.warnings,
      );
    }
  }
}
