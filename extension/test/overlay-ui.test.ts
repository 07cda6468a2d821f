import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUiController, SERVER_ONGOING_ACTION } from '../content/ui-controller.ts';
import type { TabSession } from '../shared/internal-messages.ts';
import { TASK_ID } from './fakes/fake-services.ts';

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

ui.run();
