// A scripted browser behind the fake plugin: tabs per task, pages by URL (title, text, interactive
// elements, failures, redirects, delays, holds), DOM index generations per tab with stale-ref
// checks like the extension's, typing and clicking with navigation, screenshots uploaded to the
// presigned URL. It records what happened so tests can assert on tabs opened and closed.
import type { Answerer, BrowserActionFrame, FakeAnswer } from '../../test-util/fake-plugin.ts';

export interface FakeElement {
  tag: string;
  text?: string;
  type?: string;
  name?: string;
  placeholder?: string;
  href?: string;
  value?: string;
  /** Clicking navigates the tab here. */
  navigatesTo?: string;
  /** Typing with submit (Enter) navigates here; `{field}` placeholders take typed values by name. */
  submitsTo?: string;
}

export interface FakePage {
  title: string;
  text: string;
  elements?: FakeElement[];
  /** task_start lands here instead (a redirect). */
  redirectTo?: string;
  /** browser_wait_for_loaded fails with this code. */
  loadError?: string;
  /** browser_readability_extract fails with this code. */
  readError?: string;
  /** The HTTP status of the document, as the extension reports it from wait_for_loaded. */
  httpStatus?: number;
  /** Result delay for every action on this page (ms, real time; only for overlap tests). */
  delayMs?: number;
  /** readability waits for this promise (deterministic "mid-run" points). */
  hold?: Promise<void>;
}

interface Tab {
  tabId: number;
  taskId: string;
  url: string;
  nextId: number;
  generation: { firstId: number; lastId: number } | null;
  elements: Map<number, FakeElement>;
  typed: Record<string, string>;
  /** The element that holds the focus (typed into last). */
  focused?: FakeElement;
}

export interface FakeBrowser {
  answer: Answerer;
  pages: Map<string, FakePage>;
  tabs: Map<number, Tab>;
  /** Every tab ever opened / closed (tab ids). */
  opened: number[];
  closed: number[];
  /** Most tabs open at once. */
  maxOpen: number;
  actions: Array<{ name: string; params: Record<string, unknown>; taskId: string }>;
  typed: Array<{ tabId: number; clickId: number; text: string; submit: boolean }>;
  clicks: Array<{ tabId: number; clickId: number }>;
  /** browser_select / browser_check / browser_press / pointer actions, in order. */
  inputs: Array<{ name: string; tabId: number; clickId?: number; detail?: unknown }>;
  /** Called when an action arrives (before answering). */
  onAction?: (name: string, params: Record<string, unknown>) => void;
  /** Sends a plugin_message (tab events, like the extension's); set by the harness. */
  emit?: (message: Record<string, unknown>) => Promise<unknown>;
}

const ok = (result: Record<string, unknown>): FakeAnswer => ({ result: { status: 'success', result } });
const err = (code: string, message: string, details?: Record<string, unknown>): FakeAnswer => ({
  result: { status: 'error', error: { code, message, retryable: false, ...(details ? { details } : {}) } },
});

