// The runtime with a fake plugin on the real socket.io-client: registration, snapshot sync to
// the web, and every outcome of a browser action through the scheduler.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deferred, startFakePlugin, okAnswer, type Answerer } from '../test-util/fake-plugin.ts';
import { connectWeb, eventually, settle, startRuntime, type TestRuntime } from './util.ts';
import { actionStateOf } from '../../machines/index.ts';

/** Waits until the action actor of the n-th frame the plugin got is in `state` (e.g. executing: the ack arrived). */
async function actionIn(rt: TestRuntime, frames: { id: string }[], n: number, state: string): Promise<void> {
  await eventually(() => frames.length > n, 5_000, `frame ${n}`);
  await eventually(
    () => {
      const actor = rt.server.scheduler.actorOf(frames[n]!.id);
      return actor !== undefined && actionStateOf(actor.getSnapshot()) === state;
    },
    5_000,
    `action ${n} ${state}`,
  );
}

const TASK = '01JD0000000000000000000001';
const OTHER_TASK = '01JD0000000000000000000002';
const test = suite<{ rt: TestRuntime }>('runtime + fake plugin', { rt: undefined as never });

test.before.each(async (ctx) => {
  ctx.rt = await startRuntime({ ackTimeoutMs: 300 });
});
test.after.each(async (ctx) => {
  await ctx.rt.close();
});

test('registration: the plugin shows up in the extension list, online and healthy', async ({ rt }) => {
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a' });
  const res = await fetch(`${rt.server.url}/api/extension/extension-list`);
  const body = await res.json();
  assert.is(body.ok, true);
  const item = body.data.find((x: any) => x.clientId === 'plugin-a');
  assert.ok(item, 'listed');
  assert.is(item.socketConnected, true);
  assert.is(item.health, 'healthy');
  assert.is(item.version, '0.0.0-test');
  plugin.close();
  await eventually(
    async () =>
      (await (await fetch(`${rt.server.url}/api/extension/extension-list`)).json()).data[0].socketConnected === false,
    2_000,
    'offline',
  );
});

test('snapshot sync: the web sees snapshotSync with increasing seq; GET /api/snapshot matches', async ({ rt }) => {
  const web = await connectWeb(rt.server.url);
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a' });
  await plugin.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_created',
    tab: {
      tabId: 2,
      windowId: 1,
      active: false,
      pinned: false,
      hidden: false,
      index: 1,
      url: 'http://127.0.0.1/b',
      title: 'B',
    },
    timestamp: Date.now(),
  });
  await plugin.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_activated',
    tabId: 2,
    windowId: 1,
    timestamp: Date.now(),
  });
  await eventually(
    () => web.events.filter((e) => e.event.type === 'snapshotSync').length >= 3,
    2_000,
    'three snapshotSync',
  );
  const syncs = web.events.filter((e) => e.event.type === 'snapshotSync').map((e) => e.event);
  for (let i = 1; i < syncs.length; i++) assert.ok(syncs[i].seq > syncs[i - 1].seq, 'seq increases');
  const last = syncs[syncs.length - 1];
  assert.is(last.mode, 'full');
  assert.is(last.state.activeTabId, 2);
  assert.equal(
    last.state.tabs.map((t: any) => t.tabId),
    [1, 2],
  );
  const snapshot = (await (await fetch(`${rt.server.url}/api/snapshot`)).json()).data;
  assert.is(snapshot.connected, true);
  assert.is(snapshot.stale, false);
  assert.is(snapshot.activeTabId, 2);
  web.close();
  plugin.close();
});

test('a plugin message that breaks the contract is refused with SCHEMA_VALIDATION_FAILED and changes nothing', async ({
  rt,
}) => {
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a' });
  const before = (await (await fetch(`${rt.server.url}/api/snapshot`)).json()).data;
  const reply = await plugin.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_created',
    tab: { tabId: 'x' },
    timestamp: Date.now(),
  });
  assert.is(reply.ok, false);
  assert.is(reply.error.code, 'SCHEMA_VALIDATION_FAILED');
  const v2 = await plugin.send({
    v: 2,
    type: 'full_state_sync',
    windows: [],
    tabs: [],
    tabGroups: [],
    activeWindowId: null,
    activeTabId: null,
    timestamp: 1,
  });
  assert.is(v2.ok, false);
  assert.match(JSON.stringify(v2.error), /protocol version/);
  const after = (await (await fetch(`${rt.server.url}/api/snapshot`)).json()).data;
  assert.equal(after.tabs, before.tabs);
  plugin.close();
});

test('an action that succeeds: ack, result, output', async ({ rt }) => {
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a' });
  const out = await rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 101, clickId: 3 },
  });
  assert.is(out.status, 'succeeded');
  assert.equal(out.result, { clicked: true, strategy: 'cdp_mouse' });
  assert.is(plugin.received.length, 1);
  assert.equal(plugin.received[0]!.action, { browser_click: { tabId: 101, clickId: 3 } });
  assert.is(plugin.received[0]!.taskId, TASK);
  plugin.close();
});

test('legacy result format is accepted', async ({ rt }) => {
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params) => ({
      legacy: true,
      result: { status: 'success', result: { clicked: true, strategy: 'dom_click' } },
    }),
  });
  const running = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
  });
  assert.is(rt.server.tasks.get(TASK)?.kind, 'tool', 'the action runs in a task actor made for it');
  const out = await running;
  assert.is(out.status, 'succeeded');
  await settle();
  assert.is(rt.server.tasks.get(TASK), undefined, 'which is gone once its last action settled');
  plugin.close();
});

