import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OverlayCommandSchema, TakeoverReportSchema, validate } from '../../transport/contracts/index.ts';
import { ACTION_NOTICE_DELAY_MS, createOverlayRelay, GUARD_DELIVERY_TIMEOUT_MS } from '../background/overlay-relay.ts';
import { createTaskTabs } from '../background/task-tabs.ts';
import type { TabSession } from '../shared/internal-messages.ts';
import { fakeBrowser, manualTimers } from './fakes/fake-browser.ts';
import { TASK_ID } from './fakes/fake-services.ts';

const relay = suite('overlay relay (background)');

/** A plugin_ui_state message from the server about the test task. */
function uiState(fields: { state: 'ongoing' | 'hidden'; message?: string }) {
  return { v: 1, type: 'plugin_ui_state', taskId: TASK_ID, clientId: 'plugin-1', timestamp: 1, ...fields } as const;
}

async function relaySetup() {
  const browser = fakeBrowser();
  const taskTabs = createTaskTabs(browser.storage.local);
  await taskTabs.put({ taskId: TASK_ID, tabId: 7, windowId: 1, tabs: [7], closedTabs: [] });
  const emitted: unknown[] = [];
  const timers = manualTimers();
  const overlay = createOverlayRelay({
    browser,
    taskTabs,
    timers,
    now: () => 9,
    clientId: () => 'plugin-1',
    emit: (m) => (emitted.push(m), true),
  });
  return { browser, overlay, emitted, timers };
}

relay('takeover and overlay commands go to the server as valid messages', async () => {
  const { overlay, emitted } = await relaySetup();
  await overlay.applyUiState(uiState({ state: 'ongoing' }));
  assert.ok(overlay.userTakeover(TASK_ID, 7, 'user_click'));
  assert.ok(overlay.overlayCommand(TASK_ID, 'resume'));
  assert.ok(validate(TakeoverReportSchema, emitted[0]).ok);
  assert.equal(emitted[0], {
    v: 1,
    type: 'takeover_report',
    taskId: TASK_ID,
    clientId: 'plugin-1',
    tabId: 7,
    reason: 'user_click',
    timestamp: 9,
  });
  assert.ok(validate(OverlayCommandSchema, emitted[1]).ok);
});

relay(
  'input on the tab of a task that is not running is no takeover; the content script is told the truth',
  async () => {
    const { browser, overlay, emitted } = await relaySetup();
    assert.not.ok(
      overlay.userTakeover(TASK_ID, 7, 'user_click'),
      'no state from the server and no action: not running',
    );
    await overlay.applyUiState(uiState({ state: 'hidden' }));
    assert.not.ok(overlay.userTakeover(TASK_ID, 7, 'user_key'), 'the turn ended: hidden');
    assert.equal(emitted, []);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sessions = browser.sentToTabs.filter((m) => (m.message as any).kind === 'session');
    assert.ok(sessions.length >= 1);
    assert.equal((sessions.at(-1)!.message as any).session.takeoverPending, false);
    // While an action runs on the tab, input is a takeover.
    await overlay.actionStarted(TASK_ID, 7, {
      actionId: 'a1',
      label: 'Clicking',
      dispatchesInput: false,
      capturesPage: false,
    });
    assert.ok(overlay.userTakeover(TASK_ID, 7, 'user_click'));
  },
);

relay(
  'an action a loading content script learned of is settled on the tab even when it ends before its notice',
  async () => {
    const { browser, overlay, timers } = await relaySetup();
    await overlay.actionStarted(TASK_ID, 7, {
      actionId: 'load',
      label: 'Waiting for the page to load',
      dispatchesInput: false,
      capturesPage: false,
    });
    assert.is((await overlay.sessionFor(7))?.action?.actionId, 'load', 'a new document asks mid-action');
    timers.advance(ACTION_NOTICE_DELAY_MS - 50);
    overlay.actionSettled(TASK_ID, 7, 'load');
    assert.equal(
      browser.sentToTabs.map((m) => [(m.message as any).kind, (m.message as any).actionId]),
      [['action_settled', 'load']],
    );
  },
);

/** The relay a restarted worker builds on the same browser storage. */
const restartedRelay = (browser: ReturnType<typeof fakeBrowser>) =>
  createOverlayRelay({
    browser,
    taskTabs: createTaskTabs(browser.storage.local),
    timers: manualTimers(),
    now: () => 9,
    clientId: () => 'plugin-1',
    emit: () => true,
  });

