// Issue 23 item 5, on fakes: an idle task detaches the debugger (Chrome's "started debugging" bar
// goes) and later collapses its tab group; the next action attaches again and re-opens the group
// Mimo collapsed. Time is the manual timers'.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ActionHandlers } from '../background/action-context.ts';
import { createCdpSessions } from '../background/cdp-sessions.ts';
import { createTaskIdle, DEBUGGER_IDLE_MS, GROUP_COLLAPSE_MS, withTaskIdle } from '../background/task-idle.ts';
import { createTaskTabs } from '../background/task-tabs.ts';
import { fakeBrowser, manualTimers } from './fakes/fake-browser.ts';

async function rig(options: { streaming?: Set<number>; active?: boolean } = {}) {
  const browser = fakeBrowser();
  const timers = manualTimers();
  const cdp = createCdpSessions({ browser, timers, enabled: () => true });
  const taskTabs = createTaskTabs(browser.storage.local);
  browser.addTab({ id: 5, active: options.active ?? false });
  browser.addTab({ id: 6 });
  const groupId = await browser.tabs.group({ tabIds: [5, 6] });
  await taskTabs.put({ taskId: 'T1', tabId: 5, windowId: 1, groupId, tabs: [5, 6], closedTabs: [] });
  const streaming = options.streaming ?? new Set<number>();
  const idle = createTaskIdle({ browser, cdp, taskTabs, timers, inUse: (tabId) => streaming.has(tabId) });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  /** Moves the manual clock and lets the timers' async work finish. */
  const advance = async (ms: number) => {
    timers.advance(ms);
    for (let i = 0; i < 5; i++) await settle();
  };
  const detaches = () => browser.calls.filter(([name]) => name === 'debugger.detach').map(([, tabId]) => tabId);
  const groupUpdates = () => browser.calls.filter(([name]) => name === 'tabGroups.update').map(([, , props]) => props);
  return { browser, timers, cdp, taskTabs, idle, groupId, streaming, advance, detaches, groupUpdates };
}

const s = suite('task idle: debugger and tab group');

s('the debugger detaches from every task tab DEBUGGER_IDLE_MS after the last action, not before', async () => {
  const r = await rig();
  await r.cdp.attach(5);
  await r.cdp.attach(6);
  r.idle.actionStarted('T1');
  await r.advance(DEBUGGER_IDLE_MS * 3);
  assert.equal(r.detaches(), [], 'nothing while an action runs');
  r.idle.actionEnded('T1');
  await r.advance(DEBUGGER_IDLE_MS - 1);
  assert.equal(r.detaches(), []);
  await r.advance(1);
  assert.equal(r.detaches().sort(), [5, 6]);
  assert.not.ok(r.cdp.isAttached(5) || r.cdp.isAttached(6));
});

s('a new action before the deadline keeps it; the next action after a detach attaches again', async () => {
  const r = await rig();
  await r.cdp.attach(5);
  r.idle.actionEnded('T1'); // unknown to the idle tracker: ignored
  r.idle.actionStarted('T1');
  r.idle.actionEnded('T1');
  await r.advance(DEBUGGER_IDLE_MS - 10);
  r.idle.actionStarted('T1');
  await r.advance(DEBUGGER_IDLE_MS);
  assert.equal(r.detaches(), []);
  r.idle.actionEnded('T1');
  await r.advance(DEBUGGER_IDLE_MS);
  assert.equal(r.detaches(), [5]);
  await r.cdp.send(5, 'Page.getLayoutMetrics');
  assert.ok(r.cdp.isAttached(5), 'attached again on use');
});

s('a task that ended (plugin_ui_state idle) lets go at once; not while an action still runs', async () => {
  const r = await rig();
  await r.cdp.attach(5);
  r.idle.actionStarted('T1');
  r.idle.taskEnded('T1');
  await r.advance(0);
  assert.equal(r.detaches(), [], 'an action is running');
  r.idle.actionEnded('T1');
  r.idle.taskEnded('T1');
  await r.advance(0);
  assert.equal(r.detaches(), [5]);
  r.idle.taskEnded('never-acted');
  await r.advance(GROUP_COLLAPSE_MS);
  assert.equal(r.groupUpdates(), [{ collapsed: true }], 'the group still collapses on time');
});

s('a tab the live view streams keeps its debugger until the stream ends', async () => {
  const r = await rig({ streaming: new Set([5]) });
  await r.cdp.attach(5);
  r.idle.actionStarted('T1');
  r.idle.actionEnded('T1');
  await r.advance(DEBUGGER_IDLE_MS * 2);
  assert.equal(r.detaches(), []);
  r.streaming.clear();
  await r.advance(DEBUGGER_IDLE_MS);
  assert.equal(r.detaches(), [5]);
});

s('the group collapses GROUP_COLLAPSE_MS after the last action and opens again when the task acts', async () => {
  const r = await rig();
  r.idle.actionStarted('T1');
  r.idle.actionEnded('T1');
  await r.advance(GROUP_COLLAPSE_MS - 1);
  assert.equal(r.groupUpdates(), []);
  await r.advance(1);
  assert.equal(r.groupUpdates(), [{ collapsed: true }]);
  assert.is(r.browser.groups.get(r.groupId)!.collapsed, true);
  r.idle.actionStarted('T1');
  for (let i = 0; i < 5; i++) await new Promise((res) => setTimeout(res, 0));
  assert.equal(r.groupUpdates(), [{ collapsed: true }, { collapsed: false }]);
});

s('a group holding the tab the person is looking at stays open', async () => {
  const r = await rig({ active: true });
  r.idle.actionStarted('T1');
  r.idle.actionEnded('T1');
  await r.advance(GROUP_COLLAPSE_MS);
  assert.equal(r.groupUpdates(), []);
  // Nothing Mimo collapsed: the next action does not touch the group either.
  r.idle.actionStarted('T1');
  assert.equal(r.groupUpdates(), []);
});

s("a restarted worker detaches a previous life's session once idle; an action first cancels that", async () => {
  const r = await rig();
  const forced: number[] = [];
  const idle = createTaskIdle({
    browser: r.browser,
    cdp: r.cdp,
    taskTabs: r.taskTabs,
    timers: r.timers,
    forceDetach: async (tabId) => void forced.push(tabId),
  });
  idle.sweep(['T1', 'unknown-task']);
  await r.advance(DEBUGGER_IDLE_MS);
  assert.equal(forced.sort(), [5, 6]);
  const again = createTaskIdle({
    browser: r.browser,
    cdp: r.cdp,
    taskTabs: r.taskTabs,
    timers: r.timers,
    forceDetach: async (tabId) => void forced.push(tabId),
  });
  forced.length = 0;
  again.sweep(['T1']);
  again.actionStarted('T1');
  again.actionEnded('T1');
  await r.advance(DEBUGGER_IDLE_MS);
  assert.equal(forced, [], 'after an action of this life only its own sessions are detached');
});

s('withTaskIdle counts every action, failures included', async () => {
  const seen: string[] = [];
  const idle = {
    actionStarted: (t: string) => void seen.push(`start ${t}`),
    actionEnded: (t: string) => void seen.push(`end ${t}`),
    sweep: () => {},
    taskEnded: () => {},
  };
  const handlers = withTaskIdle(
    {
      browser_click: async () => {
        throw new Error('boom');
      },
    } as unknown as ActionHandlers,
    idle,
  );
  const failed = await (handlers as any).browser_click({}, { taskId: 'T9' }).catch((e: Error) => e.message);
  assert.is(failed, 'boom');
  assert.equal(seen, ['start T9', 'end T9']);
});

s.run();
