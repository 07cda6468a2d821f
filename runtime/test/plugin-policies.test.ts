// The fault table of issue 14, re-run with the fake plugin on the real socket.io-client and the
// runtime on SimulatedClock: each row now behaves as seed 001 §4.1 / §3.5 says (timeouts, retries,
// follow-ups; selection, acks and traces are in plugin-selection.test.ts).
import * as assert from 'uvu/assert';
import { startFakePlugin } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, settle, startRuntime } from './util.ts';
import {
  page,
  policySuite,
  runtimeWith,
  statusSeen,
  TASK,
  userMessage,
  names,
  whenLast,
} from './plugin-policies-harness.ts';
import { actionStateOf } from '../../machines/index.ts';

const test = policySuite('seed 001 §4.1 plugin policies (fault table)');

test('PLUGIN_TIMEOUT_ACK: nothing more goes to that plugin in the turn; the user is told to reconnect or reselect; the task stays usable', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
    () => say('never asked'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params, frame) =>
      name === 'browser_wait_for_loaded' ? { ack: false, result: null } : page(name, params, frame),
  });
  ctx.closers.push(() => plugin.close());
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the form'));
  await whenLast(rt, plugin, 'browser_wait_for_loaded', 'awaitingAck');
  rt.clock.increment(1_500); // T_ack: the plugin is unavailable, not even an idempotent read is resent (001 §4.1)
  await eventually(statusSeen(web, 'error'), 10_000, 'turn ended on the failure');
  rt.clock.increment(1_000);
  await settle();
  assert.equal(
    names(plugin),
    ['task_start', 'browser_debugger_attach', 'browser_wait_for_loaded'],
    'no resend, no screenshot, readability or dom index after the missed ack',
  );
  const told = web.events.find((e) => e.event.type === 'structuredOutput' && e.event.status === 'error')?.event;
  assert.is(told?.error.code, 'PLUGIN_TIMEOUT_ACK');
  assert.match(told?.error.message, /reconnect it .* or select another extension/);
  assert.is(llm.calls.length, 1, 'the turn stopped: no further LLM step');
});

test('two exec timeouts in a row: the plugin is unhealthy, what it had in flight or queued fails at once, it gets no work until it reconnects', async (ctx) => {
  const rt = (ctx.rt = await startRuntime());
  let answering = false;
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params, frame) => (answering ? page(name, params, frame) : { result: null }),
  });
  ctx.closers.push(() => plugin.close());
  const other = '01JD0000000000000000000P02';
  const run = (taskId: string, clickId: number, execTimeoutMs?: number) =>
    rt.server.tasks.run({
      taskId,
      clientId: 'plugin-a',
      actionName: 'browser_click',
      params: { tabId: 1, clickId },
      ...(execTimeoutMs ? { execTimeoutMs } : {}),
    });
  const first = run(TASK, 1);
  const queuedBehind = run(TASK, 2);
  // In flight on the same plugin, another task; it times out first, so the second timeout in a
  // row is the one the queued action waits behind (a task starts its next action as soon as the
  // previous one settles).
  const otherTask = run(other, 9, 4_000);
  await eventually(() => plugin.received.length === 2, 10_000, 'two in flight');
  for (const f of plugin.received)
    await eventually(
      () => {
        const actor = rt.server.scheduler.actorOf(f.id);
        return actor !== undefined && actionStateOf(actor.getSnapshot()) === 'executing';
      },
      10_000,
      'acked',
    );
  rt.clock.increment(4_000); // the other task's action times out: one
  rt.clock.increment(1_000); // T_exec of browser_click: the first times out -> two in a row
  const [a, c] = await Promise.all([first, otherTask]);
  assert.equal([a.error?.code, c.error?.code], ['PLUGIN_TIMEOUT_EXEC', 'PLUGIN_TIMEOUT_EXEC']);
  const b = await queuedBehind;
  assert.is(b.error?.code, 'PLUGIN_OFFLINE', 'the queued action was refused, not sent');
  assert.match(b.error!.message, /reconnect/);
  assert.is(plugin.received.length, 2, 'nothing more was dispatched');
  const list = (await (await fetch(`${rt.server.url}/api/extension/extension-list`)).json()).data;
  assert.is(list[0].health, 'unhealthy');
  const refused = await run(TASK, 3);
  assert.is(refused.error?.code, 'PLUGIN_OFFLINE');
  assert.is(plugin.received.length, 2);
  plugin.close();
  await eventually(() => !rt.server.registry.isOnline('plugin-a'), 10_000, 'offline');
  answering = true;
  const back = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: page });
  ctx.closers.push(() => back.close());
  const after = await run(TASK, 4);
  assert.is(after.status, 'succeeded', 'a reconnected plugin gets work again');
});

test('a page-prep retry after an error result is a new action (new actionId: the plugin answers a repeated one from its dedupe cache)', async (ctx) => {
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }), () => say('Done.')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  let shots = 0;
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params, frame) =>
      name === 'browser_screenshot' && ++shots === 1
        ? { result: { status: 'error', error: { code: 'CDP_UNAVAILABLE', message: 'renderer busy', retryable: true } } }
        : page(name, params, frame),
  });
  ctx.closers.push(() => plugin.close());
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the form'));
  await eventually(
    () =>
      shots === 1 &&
      web.events.some(
        (e) => e.event.type === 'toolUsed' && e.event.actionName === 'browser_screenshot' && e.event.phase === 'error',
      ),
    10_000,
    'first capture failed',
  );
  await eventually(
    () =>
      names(plugin).includes('browser_readability_extract') &&
      web.events.some(
        (e) =>
          e.event.type === 'toolUsed' &&
          e.event.actionName === 'browser_readability_extract' &&
          e.event.phase !== 'start',
      ),
    10_000,
    'readability done',
  );
  rt.clock.increment(500); // the page-prep backoff (000 §4.5)
  await eventually(statusSeen(web, 'ongoing'), 10_000, 'turn');
  const screenshots = plugin.received.filter((f) => 'browser_screenshot' in f.action);
  assert.is(screenshots.length, 2);
  assert.is.not(screenshots[0]!.id, screenshots[1]!.id, 'a new actionId after an error result');
});

test('a follow-up message on a completed task is a transition of the same actor: no second `created`', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([() => say('one'), () => say('two')])));
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('first'));
  await eventually(statusSeen(web, 'ongoing'), 10_000, 'turn');
  await web
    .timeout(5_000)
    .emitWithAck('frontend_message', { v: 1, type: 'stop_task', id: 'evt-stop', timestamp: Date.now(), taskId: TASK });
  await eventually(statusSeen(web, 'completed'), 10_000, 'completed');
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('second'));
  await eventually(
    () => web.events.filter((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing').length === 2,
    10_000,
    'second turn',
  );
  const statuses = web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
  assert.equal(statuses, ['created', 'running', 'ongoing', 'completed', 'running', 'ongoing']);
});

test.run();
