// page_interruption (issue 16): the plugin reports what a page in a task tab did (a dialog
// answered, a pop-up kept in the background, ...); the server relays it to the task's events as
// an info structuredOutput with the report as data, and keeps it in the task's history. A report
// for a task this plugin does not serve, or one that breaks the contract, changes nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { startFakePlugin, okAnswer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000C01';
const OTHER = '01JD0000000000000000000C02';
const test = suite<{ rt?: TestRuntime }>('page interruptions relayed to the task', {});

test.after.each(async (ctx) => {
  await ctx.rt?.close();
  ctx.rt = undefined;
});

const report = (taskId: string, extra: Record<string, unknown> = {}) => ({
  v: 1,
  type: 'page_interruption',
  taskId,
  clientId: 'plugin-a',
  timestamp: Date.now(),
  tabId: 7,
  kind: 'dialog',
  message:
    'the page showed a confirm dialog "Leave this page?"; Mimo dismissed it (confirm dialogs are dismissed by default)',
  dialog: { dialogType: 'confirm', text: 'Leave this page?', accepted: false },
  ...extra,
});

test('a dialog report reaches the task events and the task history; foreign and malformed reports do not', async (ctx) => {
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }), () => say('Opened.')]);
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  const rt = (ctx.rt = await startRuntime({
    ackTimeoutMs: 500,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) => createAgentOrchestrator(services, { llm, inspection, pagePrepBackoffMs: [20] }),
  }));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: okAnswer });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-1',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'open the form',
  });
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'turn finished',
  );

  const accepted = await plugin.send(report(TASK));
  assert.is(accepted.ok, true);
  await eventually(
    () => web.events.some((e) => e.event.type === 'structuredOutput' && e.event.data?.pageInterruption),
    2_000,
    'relayed',
  );
  const relayed = web.events.find((e) => e.event.type === 'structuredOutput' && e.event.data?.pageInterruption)!;
  assert.is(relayed.taskId, TASK);
  assert.is(relayed.event.status, 'info');
  assert.match(
    relayed.event.message,
    /In tab 7: the page showed a confirm dialog "Leave this page\?"; Mimo dismissed it/,
  );
  assert.equal(relayed.event.data.pageInterruption.dialog, {
    dialogType: 'confirm',
    text: 'Leave this page?',
    accepted: false,
  });
  const history = await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json();
  assert.ok(
    history.data.messages.some((m: any) => m.role === 'system' && m.content.includes('Leave this page?')),
    'kept in the task history',
  );

  const count = () =>
    web.events.filter((e) => e.event.type === 'structuredOutput' && e.event.data?.pageInterruption).length;
  const foreign = await plugin.send(report(OTHER));
  assert.is(foreign.ok, false, 'refused: this plugin does not serve that task');
  assert.is(foreign.error.code, 'INVALID_TASK_TAB');
  const bad = await plugin.send(report(TASK, { kind: 'telepathy' }));
  assert.is(bad.ok, false);
  assert.is(bad.error.code, 'SCHEMA_VALIDATION_FAILED');
  const empty = await plugin.send(report(TASK, { message: '' }));
  assert.is(empty.ok, false);
  // A last valid report is relayed after the refused ones (one socket, in order): once it is
  // here, anything the refused reports had produced would be here too.
  const last = await plugin.send(
    report(TASK, {
      message: 'the page asked for notifications; Mimo denied it',
      kind: 'permission',
      dialog: undefined,
    }),
  );
  assert.is(last.ok, true);
  await eventually(() => count() === 2, 2_000, 'the last valid report relayed');
  const relayedMessages = web.events
    .filter((e) => e.event.type === 'structuredOutput' && e.event.data?.pageInterruption)
    .map((e) => e.event.message);
  assert.is(relayedMessages.length, 2, 'only the valid reports for a served task were relayed');
  assert.ok(relayedMessages.every((m: string) => !m.includes('telepathy')));
  web.close();
  plugin.close();
});

test.run();
