// The fault table of issue 14, re-run with the fake plugin on the real socket.io-client and the
// runtime on SimulatedClock: each row now behaves as seed 001 §4.1 / §3.5 says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { okAnswer, startFakePlugin, type Answerer, type FakePlugin } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, settle, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000P01';
const test = suite<{ rt?: TestRuntime; dir?: string; closers: Array<() => void> }>(
  'seed 001 §4.1 plugin policies (fault table)',
  { closers: [] },
);
test.after.each(async (ctx) => {
  for (const close of ctx.closers.splice(0)) close();
  await ctx.rt?.close();
  ctx.rt = undefined;
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
  ctx.dir = undefined;
});

const page: Answerer = (name, params) => {
  if (name === 'browser_readability_extract')
    return { result: { status: 'success', result: { title: 'Form', text: 'A form.' } } };
  if (name === 'browser_screenshot')
    return {
      result: {
        status: 'success',
        result: { artifactId: 'art-abcdefghijklmnop', url: 'http://x/a', width: 1, height: 1 },
      },
    };
  if (name === 'browser_dom_index')
    return { result: { status: 'success', result: { elements: [{ clickId: 1, tag: 'button', text: 'Go' }] } } };
  return okAnswer(name, params);
};

function runtimeWith(llm: LlmGateway, extra: Parameters<typeof startRuntime>[0] = {}) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({ ...extra, control: (services) => createAgentOrchestrator(services, { llm, inspection }) });
}
const userMessage = (content: string, extra: Record<string, unknown> = {}) => ({
  v: 1,
  type: 'user_message',
  id: `evt-${Math.random().toString(36).slice(2)}`,
  timestamp: Date.now(),
  taskId: TASK,
  content,
  ...extra,
});
const names = (plugin: FakePlugin) => plugin.received.map((f) => Object.keys(f.action)[0]);
const statusSeen = (web: { events: any[] }, status: string) => () =>
  web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === status);

/** Waits until the action of the plugin's last frame is in `state` on the server, then moves the clock. */
async function whenLast(rt: TestRuntime, plugin: FakePlugin, name: string, state: string): Promise<string> {
  await eventually(() => names(plugin).at(-1) === name, 10_000, `${name} dispatched`);
  const id = plugin.received.at(-1)!.id;
  await eventually(
    () => rt.server.scheduler.actorOf(id)?.getSnapshot().matches(state) === true,
    10_000,
    `${name} ${state}`,
  );
  return id;
}

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
      () => rt.server.scheduler.actorOf(f.id)?.getSnapshot().matches('executing') === true,
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

test('select_extension: unknown id is refused; a choice is honoured at the next dispatch, persisted, returned by GET /api/task/:id and kept across a restart', async (ctx) => {
  const dir = (ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-select-')));
  const steps = () => [
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/a' }),
    () => say('ok'),
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/b' }),
    () => say('ok'),
  ];
  const rt = (ctx.rt = await runtimeWith(scriptedLlm(steps()), { dir, persistent: true }));
  const a = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: page });
  const b = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-b', answer: page });
  ctx.closers.push(
    () => a.close(),
    () => b.close(),
  );
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open a'));
  await eventually(statusSeen(web, 'ongoing'), 10_000, 'first turn');
  const first = a.received.length > 0 ? a : b;
  const chosen = first === a ? b : a;
  const select = (clientId: string) =>
    web.timeout(5_000).emitWithAck('frontend_message', {
      v: 1,
      type: 'select_extension',
      id: `evt-sel-${clientId}`,
      timestamp: Date.now(),
      taskId: TASK,
      clientId,
    });
  const unknown = await select('plugin-zzz');
  assert.equal([unknown.ok, unknown.error?.code], [false, 'NOT_FOUND']);
  const picked = await select(chosen.clientId);
  assert.is(picked.ok, true);
  const before = chosen.received.length;
  const firstBefore = first.received.length;
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open b'));
  await eventually(
    () => web.events.filter((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing').length >= 2,
    10_000,
    'second turn',
  );
  assert.ok(chosen.received.length > before, 'the chosen plugin got the actions');
  assert.is(first.received.length, firstBefore, 'the other (still online) plugin got none');
  const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
  assert.is(detail.task.selectedClientId, chosen.clientId);
  a.close();
  b.close();
  web.close();
  await rt.close();
  ctx.rt = undefined;

  const again = (ctx.rt = await runtimeWith(
    scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/c' }), () => say('ok')]),
    { dir, persistent: true },
  ));
  const a2 = await startFakePlugin({ url: again.server.url, clientId: 'plugin-a', answer: page });
  const b2 = await startFakePlugin({ url: again.server.url, clientId: 'plugin-b', answer: page });
  ctx.closers.push(
    () => a2.close(),
    () => b2.close(),
  );
  const chosen2 = chosen.clientId === 'plugin-a' ? a2 : b2;
  const other2 = chosen2 === a2 ? b2 : a2;
  // Make the other plugin the most recently used one: only the persisted choice can pick `chosen2`.
  again.server.registry.markUsed(other2.clientId);
  const restored = (await (await fetch(`${again.server.url}/api/task/${TASK}`)).json()).data;
  assert.is(restored.task.selectedClientId, chosen.clientId, 'still stored after the restart');
  const web2 = await connectWeb(again.server.url);
  ctx.closers.push(() => web2.close());
  await web2.timeout(5_000).emitWithAck('frontend_message', userMessage('open c'));
  await eventually(statusSeen(web2, 'ongoing'), 10_000, 'turn after restart');
  assert.ok(chosen2.received.length > 0 && other2.received.length === 0, 'the choice survived the restart');
});

test('plugin-message acks carry the decision: refused overlay_command / takeover_report / late result get ok:false with a code', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([() => say('hi')])));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: page });
  ctx.closers.push(() => plugin.close());
  const overlay = await plugin.send({
    v: 1,
    type: 'overlay_command',
    taskId: TASK,
    clientId: 'plugin-a',
    command: 'stop',
    timestamp: Date.now(),
  });
  assert.equal([overlay.ok, overlay.error?.code], [false, 'INVALID_TASK_TAB']);
  const report = await plugin.send({
    v: 1,
    type: 'takeover_report',
    taskId: TASK,
    clientId: 'plugin-a',
    reason: 'user_click',
    timestamp: Date.now(),
  });
  assert.equal([report.ok, report.error?.code], [false, 'INVALID_TASK_TAB']);
  const unknown = await plugin.send({
    v: 1,
    type: 'browser_action_result',
    actionId: 'act-nobody-waits',
    taskId: TASK,
    clientId: 'plugin-a',
    status: 'success',
    result: {},
  });
  assert.equal([unknown.ok, unknown.error?.code], [false, 'NOT_FOUND']);
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
  });
  const out = await pending;
  const late = await plugin.send({
    v: 1,
    type: 'browser_action_result',
    actionId: out.actionId,
    taskId: TASK,
    clientId: 'plugin-a',
    status: 'success',
    result: {},
  });
  assert.equal([late.ok, late.error?.code], [false, 'CONFLICT']);
  const sync = await plugin.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_activated',
    tabId: 1,
    windowId: 1,
    timestamp: Date.now(),
  });
  assert.is(sync.ok, true);
});

