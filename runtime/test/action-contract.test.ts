// The seed 001 §4.1 / §4.2 action contract (issue 22), a fault table with the fake plugin on the
// real socket.io-client (with the extension's dedupe cache: a repeated actionId is answered from
// it, not run again) and the runtime on SimulatedClock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startFakePlugin, type Answerer, type FakePlugin, pageAnswerer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, settle, type TestRuntime } from './util.ts';
import { runtimeWith } from './plugin-policies-harness.ts';
import { actionStateOf } from '../../machines/index.ts';

const TASK = '01JD0000000000000000000C01';
const test = suite<{ rt?: TestRuntime; closers: Array<() => void> }>(
  'seed 001 §4.1/§4.2 action contract (fault table)',
  { closers: [] },
);
test.after.each(async (ctx) => {
  for (const close of ctx.closers.splice(0)) close();
  await ctx.rt?.close();
  ctx.rt = undefined;
});

const page = pageAnswerer({ element: { tag: 'textarea', text: 'Message' } });

async function plugin(
  ctx: { closers: Array<() => void> },
  rt: TestRuntime,
  clientId: string,
  answer: Answerer,
): Promise<FakePlugin> {
  const p = await startFakePlugin({ url: rt.server.url, clientId, answer, dedupe: true });
  ctx.closers.push(() => p.close());
  return p;
}
const frameOf = (p: FakePlugin, name: string) => p.received.filter((f) => name in f.action);
/** The action `id` is in flight in `state` of its task actor's action region. */
const inState = (rt: TestRuntime, id: string, state: string) => () => {
  const actor = rt.server.scheduler.actorOf(id);
  return actor !== undefined && actionStateOf(actor.getSnapshot()) === state;
};

test("a retryable error result: the retry goes out under a new actionId, so the plugin runs it again and its success is the action's", async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([])));
  let runs = 0;
  const p = await plugin(ctx, rt, 'plugin-a', (name, params, frame) =>
    name === 'browser_get_html' && ++runs === 1
      ? { result: { status: 'error', error: { code: 'CDP_UNAVAILABLE', message: 'renderer busy', retryable: true } } }
      : page(name, params, frame),
  );
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_get_html',
    params: { tabId: 1 },
  });
  await eventually(() => runs === 1, 10_000, 'first run');
  const id = frameOf(p, 'browser_get_html')[0]!.id;
  await eventually(inState(rt, id, 'retryWait'), 10_000, 'waiting to retry');
  rt.clock.increment(1_000);
  const out = await pending;
  assert.equal([out.status, out.actionId, out.attempts], ['succeeded', id, 2]);
  assert.equal(
    frameOf(p, 'browser_get_html').map((f) => f.id),
    [id, `${id}~2`],
    'a new id for the retry',
  );
  assert.is(runs, 2, 'the handler ran twice: the retry was not answered from the dedupe cache');
});

test('no result (exec timeout) on an idempotent action: the retry keeps the actionId', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([])));
  const p = await plugin(ctx, rt, 'plugin-a', () => ({ result: null }));
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_dom_index',
    params: { tabId: 1 },
  });
  await eventually(() => p.received.length === 1, 10_000, 'sent');
  const id = p.received[0]!.id;
  await eventually(inState(rt, id, 'executing'), 10_000, 'acked');
  rt.clock.increment(10_000);
  rt.clock.increment(1_000);
  await eventually(() => p.received.length === 2, 10_000, 'resent');
  assert.equal(
    p.received.map((f) => f.id),
    [id, id],
  );
  await eventually(inState(rt, id, 'executing'), 10_000, 'acked again');
  rt.clock.increment(10_000);
  assert.is((await pending).error?.code, 'PLUGIN_TIMEOUT_EXEC');
});

test('a missed ack: nothing is resent to that plugin in the turn, not even an idempotent read', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([])));
  const p = await plugin(ctx, rt, 'plugin-a', () => ({ ack: false, result: null }));
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_screenshot',
    params: { tabId: 1 },
  });
  await eventually(() => p.received.length === 1, 10_000, 'sent');
  rt.clock.increment(1_500);
  const out = await pending;
  rt.clock.increment(5_000);
  await settle();
  assert.equal([out.error?.code, out.attempts, p.received.length], ['PLUGIN_TIMEOUT_ACK', 1, 1]);
});