export function createFakeBrowser(pages: Record<string, FakePage> = {}): FakeBrowser {
  let nextTab = 500;
  const browser: FakeBrowser = {
    pages: new Map(Object.entries(pages)),
    tabs: new Map(),
    opened: [],
    closed: [],
    maxOpen: 0,
    actions: [],
    typed: [],
    clicks: [],
    inputs: [],
    answer: async (name, params, frame) => {
      browser.actions.push({ name, params, taskId: frame.taskId });
      browser.onAction?.(name, params);
      const answer = await answerOf(name, params, frame);
      const page = typeof params.tabId === 'number' ? pageAt(browser.tabs.get(params.tabId)?.url ?? '') : undefined;
      return page?.delayMs ? { ...answer, delayMs: page.delayMs } : answer;
    },
  };

  /** The page at a URL; a URL with a query string falls back to the page without it. */
  const pageAt = (url: string) => browser.pages.get(url) ?? browser.pages.get(url.split('?')[0]!);
  const pageOf = (tab: Tab) => pageAt(tab.url);
  const tabEvent = async (eventType: 'tab_created' | 'tab_updated' | 'tab_removed', tab: Tab) => {
    const body =
      eventType === 'tab_removed'
        ? { tabId: tab.tabId, windowId: 1 }
        : {
            tab: {
              tabId: tab.tabId,
              windowId: 1,
              url: tab.url,
              title: pageOf(tab)?.title ?? '',
              active: false,
              pinned: false,
              hidden: false,
              index: 1,
            },
          };
    await browser.emit?.({ v: 1, type: 'tab_event', eventType, timestamp: Date.now(), ...body });
  };
  /** Navigation, reported to the server the way the extension does (tab_updated with the final URL). */
  const navigate = async (tab: Tab, url: string, created = false) => {
    const page = pageAt(url);
    tab.url = page?.redirectTo ?? url;
    tab.generation = null;
    tab.elements.clear();
    await tabEvent(created ? 'tab_created' : 'tab_updated', tab);
  };
  const tabOf = (params: Record<string, unknown>, taskId: string): Tab | FakeAnswer => {
    const tab = browser.tabs.get(Number(params.tabId));
    if (!tab) return err('TASK_TAB_CLOSED', `tab ${params.tabId} is gone`);
    if (tab.taskId !== taskId) return err('INVALID_TASK_TAB', `tab ${params.tabId} is not a tab of task ${taskId}`);
    return tab;
  };
  const target = (tab: Tab, clickId: number): FakeElement | FakeAnswer => {
    // With the extension's reasons (page-op.ts failTarget): stale and no_index mean the page changed.
    if (!tab.generation) return err('INVALID_TARGET', 'no index', { reason: 'no_index' });
    if (clickId < tab.generation.firstId)
      return err('INVALID_TARGET', `clickId ${clickId} is stale`, { reason: 'stale' });
    const element = tab.elements.get(clickId);
    return element ?? err('INVALID_TARGET', `clickId ${clickId} not found`, { reason: 'not_found' });
  };

  async function answerOf(
    name: string,
    params: Record<string, unknown>,
    frame: BrowserActionFrame,
  ): Promise<FakeAnswer> {
    const taskId = frame.taskId;
    switch (name) {
      case 'task_start': {
        const url = String(params.url ?? 'about:blank');
        const existing = [...browser.tabs.values()].find((t) => t.taskId === taskId);
        const reuse = params.reuseExistingTab === true && existing !== undefined;
        let tab: Tab;
        if (reuse) tab = existing;
        else {
          tab = { tabId: nextTab++, taskId, url, nextId: 1, generation: null, elements: new Map(), typed: {} };
          browser.tabs.set(tab.tabId, tab);
          browser.opened.push(tab.tabId);
          browser.maxOpen = Math.max(browser.maxOpen, browser.tabs.size);
        }
        await navigate(tab, url, !reuse);
        // Like chrome.tabs.create/update: the answer carries the URL asked for (pendingUrl), not where it lands.
        return ok({ tabId: tab.tabId, windowId: 1, url, title: pageOf(tab)?.title ?? '' });
      }
      case 'browser_debugger_attach':
        return ok({ attached: true });
      case 'task_stop': {
        // As the extension: `closeTab: false` stops the task's work and leaves its tab open.
        if (params.closeTab === false) return ok({ stopped: true });
        for (const tab of [...browser.tabs.values()].filter((t) => t.taskId === taskId)) {
          browser.tabs.delete(tab.tabId);
          browser.closed.push(tab.tabId);
          await tabEvent('tab_removed', tab);
        }
        return ok({ stopped: true });
      }
      case 'browser_wait_for_loaded': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const page = pageOf(tab);
        if (page?.loadError) return err(page.loadError, `${tab.url} did not load`);
        // Like the extension: the loaded document's URL and title.
        return ok({
          status: 'complete',
          url: tab.url,
          ...(page ? { title: page.title } : {}),
          ...(page?.httpStatus ? { httpStatus: page.httpStatus } : {}),
        });
      }
      case 'browser_readability_extract': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const page = pageOf(tab);
        if (page?.hold) await page.hold;
        if (!page) return err('PAGE_PREP_FAILED', `nothing readable at ${tab.url}`);
        if (page.readError) return err(page.readError, `readability failed on ${tab.url}`);
        return ok({ title: page.title, text: page.text, contentLengthBytes: Buffer.byteLength(page.text) });
      }
      case 'browser_dom_index': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const elements = pageOf(tab)?.elements ?? [];
        const firstId = tab.nextId;
        tab.elements.clear();
        const out = elements.map((e, i) => {
          const clickId = firstId + i;
          tab.elements.set(clickId, e);
          const { navigatesTo: _n, submitsTo: _s, ...visible } = e;
          return { clickId, ...visible, value: tab.typed[e.name ?? ''] ?? e.value };
        });
        tab.nextId = firstId + elements.length;
        tab.generation = { firstId, lastId: Math.max(firstId, tab.nextId - 1) };
        return ok({
          elements: out.map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined))),
        });
      }
      case 'browser_click': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const element = target(tab, Number(params.clickId));
        if (!('tag' in element)) return element;
        browser.clicks.push({ tabId: tab.tabId, clickId: Number(params.clickId) });
        tab.focused = element;
        if (element.navigatesTo) {
          await navigate(
            tab,
            element.navigatesTo.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(tab.typed[k] ?? '')),
          );
          return ok({
            clicked: true,
            strategy: 'cdp_mouse',
            navigated: true,
            navigation: { url: tab.url, sameDocument: false, committed: true },
          });
        }
        return ok({ clicked: true, strategy: 'cdp_mouse', navigated: false });
      }
      case 'browser_type': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const element = target(tab, Number(params.clickId));
        if (!('tag' in element)) return element;
        const text = String(params.text);
        browser.typed.push({ tabId: tab.tabId, clickId: Number(params.clickId), text, submit: params.submit === true });
        if (element.name) tab.typed[element.name] = text;
        tab.focused = element;
        if (params.submit && element.submitsTo)
          await navigate(
            tab,
            element.submitsTo.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(tab.typed[k] ?? '')),
          );
        return ok({ typed: true, strategy: 'cdp_key' });
      }
      case 'browser_select': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const element = target(tab, Number(params.clickId));
        if (!('tag' in element)) return element;
        const values = params.values as string[];
        browser.inputs.push({ name, tabId: tab.tabId, clickId: Number(params.clickId), detail: values });
        if (element.name) tab.typed[element.name] = values.join(',');
        return ok({ selected: values, labels: values, navigated: false });
      }
      case 'browser_check':
      case 'browser_hover':
      case 'browser_dblclick':
      case 'browser_focus': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const element = target(tab, Number(params.clickId));
        if (!('tag' in element)) return element;
        browser.inputs.push({ name, tabId: tab.tabId, clickId: Number(params.clickId), detail: params.checked });
        if (name === 'browser_check')
          return ok({ checked: params.checked !== false, changed: true, strategy: 'cdp_mouse', navigated: false });
        if (name === 'browser_focus') {
          tab.focused = element;
          return ok({ focused: true });
        }
        return ok(
          name === 'browser_hover'
            ? { hovered: true, strategy: 'cdp_mouse' }
            : { dblclicked: true, strategy: 'cdp_mouse', navigated: false },
        );
      }
      case 'browser_press': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const key = String(params.key);
        browser.inputs.push({ name, tabId: tab.tabId, detail: key });
        const focused = tab.focused;
        if (key === 'Enter' && focused?.submitsTo) {
          await navigate(
            tab,
            focused.submitsTo.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(tab.typed[k] ?? '')),
          );
          return ok({
            pressed: key,
            strategy: 'cdp_key',
            navigated: true,
            navigation: { url: tab.url, sameDocument: false, committed: true },
          });
        }
        return ok({ pressed: key, strategy: 'cdp_key', navigated: false });
      }
      case 'browser_screenshot': {
        const tab = tabOf(params, taskId);
        if (!('tabId' in tab)) return tab;
        const uploadUrl = String(frame.screenshotPresignedUrl ?? '');
        const artifactId = /\/api\/artifacts\/([^/]+)\/upload/.exec(uploadUrl)?.[1];
        if (!artifactId) return err('ARTIFACT_UPLOAD_FAILED', 'no presigned URL');
        const png = Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
          'base64',
        );
        const put = await fetch(uploadUrl, { method: 'PUT', body: png, headers: { 'Content-Type': 'image/png' } });
        if (!put.ok) return err('ARTIFACT_UPLOAD_FAILED', `upload answered ${put.status}`);
        return ok({ artifactId, url: uploadUrl.replace(/\/upload\?.*$/, ''), width: 1, height: 1 });
      }
      default:
        return err('PLUGIN_ERROR', `fake browser does not do ${name}`);
    }
  }

  return browser;
}
