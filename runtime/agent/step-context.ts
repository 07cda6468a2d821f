// What one LLM step of a turn sees of the browser, held to the step budget in o200k tokens:
// the browser-state message (tabs) first, then the newest page (or paging result) in what is
// left. The budget covers the page's tool result and the browser state, not the chat history.
import { toolResultOk } from '../../transport/contracts/index.ts';
import type { BrowserContext, PageContext } from '../llm/llm-types.ts';
import { browserContextOf } from './browser-context.ts';
import { fitPage } from './context-budget.ts';
import type { BBox, FullPage } from './page-context.ts';
import { countTokens } from './token-count.ts';

/** The browser state may take at most this share of the step budget; past it only the task's own tabs are listed. */
const TABS_SHARE = 0.25;
/** Tokens kept free for the tool-call id and result fields that vary between calls. */
const MARGIN = 24;

export interface StepContextOptions {
  budgetTokens: number;
  hideTab?(tab: { tabId: number; groupId?: number | undefined }): boolean;
}

type Snapshot = Parameters<typeof browserContextOf>[0];

export function createStepContext(options: StepContextOptions) {
  let focus: BBox | undefined;

  function browserState(
    snapshot: Snapshot,
    taskTabId: number | null,
  ): { browserState: BrowserContext; stateMessage: string } {
    let state = browserContextOf(snapshot, taskTabId, options.hideTab);
    const message = (s: BrowserContext) => `Current browser state: ${JSON.stringify(s)}`;
    if (countTokens(message(state)) > options.budgetTokens * TABS_SHARE) {
      const task = state.tabs.find((t) => t.tabId === taskTabId);
      const keep = state.tabs.filter(
        (t) =>
          t.tabId === taskTabId ||
          t.tabId === state.activeTabId ||
          (task?.groupId !== undefined && t.groupId === task.groupId),
      );
      state = { ...state, tabs: keep, omittedTabs: (state.omittedTabs ?? 0) + state.tabs.length - keep.length };
      if (countTokens(message(state)) > options.budgetTokens * TABS_SHARE) {
        const only = state.tabs.filter((t) => t.tabId === taskTabId);
        state = { ...state, tabs: only, omittedTabs: (state.omittedTabs ?? 0) + state.tabs.length - only.length };
      }
    }
    return { browserState: state, stateMessage: message(state) };
  }

  const envelope = (name: string, result: Record<string, unknown>) =>
    countTokens(toolResultOk('call_0000000000000000000000000000', name, { ...result, page: null }, { warnings: [] }));

  return {
    browserState,
    /** Remember the element acted on: elements near it come first in the next page read. */
    noteAction(name: string, args: Record<string, unknown>, page: FullPage | null): void {
      if (typeof args.clickId === 'number' && page) {
        focus = page.boxes.get(args.clickId) ?? focus;
      } else if (name === 'browser_open' || name === 'browser_switch_tab') {
        focus = undefined;
      }
    },
    fitPage(page: FullPage, stateMessage: string, toolName: string, result: Record<string, unknown>): PageContext {
      const budget = options.budgetTokens - countTokens(stateMessage) - envelope(toolName, result) - MARGIN;
      return fitPage(page, { budgetTokens: Math.max(200, budget), focus });
    },
    /** Tokens one paging result (text window or element list) may use in this step. */
    pagingTokens(stateMessage: string): number {
      return Math.max(200, options.budgetTokens - countTokens(stateMessage) - 160);
    },
  };
}
