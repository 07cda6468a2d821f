// Seed 001 §4.1 / §3.5, with the fake plugin on the real socket.io-client: the extension a task
// uses (select_extension), the decisions plugin-message acks carry, traceId from the user's
// message to every frame and event, and a refused debugger attach.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { startFakePlugin } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually } from './util.ts';
import { page, policySuite, runtimeWith, statusSeen, TASK, userMessage, names } from './plugin-policies-harness.ts';

const test = policySuite('seed 001 §4.1 plugin selection, acks and traces');

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

test.run();