test("params.timeoutMs 60000 on browser_wait_for_loaded: T_exec 61 s (the handler's 60 s + 1 s), not 20 s; the frame says so; beyond 120 s it is bounded", async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([])));
  const p = await plugin(ctx, rt, 'plugin-a', () => ({ result: null }));
  const pending = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_wait_for_loaded',
    params: { tabId: 1, timeoutMs: 60_000 },
    retry: false,
  });
  await eventually(() => p.received.length === 1, 10_000, 'sent');
  const id = p.received[0]!.id;
  assert.is((p.received[0] as { timeoutMs?: number }).timeoutMs, 61_000);
  await eventually(inState(rt, id, 'executing'), 10_000, 'acked');
  rt.clock.increment(20_000);
  assert.ok(inState(rt, id, 'executing')(), 'still waiting at 20 s');
  rt.clock.increment(41_000);
  assert.is((await pending).error?.code, 'PLUGIN_TIMEOUT_EXEC');
  const long = rt.server.tasks.run({
    taskId: TASK,
    clientId: 'plugin-a',
    actionName: 'browser_wait_for_loaded',
    params: { tabId: 1, timeoutMs: 600_000 },
    retry: false,
  });
  await eventually(() => p.received.length === 2, 10_000, 'sent');
  assert.is((p.received[1] as { timeoutMs?: number }).timeoutMs, 121_000, '120 s at most, plus the grace');
  await eventually(inState(rt, p.received[1]!.id, 'executing'), 10_000, 'acked');
  rt.clock.increment(121_000);
  await long;
});

test('a 2,000-character browser_type from the agent is given 30 s and succeeds when the plugin answers after 20 s', async (ctx) => {
  const text = 'x'.repeat(2_000);
  const rt = (ctx.rt = await runtimeWith(
    scriptedLlm([
      () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
      () => callTool('browser_type', { clickId: 1, text }),
      () => say('Typed.'),
    ]),
  ));
  let typing: FakePlugin['received'][number] | undefined;
  const p = await plugin(ctx, rt, 'plugin-a', (name, params, frame) =>
    name === 'browser_type' ? ((typing = frame), { result: null }) : page(name, params, frame),
  );
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-t1',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'type a long text',
  });
  await eventually(() => typing !== undefined, 10_000, 'typing sent');
  assert.is((typing as { timeoutMs?: number }).timeoutMs, 30_000);
  await eventually(inState(rt, typing!.id, 'executing'), 10_000, 'acked');
  rt.clock.increment(20_000);
  p.sendResult(typing!, { status: 'success', result: { typed: true, strategy: 'cdp_key' } });
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    10_000,
    'turn done',
  );
  assert.ok(
    web.events.some(
      (e) => e.event.type === 'toolUsed' && e.event.actionName === 'browser_type' && e.event.phase === 'success',
    ),
  );
});

test("Stop during an action: task_stop {closeTab: true} (a stopped task's tab closes), and the task is completed", async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(
    scriptedLlm([
      () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
      () => callTool('browser_click', { clickId: 1 }),
      () => say('never'),
    ]),
  ));
  const p = await plugin(ctx, rt, 'plugin-a', (name, params, frame) =>
    name === 'browser_click' ? { result: null } : page(name, params, frame),
  );
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-s1',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'click it',
  });
  await eventually(() => frameOf(p, 'browser_click').length === 1, 10_000, 'click in flight');
  await web
    .timeout(5_000)
    .emitWithAck('frontend_message', { v: 1, type: 'stop_task', id: 'evt-stop', timestamp: Date.now(), taskId: TASK });
  await eventually(() => frameOf(p, 'task_stop').length >= 1, 10_000, 'task_stop sent');
  assert.equal(
    frameOf(p, 'task_stop').map((f) => (f.action as { task_stop: { closeTab?: boolean } }).task_stop.closeTab),
    [true],
  );
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'completed'),
    10_000,
    'completed',
  );
});

test('select_extension for a task id from GET /api/task/id, before its first message: honoured, stored with the task', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(
    scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/a' }), () => say('ok')]),
  ));
  const a = await plugin(ctx, rt, 'plugin-a', page);
  const b = await plugin(ctx, rt, 'plugin-b', page);
  rt.server.registry.markUsed('plugin-a'); // auto-select would pick plugin-a
  const fresh = (await (await fetch(`${rt.server.url}/api/task/id`)).json()).data.taskId as string;
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  const picked = await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'select_extension',
    id: 'evt-sel',
    timestamp: Date.now(),
    taskId: fresh,
    clientId: 'plugin-b',
  });
  assert.is(picked.ok, true, JSON.stringify(picked));
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-m1',
    timestamp: Date.now(),
    taskId: fresh,
    content: 'open a',
  });
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    10_000,
    'turn',
  );
  assert.ok(b.received.length > 0 && a.received.length === 0, 'the chosen browser got the actions');
  const detail = (await (await fetch(`${rt.server.url}/api/task/${fresh}`)).json()).data;
  assert.is(detail.task.selectedClientId, 'plugin-b');
});

