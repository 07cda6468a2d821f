// A synthetic browser for driving the offline planner through whole conversations: pages by
// URL, tabs in one task group, and tool results built exactly as the orchestrator builds them
// (seed 000 §5 tool-result JSON via the shared contracts, older pages superseded).
import { toolResultError, toolResultOk } from '../../../transport/contracts/index.ts';
import type { BrowserContext, LlmEvent, LlmGateway, LlmMessage, PageContext, PageElement } from '../llm-types.ts';

/** A page; `leftOut` are elements the budgeted context did not show (served by browser_list_elements). */
export type PageSpec = Omit<PageContext, 'tabId' | 'url'> & { leftOut?: PageElement[] };

export interface World {
  pages: Record<string, PageSpec>;
  /** Button behaviour: returns the new page spec of the same URL (DOM changed) or a URL to go to. */
  onClick?(url: string, element: PageElement): { page?: PageSpec; goto?: string; newTab?: string } | undefined;
  /** Key behaviour (browser_press on an element): e.g. ArrowRight expands a tree item. */
  onPress?(url: string, element: PageElement, key: string): { page?: PageSpec } | undefined;
  /** Field behaviour: e.g. a submitted search goes to a results page. */
  onType?(
    url: string,
    element: PageElement,
    text: string,
    submit: boolean,
  ): { page?: PageSpec; goto?: string } | undefined;
}

interface Tab {
  tabId: number;
  url: string;
  groupId: number;
}

export interface DriveResult {
  messages: LlmMessage[];
  /** Events of every streamChat call, per step. */
  steps: LlmEvent[][];
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** Text of the final step. */
  answer: string;
  /** Every delta of every step concatenated. */
  chat: string;
  tabs: Tab[];
  taskTabId: number | null;
}

export interface DriveOptions {
  /** URL already open in the task tab before the request. */
  startUrl?: string;
  /** Tabs besides the task tab (e.g. the user's own tabs, not in the task group). */
  extraTabs?: Array<{ tabId: number; url: string; groupId: number }>;
  /** Earlier conversation. */
  history?: LlmMessage[];
  /** Replace a tool outcome (to inject failures). */
  override?(name: string, args: Record<string, unknown>): { ok: false; code: string; message: string } | undefined;
  /** Do not pass context.snapshot (an orchestrator without browser state). */
  noSnapshot?: boolean;
  /** Start without context.page although a tab is open (the orchestrator has not read it yet). */
  noInitialPage?: boolean;
  maxSteps?: number;
}

