// Tool steps in plain words. A tool call (one toolCallId) runs several browser actions: the
// action the person asked for (open, click, type, switch tab) and the page preparation around it
// (attach, wait for load, screenshot, readability, element index). The group reads as one
// sentence, "Opened SQLite docs", "Clicked 'Submit'", "Typed 'Ada' into 'Your name'"; each
// action keeps its raw name, params and result for the details view.
import type { ToolItem } from '../models/chat-items.ts';
import { isNetworkError } from './error-words.ts';

/** Parses `tabId=12 clickId=4 text="hello"` (paramsSummaryOf's format) back into values. */
export function parseParams(summary: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const re = /(\w+)=("(?:[^"\\]|\\.)*"?|\S+)/g;
  for (let m = re.exec(summary); m; m = re.exec(summary)) {
    const raw = m[2]!;
    try {
      out[m[1]!] = JSON.parse(raw);
    } catch {
      out[m[1]!] = raw.replace(/^"/, '').replace(/"$/, '');
    }
  }
  return out;
}

function hostOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

const quote = (text: string, max = 40) => `'${text.length > max ? `${text.slice(0, max - 1)}…` : text}'`;

/** The actions that do what the person asked; the rest prepare or read the page. */
const PRIMARY = new Set(['task_start', 'browser_click', 'browser_type', 'browser_switch_tab']);

const prepWords: Record<string, [done: string, running: string]> = {
  browser_debugger_attach: ['Attached to the tab', 'Attaching to the tab'],
  browser_wait_for_loaded: ['Waited for the page to load', 'Waiting for the page to load'],
  browser_screenshot: ['Took a screenshot', 'Taking a screenshot'],
  browser_readability_extract: ['Read the page text', 'Reading the page text'],
  browser_dom_index: ["Listed the page's elements", "Listing the page's elements"],
  browser_get_html: ["Read the page's HTML", "Reading the page's HTML"],
  browser_xpath_scan: ['Scanned the page', 'Scanning the page'],
  task_stop: ['Released the tab', 'Releasing the tab'],
};

/** One action in words (a sub-step line, or the whole step when it is alone). */
export function actionWords(step: ToolItem, pageTitle?: string, inFlight?: boolean): string {
  const running = inFlight ?? (step.phase === 'start' && !step.canceled);
  const p = parseParams(step.paramsSummary);
  switch (step.actionName) {
    case 'task_start': {
      if (step.phase === 'error' && !step.canceled) return `Could not open ${hostOf(p.url) ?? 'the page'}`;
      const what = pageTitle ?? hostOf(p.url) ?? (p.reuseExistingTab ? 'the task tab' : 'a tab');
      return `${running ? 'Opening' : 'Opened'} ${what}`;
    }
    case 'browser_click': {
      const what = step.target
        ? quote(step.target)
        : typeof p.clickId === 'number'
          ? `element #${p.clickId}`
          : 'an element';
      return `${running ? 'Clicking' : 'Clicked'} ${what}`;
    }
    case 'browser_type': {
      const text = typeof p.text === 'string' ? quote(p.text) : 'text';
      const into = step.target ? quote(step.target) : typeof p.clickId === 'number' ? `field #${p.clickId}` : 'a field';
      return `${running ? 'Typing' : 'Typed'} ${text} into ${into}${p.submit === true ? ' and submitted' : ''}`;
    }
    case 'browser_switch_tab':
      return `${running ? 'Switching' : 'Switched'} to ${pageTitle ? quote(pageTitle) : typeof p.tabId === 'number' ? `tab ${p.tabId}` : 'another tab'}`;
    default: {
      const words = prepWords[step.actionName];
      if (words) return running ? `${words[1]}…` : words[0];
      return step.actionName.replace(/^browser_/, '').replace(/_/g, ' ');
    }
  }
}

export type GroupPhase = 'start' | 'success' | 'error' | 'partial' | 'canceled';

export interface StepGroup {
  kind: 'step';
  key: string;
  toolCallId: string;
  /** The action that does what was asked, when there is one. */
  primary: ToolItem | null;
  /** Page preparation and reads around it. */
  prep: ToolItem[];
  actions: ToolItem[];
  phase: GroupPhase;
  title: string;
  /** The page could not be reached (Chrome showed its network error page). */
  unreachable?: boolean;
  /** The loaded page's title, when a wait-for-load named it. */
  pageTitle?: string;
  timestamp: number;
  durationMs?: number;
}

function phaseOf(actions: ToolItem[], primary: ToolItem | null): GroupPhase {
  if (actions.some((a) => a.canceled)) return 'canceled';
  if (actions.some((a) => a.phase === 'start')) return 'start';
  if (primary?.phase === 'error') return 'error';
  if (!primary && actions.every((a) => a.phase === 'error')) return 'error';
  if (actions.some((a) => a.phase === 'error' || a.phase === 'partial')) return 'partial';
  return 'success';
}

export function groupOf(actions: ToolItem[]): StepGroup {
  const primary = actions.find((a) => PRIMARY.has(a.actionName)) ?? null;
  const pageTitle = [...actions].reverse().find((a) => a.actionName === 'browser_wait_for_loaded' && a.target)?.target;
  const unreachable = actions.some(
    (a) =>
      (typeof a.result?.url === 'string' && a.result.url.startsWith('chrome-error://')) ||
      (a.error !== undefined && isNetworkError(a.error)),
  );
  const phase = unreachable && !actions.some((a) => a.phase === 'start') ? 'error' : phaseOf(actions, primary);
  const running = phase === 'start';
  let title: string;
  if (unreachable && primary?.actionName === 'task_start')
    title = `Could not reach ${hostOf(parseParams(primary.paramsSummary).url) ?? 'the site'}`;
  else if (primary)
    title = actionWords(
      primary,
      primary.actionName === 'task_start' || primary.actionName === 'browser_switch_tab' ? pageTitle : undefined,
      running,
    );
  else if (actions.length === 1) title = actionWords(actions[0]!);
  else title = `${running ? 'Reading' : 'Read'} ${pageTitle ? quote(pageTitle) : 'the page'}${running ? '…' : ''}`;
  const first = actions[0]!;
  const last = actions[actions.length - 1]!;
  const durations = actions.map((a) => a.durationMs).filter((d): d is number => d !== undefined);
  const group: StepGroup = {
    kind: 'step',
    key: `g:${first.key}`,
    toolCallId: first.toolCallId,
    primary,
    prep: actions.filter((a) => a !== primary),
    actions,
    phase,
    title,
    timestamp: first.timestamp,
  };
  if (pageTitle) group.pageTitle = pageTitle;
  if (unreachable) group.unreachable = true;
  if (!running && durations.length > 0)
    group.durationMs = Math.max(
      durations.reduce((s, d) => s + d, 0),
      last.timestamp - first.timestamp,
    );
  return group;
}

/** Consecutive tool items of one tool call become one step group; other items pass through. */
export function groupSteps<T extends { kind: string }>(items: readonly (T | ToolItem)[]): (T | StepGroup)[] {
  const out: (T | StepGroup)[] = [];
  let run: ToolItem[] = [];
  const flush = () => {
    if (run.length) out.push(groupOf(run));
    run = [];
  };
  for (const item of items) {
    if (item.kind === 'tool') {
      const tool = item as ToolItem;
      if (run.length && run[0]!.toolCallId !== tool.toolCallId) flush();
      run.push(tool);
      continue;
    }
    flush();
    out.push(item as T);
  }
  flush();
  return out;
}