relay("the server's state survives a service-worker restart; a task's end forgets it", async () => {
  const { browser, overlay } = await relaySetup();
  await overlay.applyUiState(uiState({ state: 'ongoing', message: 'Reading' }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  // A new relay on the same browser storage: what a restarted worker builds.
  const again = restartedRelay(browser);
  assert.equal(await again.sessionFor(7), {
    taskId: TASK_ID,
    tabId: 7,
    takeoverPending: false,
    uiState: 'ongoing',
    message: 'Reading',
  });
  again.taskEnded(TASK_ID, [7]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  const third = restartedRelay(browser);
  assert.is((await third.sessionFor(7))?.uiState, undefined);
});

relay('a content script loading on the task tab gets the current picture; other tabs get null', async () => {
  const { overlay } = await relaySetup();
  await overlay.applyUiState(uiState({ state: 'ongoing', message: 'Reading' }));
  await overlay.actionStarted(TASK_ID, 7, {
    actionId: 'a1',
    label: 'Clicking',
    dispatchesInput: false,
    capturesPage: false,
  });
  overlay.userTakeover(TASK_ID, 7, 'user_key');
  assert.equal(await overlay.sessionFor(7), {
    taskId: TASK_ID,
    tabId: 7,
    takeoverPending: true,
    uiState: 'ongoing',
    message: 'Reading',
    action: { actionId: 'a1', label: 'Clicking', dispatchesInput: false, capturesPage: false },
  } satisfies TabSession);
  assert.is(await overlay.sessionFor(8), null);
  overlay.actionSettled(TASK_ID, 7, 'a1');
  assert.is((await overlay.sessionFor(7))?.action, undefined);
});

relay(
  'a screenshot while the overlay shows waits for the content script, but never longer than the bound',
  async () => {
    const { browser, overlay, timers } = await relaySetup();
    browser.tabMessageHandler = () => new Promise(() => {});
    await overlay.applyUiState(uiState({ state: 'ongoing' }));
    let done = false;
    const started = overlay
      .actionStarted(TASK_ID, 7, {
        actionId: 'a2',
        label: 'Taking a screenshot',
        dispatchesInput: false,
        capturesPage: true,
      })
      .then(() => (done = true));
    await Promise.resolve();
    assert.is(done, false);
    assert.equal(
      browser.sentToTabs.map((m) => (m.message as any).kind),
      ['ui_state', 'action_started'],
    );
    timers.advance(GUARD_DELIVERY_TIMEOUT_MS);
    await started;
    assert.is(done, true);
  },
);

relay('quick actions never bother the content script; slower ones are announced, then settled', async () => {
  const { browser, overlay, timers } = await relaySetup();
  await overlay.actionStarted(TASK_ID, 7, {
    actionId: 'quick',
    label: 'Clicking',
    dispatchesInput: true,
    capturesPage: false,
  });
  await overlay.actionStarted(TASK_ID, 7, {
    actionId: 'shot',
    label: 'Taking a screenshot',
    dispatchesInput: false,
    capturesPage: true,
  });
  timers.advance(ACTION_NOTICE_DELAY_MS - 1);
  overlay.actionSettled(TASK_ID, 7, 'quick');
  overlay.actionSettled(TASK_ID, 7, 'shot');
  assert.equal(
    browser.sentToTabs.map((m) => [(m.message as any).kind, (m.message as any).actionId]),
    [
      ['action_started', 'shot'],
      ['action_settled', 'quick'],
      ['action_settled', 'shot'],
    ],
    'the input action settles (ends the guard); a screenshot always has the overlay hidden first',
  );
  browser.sentToTabs.length = 0;
  await overlay.actionStarted(TASK_ID, 7, {
    actionId: 'slow',
    label: 'Waiting for the page to load',
    dispatchesInput: false,
    capturesPage: false,
  });
  timers.advance(ACTION_NOTICE_DELAY_MS);
  overlay.actionSettled(TASK_ID, 7, 'slow');
  assert.equal(
    browser.sentToTabs.map((m) => [(m.message as any).kind, (m.message as any).actionId]),
    [
      ['action_started', 'slow'],
      ['action_settled', 'slow'],
    ],
  );
  assert.is(timers.pending(), 0);
});

relay.run();