export async function drive(
  planner: LlmGateway,
  world: World,
  request: string,
  options: DriveOptions = {},
): Promise<DriveResult> {
  const tabs: Tab[] = [...(options.extraTabs ?? [])];
  let taskTabId: number | null = null;
  let nextTabId = 100;
  const specs = new Map<number, PageSpec>();
  const openTab = (url: string): Tab => {
    const tab = { tabId: nextTabId++, url, groupId: 7 };
    tabs.push(tab);
    return tab;
  };
  const pageOf = (tabId: number): PageContext | undefined => {
    const tab = tabs.find((t) => t.tabId === tabId);
    if (!tab) return undefined;
    const spec = specs.get(tabId) ?? world.pages[tab.url] ?? world.pages[tab.url.split('?')[0]!];
    if (!spec) return undefined;
    const { leftOut: _leftOut, ...shown } = structuredClone(spec);
    return { tabId, url: tab.url, ...shown };
  };
  if (options.startUrl) taskTabId = openTab(options.startUrl).tabId;
  let lastPage: PageContext | undefined = taskTabId !== null && !options.noInitialPage ? pageOf(taskTabId) : undefined;

  const messages: LlmMessage[] = [
    { role: 'system', content: 'You are Mimo.' },
    ...(options.history ?? []),
    { role: 'user', content: request },
  ];
  const steps: LlmEvent[][] = [];
  const toolCalls: DriveResult['toolCalls'] = [];
  let chat = '';
  let answer = '';

  const navigate = (tabId: number, url: string) => {
    const tab = tabs.find((t) => t.tabId === tabId)!;
    tab.url = url.split('#')[0]!;
    specs.delete(tabId);
  };

  const run = (
    name: string,
    args: Record<string, unknown>,
  ): { ok: true; result: Record<string, unknown> } | { ok: false; code: string; message: string } => {
    const forced = options.override?.(name, args);
    if (forced) return forced;
    if (name === 'browser_open') {
      const url = String(args.url);
      if (!world.pages[url.split('#')[0]!])
        return { ok: false, code: 'NAVIGATION_TIMEOUT', message: `${url} did not load` };
      if (taskTabId === null) taskTabId = openTab(url).tabId;
      else navigate(taskTabId, url);
      return { ok: true, result: { page: pageOf(taskTabId)! } };
    }
    if (taskTabId === null)
      return { ok: false, code: 'TASK_TAB_CLOSED', message: 'the task has no tab yet: call browser_open first' };
    const current = pageOf(taskTabId)!;
    if (name === 'browser_read_page') return { ok: true, result: { page: current } };
    if (name === 'browser_click' || name === 'browser_type') {
      const leftOut = (specs.get(taskTabId) ?? world.pages[current.url])?.leftOut ?? [];
      const element = [...current.elements, ...leftOut].find((e) => e.clickId === args.clickId);
      if (!element)
        return { ok: false, code: 'INVALID_TARGET', message: `no element with clickId ${String(args.clickId)}` };
      if (name === 'browser_click') {
        const outcome = world.onClick?.(current.url, element);
        if (outcome?.goto) navigate(taskTabId, outcome.goto);
        if (outcome?.page) specs.set(taskTabId, outcome.page);
        if (outcome?.newTab) openTab(outcome.newTab);
        if (!outcome && element.href) {
          const href = new URL(element.href, current.url).href;
          if (element.target === '_blank') openTab(href);
          else navigate(taskTabId, href);
        }
        return { ok: true, result: { clicked: true, strategy: 'cdp_mouse', page: pageOf(taskTabId)! } };
      }
      const outcome = world.onType?.(current.url, element, String(args.text), args.submit === true);
      if (outcome?.goto) navigate(taskTabId, outcome.goto);
      if (outcome?.page) specs.set(taskTabId, outcome.page);
      // As the extension reports it: `submitted` only when the page reacted (a form submit or a navigation).
      const reacted = {
        navigated: Boolean(outcome?.goto),
        ...(args.submit === true ? { submitted: Boolean(outcome?.goto || outcome?.page) } : {}),
      };
      return { ok: true, result: { typed: true, strategy: 'cdp_key', ...reacted, page: pageOf(taskTabId)! } };
    }
    if (name === 'browser_list_elements') {
      const spec = specs.get(taskTabId) ?? world.pages[current.url];
      const words = String(args.query ?? '')
        .toLowerCase()
        .split(/\W+/)
        .filter(Boolean);
      const all = [...current.elements, ...(spec?.leftOut ?? [])];
      const elements = all.filter((e) => words.every((w) => (e.text ?? '').toLowerCase().split(/\W+/).includes(w)));
      return {
        ok: true,
        result: {
          elementsPage: { url: current.url, query: args.query, page: 1, pages: 1, matching: elements.length, elements },
        },
      };
    }
    if (name === 'browser_select' || name === 'browser_check') {
      const element = current.elements.find((e) => e.clickId === args.clickId);
      if (!element)
        return { ok: false, code: 'INVALID_TARGET', message: `no element with clickId ${String(args.clickId)}` };
      const result =
        name === 'browser_select'
          ? { selected: args.values, labels: args.values }
          : { checked: args.checked !== false, changed: true, strategy: 'cdp_mouse' };
      return { ok: true, result: { ...result, page: pageOf(taskTabId)! } };
    }
    if (name === 'browser_press') {
      const element = current.elements.find((e) => e.clickId === args.clickId);
      if (args.clickId !== undefined && !element)
        return { ok: false, code: 'INVALID_TARGET', message: `no element with clickId ${String(args.clickId)}` };
      const outcome = element ? world.onPress?.(current.url, element, String(args.key)) : undefined;
      if (outcome?.page) specs.set(taskTabId, outcome.page);
      return { ok: true, result: { pressed: String(args.key), page: pageOf(taskTabId)! } };
    }
    if (name === 'browser_switch_tab') {
      const target = tabs.find((t) => t.tabId === args.tabId);
      if (!target) return { ok: false, code: 'INVALID_TARGET', message: `there is no tab ${String(args.tabId)}` };
      const own = tabs.find((t) => t.tabId === taskTabId)!;
      if (target.groupId !== own.groupId)
        return { ok: false, code: 'INVALID_TASK_TAB', message: `tab ${target.tabId} does not belong to this task` };
      taskTabId = target.tabId;
      const page = pageOf(target.tabId)!;
      return {
        ok: true,
        result: { tabId: target.tabId, url: target.url, ...(page.title ? { title: page.title } : {}), page },
      };
    }
    return { ok: false, code: 'INVALID_TARGET', message: `unknown tool "${name}"` };
  };

  for (let step = 0; step < (options.maxSteps ?? 12); step++) {
    const snapshot: BrowserContext = {
      tabs: tabs.map((t) => {
        const page = pageOf(t.tabId);
        return {
          tabId: t.tabId,
          windowId: 1,
          url: t.url,
          ...(page?.title ? { title: page.title } : {}),
          active: t.tabId === 1,
          groupId: t.groupId,
        };
      }),
      activeTabId: 1,
      taskTabId,
    };
    const events: LlmEvent[] = [];
    for await (const event of planner.streamChat({
      taskId: 'task-1',
      messages: [...messages, { role: 'system', content: `Current browser state: ${JSON.stringify(snapshot)}` }],
      tools: [],
      context: { ...(options.noSnapshot ? {} : { snapshot }), ...(lastPage ? { page: lastPage } : {}) },
    })) {
      events.push(event);
    }
    steps.push(events);
    const text = events.map((e) => (e.type === 'delta' ? e.content : '')).join('');
    chat += text;
    const calls = events.filter((e) => e.type === 'tool_call');
    if (calls.length === 0) {
      answer = text;
      break;
    }
    messages.push({
      role: 'assistant',
      content: text,
      toolCalls: calls.map((c) => ({ toolCallId: c.toolCallId, name: c.name, arguments: c.arguments })),
    });
    for (const call of calls) {
      toolCalls.push({ name: call.name, arguments: call.arguments });
      const outcome = run(call.name, call.arguments);
      const result = outcome.ok
        ? toolResultOk(call.toolCallId, call.name, outcome.result)
        : toolResultError(call.toolCallId, call.name, {
            code: outcome.code,
            message: outcome.message,
            retryable: false,
          });
      if (outcome.ok && typeof outcome.result.page === 'object') {
        lastPage = outcome.result.page as PageContext;
        supersede(messages);
      }
      messages.push({ role: 'tool', toolCallId: call.toolCallId, name: call.name, content: JSON.stringify(result) });
    }
  }
  return { messages, steps, toolCalls, answer, chat, tabs, taskTabId };
}

function supersede(messages: LlmMessage[]): void {
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const parsed = JSON.parse(message.content) as { result?: { page?: unknown } };
    if (parsed.result?.page) {
      parsed.result.page = '(superseded by a later page read)';
      message.content = JSON.stringify(parsed);
    }
  }
}