test('Stop while typing, the browser had typed: the step reports typed, then stopped (done with a warning), live and stored; no answer: stored as stopped, never canceled', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(
    scriptedLlm([
      () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
      () => callTool('browser_type', { clickId: 1, text: 'hello' }),
      () => say('never'),
    ]),
  ));
  let typing: FakePlugin['received'][number] | undefined;
  const p = await plugin(ctx, rt, 'plugin-a', (name, params, frame) => {
    if (name === 'browser_type') return ((typing = frame), { result: null });
    // The real extension finishes the text and answers it, whatever task_stop does meanwhile.
    if (name === 'task_stop' && typing)
      p.sendResult(typing, { status: 'success', result: { typed: true, strategy: 'cdp_key' } });
    return page(name, params, frame);
  });
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  const stepOf = (id: string) =>
    web.events.filter((e) => e.event.type === 'toolUsed' && e.event.actionId === id).map((e) => e.event);
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-ty',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'type hello',
  });
  await eventually(() => typing !== undefined, 10_000, 'typing sent');
  await web
    .timeout(5_000)
    .emitWithAck('frontend_message', { v: 1, type: 'stop_task', id: 'evt-stop', timestamp: Date.now(), taskId: TASK });
  await eventually(() => stepOf(typing!.id).some((e) => e.phase === 'success'), 10_000, 'the step says it was typed');
  const last = stepOf(typing!.id).at(-1)!;
  assert.equal(
    [last.phase, last.error, last.warnings],
    ['success', undefined, ['the task was stopped right after this step took effect']],
  );
  const stored = async () =>
    (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data.messages.filter(
      (m: any) => m.meta?.actionName === 'browser_type',
    );
  await eventually(async () => (await stored()).length === 1, 10_000, 'stored');
  const row = (await stored())[0];
  assert.equal([row.meta.ok, JSON.parse(row.content).ok], [true, true], 'stored as done, once');
});

test('Stop while typing, no answer from the browser: after the grace the step is stored as stopped (it may have taken effect)', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(
    scriptedLlm([
      () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
      () => callTool('browser_type', { clickId: 1, text: 'hello' }),
      () => say('never'),
    ]),
  ));
  const p = await plugin(ctx, rt, 'plugin-a', (name, params, frame) =>
    name === 'browser_type' ? { result: null } : page(name, params, frame),
  );
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-ty2',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'type hello',
  });
  await eventually(() => frameOf(p, 'browser_type').length === 1, 10_000, 'typing sent');
  await web
    .timeout(5_000)
    .emitWithAck('frontend_message', { v: 1, type: 'stop_task', id: 'evt-stop2', timestamp: Date.now(), taskId: TASK });
  const stored = async () =>
    (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data.messages.filter(
      (m: any) => m.meta?.actionName === 'browser_type',
    );
  await eventually(() => frameOf(p, 'task_stop').length === 1, 10_000, 'task_stop');
  await settle();
  assert.equal(await stored(), [], 'held back while the browser may still answer');
  rt.clock.increment(3_000);
  await eventually(async () => (await stored()).length === 1, 10_000, 'stored after the grace');
  const error = JSON.parse((await stored())[0].content).error;
  assert.equal([error.code, /did not say whether it took effect/.test(error.message)], ['TASK_STOPPED', true]);
});

test("Stop during the retry of an error result: the browser's late answer under the retry's dispatch id (`<actionId>~2`) is still its step's: done, then stopped, stored once at the late event's seq", async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(
    scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }), () => say('never')]),
  ));
  let waits = 0;
  let retry: FakePlugin['received'][number] | undefined;
  const p = await plugin(ctx, rt, 'plugin-a', (name, params, frame) => {
    if (name === 'browser_wait_for_loaded' && ++waits === 1)
      return {
        result: { status: 'error', error: { code: 'CDP_UNAVAILABLE', message: 'renderer busy', retryable: true } },
      };
    if (name === 'browser_wait_for_loaded') return ((retry = frame), { result: null });
    if (name === 'task_stop' && retry) p.sendResult(retry, { status: 'success', result: { loaded: true } });
    return page(name, params, frame);
  });
  const web = await connectWeb(rt.server.url);
  ctx.closers.push(() => web.close());
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-rw',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'open the form',
  });
  await eventually(() => waits === 1, 10_000, 'first try answered with an error');
  const id = frameOf(p, 'browser_wait_for_loaded')[0]!.id;
  await eventually(inState(rt, id, 'retryWait'), 10_000, 'waiting to retry');
  rt.clock.increment(1_000);
  await eventually(() => retry !== undefined, 10_000, 'the retry went out');
  assert.is(retry!.id, `${id}~2`);
  await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'stop_task',
    id: 'evt-stop-rw',
    timestamp: Date.now(),
    taskId: TASK,
  });
  const stepOf = () => web.events.filter((e) => e.event.type === 'toolUsed' && e.event.actionId === id);
  await eventually(() => stepOf().some((e) => e.event.phase === 'success'), 10_000, 'the late answer reached the step');
  const late = stepOf().at(-1)!;
  assert.equal(
    [late.event.phase, late.event.warnings],
    ['success', ['the task was stopped right after this step took effect']],
  );
  const stored = async () =>
    (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data.messages.filter(
      (m: any) => m.meta?.actionName === 'browser_wait_for_loaded',
    );
  await eventually(async () => (await stored()).length === 1, 10_000, 'stored');
  const row = (await stored())[0];
  assert.equal([row.meta.ok, row.meta.settleSeq], [true, late.seq], 'stored as done, sorted with the late event');
});

test.run();
