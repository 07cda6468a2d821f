import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ActionFailure } from '../background/action-failure.ts';
import { createElementRefs } from '../background/element-refs.ts';
import { requireTaskTab } from '../background/tab-guard.ts';
import { createTaskTabs, TASK_TABS_KEY } from '../background/task-tabs.ts';
import { fakeBrowser, fakeStorage } from './fakes/fake-browser.ts';
import { TASK_ID, testServices, withTaskTab } from './fakes/fake-services.ts';

const tabs = suite('task tabs');

tabs('persists the mapping so a restarted worker still knows its task tabs', async () => {
  const storage = fakeStorage();
  await createTaskTabs(storage).put({ taskId: 'T1', tabId: 5, windowId: 1, groupId: 9, tabs: [], closedTabs: [] });
  const restarted = createTaskTabs(storage);
  assert.equal(await restarted.get('T1'), {
    taskId: 'T1',
    tabId: 5,
    windowId: 1,
    groupId: 9,
    tabs: [5],
    closedTabs: [],
  });
  assert.is((await restarted.taskOfTab(5))?.taskId, 'T1');
  assert.is(await restarted.taskOfTab(6), undefined);
});

tabs('a removed tab leaves the live tabs and is remembered as closed', async () => {
  const storage = fakeStorage();
  const taskTabs = createTaskTabs(storage);
  await taskTabs.put({ taskId: 'T1', tabId: 5, windowId: 1, tabs: [5, 6], closedTabs: [] });
  await taskTabs.tabRemoved(6);
  assert.equal((await taskTabs.get('T1'))?.tabs, [5]);
  assert.equal((await taskTabs.get('T1'))?.closedTabs, [6]);
  assert.is(await taskTabs.tabRemoved(77), undefined, 'unrelated tabs are ignored');
  assert.equal((storage.data[TASK_TABS_KEY] as any).T1.closedTabs, [6]);
});

tabs('tabs opened from a task tab or inside its group become task tabs; others do not', async () => {
  const taskTabs = createTaskTabs(fakeStorage());
  await taskTabs.put({ taskId: 'T1', tabId: 5, windowId: 1, groupId: 9, tabs: [5], closedTabs: [] });
  assert.is((await taskTabs.adoptOpenedTab({ id: 6, openerTabId: 5 }))?.taskId, 'T1');
  assert.is((await taskTabs.adoptOpenedTab({ id: 7, openerTabId: 1, groupId: 9 }))?.taskId, 'T1');
  assert.is(await taskTabs.adoptOpenedTab({ id: 8, openerTabId: 1, groupId: -1 }), undefined);
  assert.is(await taskTabs.adoptOpenedTab({ id: 6, openerTabId: 5 }), undefined, 'adopted once');
  assert.equal((await taskTabs.get('T1'))?.tabs, [5, 6, 7]);
});

const refs = suite('element refs (dom_index generations)');

refs('ids continue across generations; an older id is stale, a future one not found', async () => {
  const r = createElementRefs(fakeStorage());
  assert.equal(await r.check(3, 1), {
    ok: false,
    reason: 'no_index',
    message: 'tab 3 has not been indexed; call browser_dom_index first',
  });
  assert.is(await r.nextFirstId(3), 1);
  await r.record(3, { docToken: 'd1', attr: 'data-mimo_click_id', firstId: 1, lastId: 10 });
  assert.is(await r.nextFirstId(3), 11);
  assert.is((await r.check(3, 10)).ok, true);
  await r.record(3, { docToken: 'd1', attr: 'data-mimo_click_id', firstId: 11, lastId: 15 });
  const stale = await r.check(3, 4);
  assert.is(stale.ok ? 'ok' : stale.reason, 'stale');
  const future = await r.check(3, 16);
  assert.is(future.ok ? 'ok' : future.reason, 'not_found');
  assert.is(await r.nextFirstId(4), 1, 'per tab');
});

refs('forget drops the generation but keeps ids unique; state survives a restart', async () => {
  const storage = fakeStorage();
  const r = createElementRefs(storage);
  await r.record(3, { docToken: 'd1', attr: 'a', firstId: 1, lastId: 4 });
  await r.forget(3);
  assert.is(await r.current(3), null);
  assert.is(await r.nextFirstId(3), 5);
  await r.record(3, { docToken: 'd2', attr: 'a', firstId: 5, lastId: 6 });
  const restarted = createElementRefs(storage);
  assert.equal(await restarted.current(3), { docToken: 'd2', attr: 'a', firstId: 5, lastId: 6 });
});

const guard = suite('tab guard (seed 000 §4.3, §4.7)');

async function failure(promise: Promise<unknown>): Promise<ActionFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(error, ActionFailure);
  return error as ActionFailure;
}

guard('no task tab, another tab, a closed tab, the web UI', async () => {
  const services = testServices(fakeBrowser());
  const none = await failure(requireTaskTab(services, TASK_ID, 7));
  assert.is(none.error.code, 'INVALID_TASK_TAB');
  assert.is(none.error.details?.reason, 'no_task_tab');
  assert.is(none.error.retryable, false);

  const tabId = await withTaskTab(services, 7);
  services.browser.addTab({ id: 8, url: 'https://other.example/' });
  const other = await failure(requireTaskTab(services, TASK_ID, 8));
  assert.is(other.error.code, 'INVALID_TASK_TAB');
  assert.match(other.error.message, 'task tab is 7');

  assert.is((await requireTaskTab(services, TASK_ID, tabId)).tab.id, 7);

  services.browser.tabsById.get(7)!.url = 'http://localhost:3000/tasks/1';
  const webUi = await failure(requireTaskTab(services, TASK_ID, tabId));
  assert.is(webUi.error.details?.reason, 'web_ui_tab');

  services.browser.tabsById.delete(7);
  const closed = await failure(requireTaskTab(services, TASK_ID, tabId));
  assert.is(closed.error.code, 'TASK_TAB_CLOSED');
  assert.equal((await services.taskTabs.get(TASK_ID))?.closedTabs, [7]);
  const again = await failure(requireTaskTab(services, TASK_ID, tabId));
  assert.is(again.error.code, 'TASK_TAB_CLOSED');
});

guard('an earlier task tab the user closed is TASK_TAB_CLOSED, not INVALID_TASK_TAB', async () => {
  const services = testServices(fakeBrowser());
  await withTaskTab(services, 9);
  await services.taskTabs.put({ taskId: TASK_ID, tabId: 9, windowId: 1, tabs: [9], closedTabs: [4] });
  assert.is((await failure(requireTaskTab(services, TASK_ID, 4))).error.code, 'TASK_TAB_CLOSED');
});

tabs.run();
refs.run();
guard.run();
