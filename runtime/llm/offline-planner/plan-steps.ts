// The tool calls a request needs, in order, derived from its intent alone, so that each step of
// the conversation can be paired with the action it carried out (the planner keeps no state).
import type { PlannedAction, RequestIntent } from './request-intent.ts';

export const TOOL = {
  open: 'browser_open',
  read: 'browser_read_page',
  click: 'browser_click',
  type: 'browser_type',
  switchTab: 'browser_switch_tab',
  select: 'browser_select',
  check: 'browser_check',
  readText: 'browser_read_page_text',
  listElements: 'browser_list_elements',
  press: 'browser_press',
} as const;

/** Tools that carry out one plan item each (a select item may end as a click on a radio button). */
export type ActionTool =
  typeof TOOL.click | typeof TOOL.type | typeof TOOL.switchTab | typeof TOOL.select | typeof TOOL.press;
/** Tool names that carry out a plan item (a check item runs as browser_check or browser_click). */
export const ACTION_TOOLS: ReadonlySet<string> = new Set([
  TOOL.click,
  TOOL.type,
  TOOL.switchTab,
  TOOL.select,
  TOOL.check,
  TOOL.press,
]);

/**
 * A step that only prepares its plan item (a click that opens the menu or calendar holding the
 * item to choose) carries this suffix in its tool call id, so the plan stays paired with the
 * steps without any state kept between calls.
 */
export const PREP_SUFFIX = '_prep';
export const isPrepStep = (step: { toolCallId: string }): boolean => step.toolCallId.endsWith(PREP_SUFFIX);
/** A step that carried out a plan item. */
export const isPlanStep = (step: { name: string; toolCallId: string }): boolean =>
  ACTION_TOOLS.has(step.name) && !isPrepStep(step);

export interface PlanItem {
  tool: ActionTool;
  action: PlannedAction;
  /** True for the click that opens a new tab before a switch. */
  opensNewTab: boolean;
}

export function actionPlan(intent: Extract<RequestIntent, { kind: 'browser' }>): PlanItem[] {
  const items: PlanItem[] = [];
  for (const action of intent.actions) {
    if (action.kind === 'click') items.push({ tool: TOOL.click, action, opensNewTab: false });
    else if (action.kind === 'type') items.push({ tool: TOOL.type, action, opensNewTab: false });
    else if (action.kind === 'check') items.push({ tool: TOOL.click, action, opensNewTab: false });
    else if (action.kind === 'select') items.push({ tool: TOOL.select, action, opensNewTab: false });
    else if (action.kind === 'expand') items.push({ tool: TOOL.press, action, opensNewTab: false });
    else {
      if (action.openFirst) items.push({ tool: TOOL.click, action, opensNewTab: true });
      items.push({ tool: TOOL.switchTab, action, opensNewTab: false });
    }
  }
  return items;
}
