// The tool call for the next plan item on the current page, or an honest answer when the page
// offers nothing that fits (no such button, no text field, no other tab).
import type { BrowserContext, PageContext } from '../llm-types.ts';
import { ANSWER_PREFIX, clip } from './answers.ts';
import type { ToolStep } from './conversation.ts';
import { findClickTarget, findNewTabLink, findTextField, isTextField, labelOf } from './element-match.ts';
import { decideCheck, decideSelect } from './decide-form.ts';
import { decideExpand, decideWidgetChoice } from './decide-widget.ts';
import { TOOL, type PlanItem } from './plan-steps.ts';
import { pageName } from './page-summary.ts';
import { absoluteHref, chooseOtherTab } from './tab-choice.ts';

export type Decision =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown>; narration: string; prep?: true }
  | { kind: 'answer'; text: string };

const answer = (text: string): Decision => ({ kind: 'answer', text: `${ANSWER_PREFIX}${text}` });

function someLabels(page: PageContext, filter: (e: PageContext['elements'][number]) => boolean): string {
  const labels = [...new Set(page.elements.filter(filter).map((e) => clip(labelOf(e), 60)))].slice(0, 12);
  return labels.length > 0 ? labels.map((l) => `"${l}"`).join(', ') : 'none';
}

export function decideAction(
  item: PlanItem,
  page: PageContext,
  snapshot: BrowserContext | undefined,
  steps: ToolStep[],
): Decision {
  const { action } = item;
  if (action.kind === 'check') {
    const decided = decideCheck(action, page);
    return decided.kind === 'answer' ? answer(decided.text) : decided;
  }
  if (action.kind === 'select') {
    const decided = decideSelect(action, page);
    if (decided.kind === 'tool') return decided;
    // Not a <select> or a radio: an item of an ARIA widget (menu, listbox, tree, tabs, calendar).
    const widget = decideWidgetChoice(action.option, action.field, page, steps);
    return widget ? (widget.kind === 'answer' ? answer(widget.text) : widget) : answer(decided.text);
  }
  if (action.kind === 'expand') {
    const decided = decideExpand(action.target, action.want, page);
    return decided.kind === 'answer' ? answer(decided.text) : decided;
  }
  if (item.tool === TOOL.click && action.kind === 'click') {
    const match = findClickTarget(page.elements, action.target, action.ordinal);
    if (!match) {
      const which =
        action.ordinal !== undefined
          ? `a ${ordinalWord(action.ordinal)} element matching "${action.target}"`
          : `an element matching "${action.target}"`;
      return answer(
        `I could not find ${which} on ${pageName(page)}. Clickable elements I can see: ${someLabels(page, (e) => !isTextField(e))}.`,
      );
    }
    const ties =
      match.ties > 1
        ? ` (${action.ordinal !== undefined ? `number ${action.ordinal === -1 ? match.ties : action.ordinal}` : 'the first'} of ${match.ties} matches)`
        : '';
    return {
      kind: 'tool',
      name: TOOL.click,
      arguments: { clickId: match.element.clickId },
      narration: `clicking "${clip(labelOf(match.element), 60)}" (element ${match.element.clickId})${ties}`,
    };
  }
  if (item.tool === TOOL.type && action.kind === 'type') {
    const match = findTextField(page.elements, action.field);
    if (!match) {
      const wanted = action.field ? `a "${action.field}" field` : 'a text field';
      return answer(
        `I could not find ${wanted} on ${pageName(page)}. Text fields I can see: ${someLabels(page, isTextField)}.`,
      );
    }
    const args: Record<string, unknown> = { clickId: match.element.clickId, text: action.text };
    if (action.submit) args.submit = true;
    return {
      kind: 'tool',
      name: TOOL.type,
      arguments: args,
      narration: `typing "${clip(action.text, 60)}" into "${clip(labelOf(match.element), 40)}" (element ${match.element.clickId})${action.submit ? ' and submitting' : ''}`,
    };
  }
  if (item.tool === TOOL.click && action.kind === 'switch_tab') {
    const link = findNewTabLink(page.elements, action.linkHint);
    if (!link) {
      return answer(
        `there is no link on ${pageName(page)} that opens a new tab (target=_blank), and clicking such a link is the only way I can open one. Links I can see: ${someLabels(page, (e) => e.tag.toLowerCase() === 'a')}.`,
      );
    }
    return {
      kind: 'tool',
      name: TOOL.click,
      arguments: { clickId: link.element.clickId },
      narration: `clicking "${clip(labelOf(link.element), 60)}" (element ${link.element.clickId}), which opens a new tab`,
    };
  }
  if (item.tool === TOOL.switchTab && action.kind === 'switch_tab') {
    if (action.tabId !== undefined) {
      return {
        kind: 'tool',
        name: TOOL.switchTab,
        arguments: { tabId: action.tabId },
        narration: `switching to tab ${action.tabId}`,
      };
    }
    if (!snapshot)
      return answer(
        "I cannot see the browser's tabs (no browser state was given to me), so I cannot tell which tab to switch to.",
      );
    const clicked = clickedElement(steps, page);
    const expectedUrl =
      clicked && (clicked.target ?? '').toLowerCase() === '_blank' ? absoluteHref(clicked.href, page.url) : undefined;
    const tab = chooseOtherTab(snapshot, page.tabId, expectedUrl, clicked?.text);
    if (!tab) {
      const listed = snapshot.tabs
        .map(
          (t) =>
            `${t.tabId}${t.tabId === snapshot.taskTabId ? ' (task tab)' : ''}${t.title ? ` "${clip(t.title, 40)}"` : ''}`,
        )
        .join(', ');
      return answer(`I found no other tab of this task to switch to. Tabs in the browser state: ${listed || 'none'}.`);
    }
    return {
      kind: 'tool',
      name: TOOL.switchTab,
      arguments: { tabId: tab.tabId },
      narration: `switching to tab ${tab.tabId}${tab.title ? ` "${clip(tab.title, 60)}"` : ''}`,
    };
  }
  return answer('I lost track of my plan for this request; please ask again more simply.');
}

/** The element of the last click step, if it is still on the page (a new tab leaves the page as it was). */
function clickedElement(steps: ToolStep[], page: PageContext): PageContext['elements'][number] | undefined {
  const lastClick = [...steps].reverse().find((s) => s.name === TOOL.click);
  const clickId = lastClick?.arguments.clickId;
  return clickId === undefined ? undefined : page.elements.find((e) => e.clickId === clickId);
}

function ordinalWord(ordinal: number): string {
  return ordinal === -1 ? 'last' : (['first', 'second', 'third', 'fourth', 'fifth'][ordinal - 1] ?? `#${ordinal}`);
}
