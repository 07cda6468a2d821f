import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OverlayCommandSchema, TakeoverReportSchema, validate } from '../../transport/contracts/index.ts';
import { createMessageRouter } from '../background/message-router.ts';
import { ACTION_NOTICE_DELAY_MS, createOverlayRelay, GUARD_DELIVERY_TIMEOUT_MS } from '../background/overlay-relay.ts';
import { createTaskTabs } from '../background/task-tabs.ts';
import { watchUserInput } from '../content/input-watch.ts';
import {
  armOwnInput,
  OWN_INPUT_ARM_MS,
  OWN_INPUT_GRACE_MS,
  ownInputActive,
  settleOwnInput,
} from '../shared/own-input-guard.ts';
import { createUiController, SERVER_ONGOING_ACTION } from '../content/ui-controller.ts';
import type { TabSession } from '../shared/internal-messages.ts';
import { fakeBrowser, manualTimers } from './fakes/fake-browser.ts';
import { TASK_ID } from './fakes/fake-services.ts';

const relay = suite('overlay relay (background)');

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
  await overlay.applyUiState({
    v: 1,
    type: 'plugin_ui_state',
    taskId: TASK_ID,
    clientId: 'plugin-1',
    timestamp: 1,
    state: 'ongoing',
  });
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
    await overlay.applyUiState({
      v: 1,
      type: 'plugin_ui_state',
      taskId: TASK_ID,
      clientId: 'plugin-1',
      timestamp: 1,
      state: 'hidden',
    });
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

