// The action catalog (seed 000 §4.2 + browser_switch_tab of seed 002): one handler per action
// name, looked up by name instead of a switch. Input actions report their target's states after
// they ran (target-states.ts).
import type { ActionName } from '../../transport/contracts/index.ts';
import type { ActionHandlers } from './action-context.ts';
import { check } from './handlers/check.ts';
import { click } from './handlers/click.ts';
import { dblclick } from './handlers/dblclick.ts';
import { focus } from './handlers/focus.ts';
import { hover } from './handlers/hover.ts';
import { press } from './handlers/press.ts';
import { select } from './handlers/select.ts';
import { debuggerAttach } from './handlers/debugger-attach.ts';
import { domIndex } from './handlers/dom-index.ts';
import { getHtml } from './handlers/get-html.ts';
import { readabilityExtract } from './handlers/readability.ts';
import { screenshot } from './handlers/screenshot.ts';
import { switchTab } from './handlers/switch-tab.ts';
import { taskStart } from './handlers/task-start.ts';
import { taskStop } from './handlers/task-stop.ts';
import { typeText } from './handlers/type-text.ts';
import { waitForLoaded } from './handlers/wait-for-loaded.ts';
import { xpathScan } from './handlers/xpath-scan.ts';
import { reportingTargetStates } from './target-states.ts';

export const actionHandlers: ActionHandlers = {
  task_start: taskStart,
  browser_debugger_attach: debuggerAttach,
  task_stop: taskStop,
  browser_wait_for_loaded: waitForLoaded,
  browser_screenshot: screenshot,
  browser_readability_extract: readabilityExtract,
  browser_dom_index: domIndex,
  browser_xpath_scan: xpathScan,
  browser_click: reportingTargetStates(click),
  browser_type: reportingTargetStates(typeText),
  browser_get_html: getHtml,
  browser_switch_tab: switchTab,
  browser_select: reportingTargetStates(select),
  browser_check: reportingTargetStates(check),
  browser_hover: reportingTargetStates(hover),
  browser_dblclick: reportingTargetStates(dblclick),
  browser_focus: reportingTargetStates(focus),
  browser_press: reportingTargetStates(press),
};

/** The overlay's step line while an action runs on the task tab. */
export const actionLabels: Record<ActionName, string> = {
  task_start: 'Opening the page',
  browser_debugger_attach: 'Connecting to the tab',
  task_stop: 'Finishing',
  browser_wait_for_loaded: 'Waiting for the page to load',
  browser_screenshot: 'Taking a screenshot',
  browser_readability_extract: 'Reading the page',
  browser_dom_index: 'Looking at the page',
  browser_xpath_scan: 'Scanning the page',
  browser_click: 'Clicking',
  browser_type: 'Typing',
  browser_get_html: 'Copying the page',
  browser_switch_tab: 'Switching tabs',
  browser_select: 'Choosing an option',
  browser_check: 'Ticking a box',
  browser_hover: 'Pointing',
  browser_dblclick: 'Double-clicking',
  browser_focus: 'Focusing a field',
  browser_press: 'Pressing a key',
};

/** Actions whose CDP input the content script must not mistake for the user's. */
export const inputActions: ReadonlySet<ActionName> = new Set<ActionName>([
  'browser_click',
  'browser_type',
  'browser_check',
  'browser_hover',
  'browser_dblclick',
  'browser_press',
]);
