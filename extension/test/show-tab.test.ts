// "Show the tab" (issue 23): the only time the extension brings a tab forward, and only a tab of
// the named task.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { showTaskTab } from '../background/show-tab.ts';
import { createTaskTabs } from '../background/task-tabs.ts';
import { fakeBrowser } from './fakes/fake-browser.ts';

const TASK = '01JD0000000000000000000S23';
const frame = (tabId: number, extra: object = {}) => ({
  v: 1,
  type: 'show_tab',
  taskId: TASK,
  clientId: 'plugin-1',
  timestamp: 1,
  tabId,
  ...extra,
});

const test = suite('show the tab');

test("the task's tab is activated and its window focused", async () => {
  const browser = fakeBrowser();
  const tab = browser.addTab({ id: 7, active: false, windowId: 3 });
  const focused: unknown[] = [];
  (browser.windows as any).update = async (windowId: number, props: object) => (
    focused.push([windowId, props]),
    { id: windowId, focused: true, incognito: false }
  );
  const taskTabs = createTaskTabs(browser.storage.local);
  await taskTabs.put({ taskId: TASK, tabId: tab.id!, windowId: 3, tabs: [7], closedTabs: [] });
  assert.equal(await showTaskTab(browser, taskTabs, frame(7)), { ok: true, data: { tabId: 7 } });
  assert.ok(
    browser.calls.some((c) => c[0] === 'tabs.update' && c[1] === 7 && (c[2] as { active?: boolean }).active === true),
  );
  assert.equal(focused, [[3, { focused: true }]]);
});

test("a tab that is not the task's, or a malformed frame, is refused and nothing moves", async () => {
  const browser = fakeBrowser();
  browser.addTab({ id: 8, active: false, windowId: 1 });
  const taskTabs = createTaskTabs(browser.storage.local);
  await taskTabs.put({ taskId: TASK, tabId: 7, windowId: 1, tabs: [7], closedTabs: [] });
  const other = await showTaskTab(browser, taskTabs, frame(8));
  assert.is(!other.ok && other.error.code, 'INVALID_TASK_TAB');
  const bad = await showTaskTab(browser, taskTabs, { type: 'show_tab', tabId: 'x' });
  assert.is(!bad.ok && bad.error.code, 'SCHEMA_VALIDATION_FAILED');
  assert.not.ok(browser.calls.some((c) => c[0] === 'tabs.update'));
});

test.run();