relay("the server's state survives a service-worker restart; a task's end forgets it", async () => {
  const { browser, overlay } = await relaySetup();
  await overlay.applyUiState({
    v: 1,
    type: 'plugin_ui_state',
    taskId: TASK_ID,
    clientId: 'plugin-1',
    timestamp: 1,
    state: 'ongoing',
    message: 'Reading',
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  // A new relay on the same browser storage: what a restarted worker builds.
  const again = createOverlayRelay({
    browser,
    taskTabs: createTaskTabs(browser.storage.local),
    timers: manualTimers(),
    now: () => 9,
    clientId: () => 'plugin-1',
    emit: () => true,
  });
  assert.equal(await again.sessionFor(7), {
    taskId: TASK_ID,
    tabId: 7,
    takeoverPending: false,
    uiState: 'ongoing',
    message: 'Reading',
  });
  again.taskEnded(TASK_ID, [7]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  const third = createOverlayRelay({
    browser,
    taskTabs: createTaskTabs(browser.storage.local),
    timers: manualTimers(),
    now: () => 9,
    clientId: () => 'plugin-1',
    emit: () => true,
  });
  assert.is((await third.sessionFor(7))?.uiState, undefined);
});

relay('a content script loading on the task tab gets the current picture; other tabs get null', async () => {
  const { overlay } = await relaySetup();
  await overlay.applyUiState({
    v: 1,
    type: 'plugin_ui_state',
    taskId: TASK_ID,
    clientId: 'plugin-1',
    timestamp: 1,
    state: 'ongoing',
    message: 'Reading',
  });
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
    await overlay.applyUiState({
      v: 1,
      type: 'plugin_ui_state',
      taskId: TASK_ID,
      clientId: 'plugin-1',
      timestamp: 1,
      state: 'ongoing',
    });
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

const router = suite('message router (sender allowlist)');

router('only this extension; content kinds from a top-level tab; options kinds from extension pages', async () => {
  const seen: string[] = [];
  const listener = createMessageRouter({
    extensionId: 'ext',
    extensionOrigin: 'chrome-extension://ext/',
    content: {
      content_hello: async (_m, sender) => (seen.push(`hello ${sender.tab.id}`), null),
      user_takeover: async () => null,
      overlay_command: async () => null,
      confirmation_answer: async () => null,
      client_info: async () => null,
      connect_browser: async () => null,
    },
    options: {
      get_status: async () => (seen.push('status'), null),
      pairing_question: async () => null,
      pairing_answer: async () => null,
    },
  });
  const tab = { id: 4, windowId: 1, index: 0, active: false, pinned: false, incognito: false };
  await listener({ kind: 'content_hello' }, { id: 'ext', tab, frameId: 0, url: 'https://a/' });
  assert.is(listener({ kind: 'content_hello' }, { id: 'other-ext', tab, frameId: 0 }), undefined);
  assert.is(listener({ kind: 'content_hello' }, { id: 'ext', tab, frameId: 3 }), undefined, 'subframes are not asked');
  assert.is(
    listener({ kind: 'get_status' }, { id: 'ext', tab, url: 'https://a/' }),
    undefined,
    'a page cannot ask for the status',
  );
  assert.is(listener({ kind: 'nope' }, { id: 'ext', tab }), undefined);
  await listener({ kind: 'get_status' }, { id: 'ext', url: 'chrome-extension://ext/options.html' });
  assert.is(listener({ kind: 'content_hello' }, { id: 'ext', url: 'chrome-extension://ext/options.html' }), undefined);
  assert.equal(seen, ['hello 4', 'status']);
});

const ui = suite('overlay UI controller (pluginUiMachine in the content script)');

function uiSetup(session: Partial<TabSession> = {}) {
  const renders: string[] = [];
  const reports: string[] = [];
  const controller = createUiController({
    session: { taskId: TASK_ID, tabId: 7, takeoverPending: false, ...session },
    render: (state, step) => renders.push(`${state}:${step}`),
    reportTakeover: (_task, reason) => reports.push(`takeover ${reason}`),
    reportCommand: (_task, command) => reports.push(command),
  });
  return { controller, renders, reports };
}

ui('server ongoing shows the mask; user input takes over once; Resume on the overlay reports resume', () => {
  const { controller, reports } = uiSetup();
  assert.is(controller.state(), 'idle');
  controller.handle({ kind: 'ui_state', taskId: TASK_ID, state: 'ongoing', message: 'Comparing prices' });
  assert.is(controller.state(), 'ongoing');
  controller.userInput('user_click');
  controller.userInput('user_key');
  assert.is(controller.state(), 'takeover');
  assert.equal(reports, ['takeover user_click']);
  controller.resume();
  assert.equal(reports, ['takeover user_click', 'resume']);
  assert.is(controller.state(), 'ongoing', 'the server still wants the AI on the tab');
});

ui('input while hidden or idle is not a takeover', () => {
  const { controller, reports } = uiSetup();
  controller.userInput('user_click');
  controller.handle({ kind: 'ui_state', taskId: TASK_ID, state: 'hidden' });
  controller.userInput('user_click');
  assert.is(controller.state(), 'hidden');
  assert.equal(reports, []);
});

ui('a resume decided elsewhere (server says hidden/ongoing) is applied without reporting it back', () => {
  const { controller, reports } = uiSetup();
  controller.handle({ kind: 'ui_state', taskId: TASK_ID, state: 'takeover' });
  assert.is(controller.state(), 'takeover');
  controller.handle({ kind: 'ui_state', taskId: TASK_ID, state: 'hidden' });
  assert.is(controller.state(), 'hidden');
  assert.equal(reports, []);
});

ui('actions show the mask with their label while they run; after them the server state holds', () => {
  const { controller, renders } = uiSetup();
  controller.handle({
    kind: 'action_started',
    taskId: TASK_ID,
    actionId: 'a1',
    label: 'Typing',
    dispatchesInput: true,
    capturesPage: false,
  });
  assert.is(controller.state(), 'ongoing');
  assert.is(renders.at(-1), 'ongoing:Typing');
  controller.handle({ kind: 'action_settled', taskId: TASK_ID, actionId: 'a1' });
  assert.is(controller.state(), 'hidden');
  controller.handle({ kind: 'ui_state', taskId: TASK_ID, state: 'ongoing' });
  controller.handle({
    kind: 'action_started',
    taskId: TASK_ID,
    actionId: 'a2',
    label: 'Clicking',
    dispatchesInput: true,
    capturesPage: false,
  });
  controller.handle({ kind: 'action_settled', taskId: TASK_ID, actionId: 'a2' });
  assert.is(controller.state(), 'ongoing', `back to the server's ${SERVER_ONGOING_ACTION}`);
  controller.handle({
    kind: 'action_started',
    taskId: 'another-task',
    actionId: 'x',
    label: 'x',
    dispatchesInput: false,
    capturesPage: false,
  });
  assert.is.not(renders.at(-1), 'ongoing:x', 'messages of another task are ignored');
});

ui(
  'sync with the background: a lost settle, an ended task, a lost server state; a takeover awaiting the server is kept',
  () => {
    // Restored mid-action after a navigation; the action's settle never reached this document.
    const lost = uiSetup({
      action: {
        actionId: 'wait-1',
        label: 'Waiting for the page to load',
        dispatchesInput: false,
        capturesPage: false,
      },
    });
    assert.is(lost.controller.state(), 'ongoing');
    lost.controller.sync({ taskId: TASK_ID, tabId: 7, takeoverPending: false });
    assert.is(lost.controller.state(), 'hidden', 'the background has no such action any more');
    assert.is(lost.renders.at(-1), 'hidden:Waiting for the page to load');
    // The server's state changed while its message was lost: the newer one is applied once.
    const late = uiSetup({ uiState: 'ongoing' });
    late.controller.sync({ taskId: TASK_ID, tabId: 7, takeoverPending: false, uiState: 'hidden' });
    assert.is(late.controller.state(), 'hidden');
    // A late settle after that does not re-arm the server's "ongoing".
    late.controller.handle({
      kind: 'action_started',
      taskId: TASK_ID,
      actionId: 'a9',
      label: 'Clicking',
      dispatchesInput: true,
      capturesPage: false,
    });
    late.controller.handle({ kind: 'action_settled', taskId: TASK_ID, actionId: 'a9' });
    assert.is(late.controller.state(), 'hidden');
    // The worker restarted and lost the server's state: nothing is shown that it cannot vouch for.
    const restarted = uiSetup({ uiState: 'ongoing' });
    restarted.controller.sync({ taskId: TASK_ID, tabId: 7, takeoverPending: false });
    assert.is(restarted.controller.state(), 'hidden');
    // The task is gone.
    const ended = uiSetup({ uiState: 'ongoing' });
    ended.controller.sync(null);
    assert.is(ended.controller.state(), 'idle');
    // The user took over and the server has not answered: the takeover stays.
    const pending = uiSetup({ uiState: 'ongoing' });
    pending.controller.userInput('user_click');
    pending.controller.sync({ taskId: TASK_ID, tabId: 7, takeoverPending: true, uiState: 'ongoing' });
    assert.is(pending.controller.state(), 'takeover');
    assert.equal(pending.reports, ['takeover user_click']);
  },
);

ui('Stop ends the task; the end of the task clears the overlay', () => {
  const { controller, reports } = uiSetup({ uiState: 'takeover' });
  assert.is(controller.state(), 'takeover', 'restored from the session');
  controller.stop();
  assert.equal(reports, ['stop']);
  assert.is(controller.state(), 'idle');
  const other = uiSetup({ uiState: 'ongoing', takeoverPending: true });
  assert.is(other.controller.state(), 'takeover', 'a takeover not yet confirmed survives a reload');
  other.controller.handle({ kind: 'task_ended', taskId: TASK_ID });
  assert.is(other.controller.state(), 'idle');
});

const watch = suite('user input watch (content script)');

function fakeWindow() {
  const listeners = new Map<string, (event: any) => void>();
  return {
    listeners,
    addEventListener: (type: string, listener: (event: any) => void) => void listeners.set(type, listener),
    removeEventListener: (type: string) => void listeners.delete(type),
    dispatch(type: string, init: Record<string, unknown> = {}) {
      listeners.get(type)?.({ type, isTrusted: true, ...init });
    },
  };
}

watch('trusted mouse and keyboard input is user input; synthetic events and the overlay are not', () => {
  const win = fakeWindow();
  const seen: string[] = [];
  const stop = watchUserInput({
    window: win as unknown as Window,
    isOverlayEvent: (e) => (e as any).fromOverlay === true,
    ownInputActive: () => false,
    onUserInput: (k) => seen.push(k),
  });
  win.dispatch('mousedown');
  win.dispatch('keydown');
  win.dispatch('touchstart');
  win.dispatch('mousedown', { isTrusted: false });
  win.dispatch('pointerdown', { fromOverlay: true });
  win.dispatch('mousemove');
  assert.equal(seen, ['user_click', 'user_key', 'user_touch']);
  stop();
  assert.is(win.listeners.size, 0);
});

watch("the extension's own input (guard armed by the page agent) is ignored until shortly after it settles", () => {
  const win = fakeWindow();
  const seen: string[] = [];
  const host: Record<string, unknown> = {};
  let now = 1_000;
  watchUserInput({
    window: win as unknown as Window,
    isOverlayEvent: () => false,
    ownInputActive: () => ownInputActive(host, now),
    onUserInput: (k) => seen.push(k),
  });
  armOwnInput(host, now);
  win.dispatch('pointerdown');
  now += 50;
  settleOwnInput(host, now);
  win.dispatch('mousedown');
  now += OWN_INPUT_GRACE_MS - 1;
  win.dispatch('mousedown');
  assert.equal(seen, []);
  now += 1;
  win.dispatch('mousedown');
  assert.equal(seen, ['user_click']);
});

watch('an armed guard expires by itself if the settle message never comes', () => {
  const host: Record<string, unknown> = {};
  armOwnInput(host, 0);
  assert.ok(ownInputActive(host, OWN_INPUT_ARM_MS - 1));
  assert.not.ok(ownInputActive(host, OWN_INPUT_ARM_MS));
  settleOwnInput(host, OWN_INPUT_ARM_MS + 10);
  assert.not.ok(ownInputActive(host, OWN_INPUT_ARM_MS + 10), 'settling an expired guard does not re-arm it');
});

relay.run();
router.run();
ui.run();
watch.run();