test('traceId flows from user_message through the store, the LLM call, plugin frames and frontend events; each frame carries its timeoutMs', async (ctx) => {
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }), () => say('Done.')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: page });
  ctx.closers.push(() => plugin.close());
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the form', { traceId: 'trace-abc123' }));
  await eventually(statusSeen(web, 'ongoing'), 10_000, 'turn');
  assert.ok(plugin.received.length >= 6);
  assert.ok(
    plugin.received.every((f) => (f as { traceId?: string }).traceId === 'trace-abc123'),
    'every plugin frame',
  );
  const expected: Record<string, number> = {
    task_start: 20_000,
    browser_debugger_attach: 5_000,
    browser_wait_for_loaded: 20_000,
    browser_screenshot: 10_000,
    browser_readability_extract: 10_000,
    browser_dom_index: 10_000,
  };
  for (const f of plugin.received)
    assert.is(
      (f as { timeoutMs?: number }).timeoutMs,
      expected[Object.keys(f.action)[0]!],
      `timeoutMs of ${Object.keys(f.action)[0]}`,
    );
  const turnEvents = web.events.filter((e) => e.event.type === 'toolUsed' || e.event.type === 'chatDelta');
  assert.ok(
    turnEvents.length > 0 && turnEvents.every((e) => e.traceId === 'trace-abc123'),
    'toolUsed and chatDelta envelopes',
  );
  assert.ok(
    llm.calls.every((c) => c.traceId === 'trace-abc123'),
    'every LLM call',
  );
  const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
  const traced = detail.messages.filter((m: any) => m.meta?.traceId === 'trace-abc123').map((m: any) => m.role);
  assert.ok(traced.includes('user') && traced.includes('tool') && traced.includes('assistant'), `stored: ${traced}`);
});

test('a refused debugger attach is CDP_PERMISSION_DENIED, told to the user; the turn goes on with DOM fallbacks', async (ctx) => {
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }), () => say('Done.')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params, frame) =>
      name === 'browser_debugger_attach'
        ? {
            result: {
              status: 'error',
              error: {
                code: 'CDP_UNAVAILABLE',
                message: 'Another debugger is already attached to the tab with id: 101.',
                retryable: false,
              },
            },
          }
        : page(name, params, frame),
  });
  ctx.closers.push(() => plugin.close());
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the form'));
  await eventually(statusSeen(web, 'ongoing'), 10_000, 'turn');
  const attach = web.events.find(
    (e) => e.event.type === 'toolUsed' && e.event.actionName === 'browser_debugger_attach' && e.event.phase === 'error',
  )?.event;
  assert.is(attach?.error.code, 'CDP_PERMISSION_DENIED');
  assert.ok(
    web.events.some((e) => e.event.type === 'structuredOutput' && e.event.error?.code === 'CDP_PERMISSION_DENIED'),
    'the user is told',
  );
  assert.ok(names(plugin).includes('browser_dom_index'), 'the page was still read');
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
