// The tool calls a request needs, in order, derived from its intent alone, so that each step of
// the conversation can be paired with the action it carried out (the planner keeps no state).
import type { PlannedAction, RequestIntent } from './request-intent.ts';

export const TOOL = {
  open: 'browser_open',
  read: 'browser_read_page',
  click: 'browser_click',
  type: 'browser_type',
  switchTab: 'browser_switch_tab',
} as const;

export type ActionTool = typeof TOOL.click | typeof TOOL.type | typeof TOOL.switchTab;
export const ACTION_TOOLS: ReadonlySet<string> = new Set([TOOL.click, TOOL.type, TOOL.switchTab]);

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
    else {
      if (action.openFirst) items.push({ tool: TOOL.click, action, opensNewTab: true });
      items.push({ tool: TOOL.switchTab, action, opensNewTab: false });
    }
  }
  return items;
}