test('no ack in time -> PLUGIN_TIMEOUT_ACK, exactly at T_ack on the clock', async ({ rt }) => {
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: () => ({ ack: false, result: null }),
  });
  let settled = false;
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
  });
  void pending.then(() => (settled = true));
  await actionIn(rt, plugin.received, 0, 'awaitingAck');
  rt.clock.increment(299);
  await settle();
  assert.is(settled, false, 'still waiting 1 ms before T_ack');
  rt.clock.increment(1);
  const out = await pending;
  assert.is(out.status, 'failed');
  assert.is(out.error?.code, 'PLUGIN_TIMEOUT_ACK');
  assert.is(out.timedOut, 'ack');
  assert.is(out.durationMs, 300);
  plugin.close();
});

test('exec timeout twice in a row -> PLUGIN_TIMEOUT_EXEC and the plugin is unhealthy', async ({ rt }) => {
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: () => ({ result: null }) });
  for (let i = 0; i < 2; i++) {
    const pending = rt.server.tasks.run({
      taskId: TASK,
      clientId: 'plugin-a',
      actionName: 'browser_click',
      params: { tabId: 1, clickId: 1 },
      execTimeoutMs: 200,
    });
    await actionIn(rt, plugin.received, i, 'executing');
    rt.clock.increment(200);
    const out = await pending;
    assert.is(out.error?.code, 'PLUGIN_TIMEOUT_EXEC');
    assert.is(out.timedOut, 'exec');
  }
  const list = (await (await fetch(`${rt.server.url}/api/extension/extension-list`)).json()).data;
  assert.is(list[0].health, 'unhealthy');
  plugin.close();
});

test('a retryable exec timeout on an idempotent action is retried once with the same actionId', async ({ rt }) => {
  let calls = 0;
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: () =>
      ++calls === 1 ? { result: null } : { result: { status: 'success', result: { status: 'complete' } } },
  });
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_wait_for_loaded',
    params: { tabId: 1 },
    execTimeoutMs: 200,
  });
  await actionIn(rt, plugin.received, 0, 'executing');
  rt.clock.increment(200);
  await settle();
  assert.is(plugin.received.length, 1, 'the retry waits its backoff');
  rt.clock.increment(1_000);
  const out = await pending;
  assert.is(out.status, 'succeeded');
  assert.is(out.attempts, 2);
  assert.is(plugin.received.length, 2);
  assert.is(plugin.received[0]!.id, plugin.received[1]!.id);
  plugin.close();
});

test('duplicate result is ignored; a late result (after the timeout) is reported as late', async ({ rt }) => {
  const slow = deferred();
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params) =>
      params.clickId === 1
        ? { duplicate: true, ...okAnswer(name, params) }
        : { until: slow.promise, ...okAnswer(name, params) },
  });
  const first = await rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
  });
  assert.is(first.status, 'succeeded');
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 2 },
    execTimeoutMs: 150,
  });
  await actionIn(rt, plugin.received, 1, 'executing');
  rt.clock.increment(150);
  const late = await pending;
  assert.is(late.error?.code, 'PLUGIN_TIMEOUT_EXEC');
  slow.resolve();
  await eventually(
    () => rt.logs.some((l) => l.event === 'action_result_ignored' && l.disposition === 'late'),
    2_000,
    'late result logged',
  );
  const ignored = rt.logs.filter((l) => l.event === 'action_result_ignored');
  assert.ok(
    ignored.some((l) => l.actionId === plugin.received[0]!.id),
    'the duplicate of the first action was ignored',
  );
  plugin.close();
});

test('the plugin disconnects mid-action -> PLUGIN_OFFLINE at once', async ({ rt }) => {
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: () => ({ result: null }) });
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
    execTimeoutMs: 5_000,
  });
  await actionIn(rt, plugin.received, 0, 'executing');
  plugin.close();
  // The clock does not move: settling at all proves it did not wait for T_exec.
  const out = await pending;
  assert.is(out.error?.code, 'PLUGIN_OFFLINE');
});

test('no plugin connected -> PLUGIN_OFFLINE without waiting', async ({ rt }) => {
  const out = await rt.server.tasks.run({
    taskId: TASK,
    clientId: 'nobody',
    actionName: 'browser_click',
    params: { tabId: 1, clickId: 1 },
  });
  assert.is(out.error?.code, 'PLUGIN_OFFLINE');
});

test('actions of one task run in order; different tasks run concurrently', async ({ rt }) => {
  const order: string[] = [];
  const first = deferred();
  const answer: Answerer = (name, params, frame) => {
    order.push(`${frame.taskId.slice(-1)}:${params.clickId}`);
    return { ...(params.clickId === 1 ? { until: first.promise } : {}), ...okAnswer(name, params) };
  };
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer });
  const all = Promise.all([
    rt.server.tasks.run({
      taskId: TASK,
      clientId: 'plugin-a',
      actionName: 'browser_click',
      params: { tabId: 1, clickId: 1 },
    }),
    rt.server.tasks.run({
      taskId: TASK,
      clientId: 'plugin-a',
      actionName: 'browser_click',
      params: { tabId: 1, clickId: 2 },
    }),
    rt.server.tasks.run({
      taskId: OTHER_TASK,
      clientId: 'plugin-a',
      actionName: 'browser_click',
      params: { tabId: 1, clickId: 9 },
    }),
  ]);
  // Task 2's action finishes while task 1's first action is still running.
  await eventually(
    () => order.includes('2:9') && rt.server.tasks.pending(OTHER_TASK) === 0,
    5_000,
    'the other task done',
  );
  assert.equal(order, ['1:1', '2:9'], 'task 1 waits for its first action; the other task did not');
  first.resolve();
  await all;
  assert.equal(order, ['1:1', '2:9', '1:2']);
  plugin.close();
});

test.run();
