// Takeover, resume and stop: the task actor gates browser actions, the page is read again after
// a takeover, and STOP cancels what is in flight.
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { deferred, startFakePlugin, okAnswer, type Answerer, pageAnswerer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, settle, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000B01';
const test = suite<{ rt?: TestRuntime; dir?: string }>('takeover, stop, restart', {});

const pageAnswer = (clickDone?: Promise<void>): Answerer => {
  const page = pageAnswerer();
  return (name, params, frame) =>
    name === 'browser_click' && clickDone ? { until: clickDone, ...okAnswer(name, params) } : page(name, params, frame);
};

function runtimeWith(llm: LlmGateway, extra: { dir?: string; persistent?: boolean } = {}) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({
    ackTimeoutMs: 500,
    ...extra,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) => createAgentOrchestrator(services, { llm, inspection, pagePrepBackoffMs: [20] }),
  });
}
const userMessage = (content: string, id = `evt-${Math.random().toString(36).slice(2)}`) => ({
  v: 1,
  type: 'user_message',
  id,
  timestamp: Date.now(),
  taskId: TASK,
  content,
});
const control = (type: string) => ({ v: 1, type, id: `evt-${type}`, timestamp: Date.now(), taskId: TASK });

test.after.each(async (ctx) => {
  await ctx.rt?.close();
  ctx.rt = undefined;
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
  ctx.dir = undefined;
});

test('takeover during an action: it finishes, nothing new is dispatched until RESUME, then the page is read again', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
    () => callTool('browser_click', { clickId: 1 }),
    () => say('Clicked.'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const click = deferred();
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: pageAnswer(click.promise) });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the form and click Go'));
  await eventually(() => plugin.received.some((f) => 'browser_click' in f.action), 5_000, 'click dispatched');
  const report = await plugin.send({
    v: 1,
    type: 'takeover_report',
    taskId: TASK,
    clientId: 'plugin-a',
    timestamp: Date.now(),
    reason: 'user_click',
  });
  assert.is(report.ok, true);
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'takeover'),
    2_000,
    'takeover status',
  );
  // The plugin overlay is told to show takeover.
  const received = plugin.received.length;
  // The browser finishes the click during the takeover; the page read after it must wait.
  click.resolve();
  await eventually(
    () =>
      web.events.some(
        (e) => e.event.type === 'toolUsed' && e.event.actionName === 'browser_click' && e.event.phase === 'success',
      ),
    5_000,
    'the in-flight click finished during takeover',
  );
  await plugin.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_activated',
    tabId: 1,
    windowId: 1,
    timestamp: Date.now(),
  }); // a round trip
  await settle();
  // The page read the turn asks for next is held by the task actor (queued, not in flight).
  assert.is(rt.server.tasks.get(TASK)!.actor.getSnapshot().context.current, null, 'nothing in flight during takeover');
  assert.is(plugin.received.length, received, 'nothing new dispatched during takeover');
  const resumed = await web.timeout(5_000).emitWithAck('frontend_message', control('resume_task'));
  assert.is(resumed.ok, true);
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'turn finished',
  );
  const after = plugin.received.slice(received).map((f) => Object.keys(f.action)[0]);
  assert.ok(
    after.includes('browser_readability_extract') && after.includes('browser_dom_index'),
    `page re-read after resume: ${after}`,
  );
  const statuses = web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
  assert.equal(statuses.slice(-3), ['takeover', 'running', 'ongoing']);
  web.close();
  plugin.close();
});

test('resume on a task not in takeover -> CONFLICT; takeover of an unknown task -> NOT_FOUND', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([() => say('hi')])));
  const web = await connectWeb(rt.server.url);
  const missing = await web.timeout(5_000).emitWithAck('frontend_message', control('takeover_task'));
  assert.is(missing.error.code, 'NOT_FOUND');
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('hello'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  const resume = await web.timeout(5_000).emitWithAck('frontend_message', control('resume_task'));
  assert.is(resume.error.code, 'CONFLICT');
  web.close();
});

test('stop while an action runs: the action is canceled on the plugin, the turn ends with no clock time passing, nothing is dispatched later', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
    () => say('never reached'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const loaded = deferred();
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params) =>
      name === 'browser_wait_for_loaded'
        ? { until: loaded.promise, ...okAnswer(name, params) }
        : pageAnswer()(name, params, undefined as never),
  });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the form'));
  await eventually(() => plugin.received.some((f) => 'browser_wait_for_loaded' in f.action), 5_000, 'waiting for load');
  const waitId = plugin.received.at(-1)!.id;
  const task = (rt.server.control as unknown as { sessionOf(id: string): { actor: { getSnapshot(): any } } }).sessionOf(
    TASK,
  )!.actor;
  assert.is(task.getSnapshot().context.current?.actionId, waitId, "the action runs in the task actor's action region");
  const clockAtStop = rt.clock.now();
  const stop = await web.timeout(5_000).emitWithAck('frontend_message', control('stop_task'));
  assert.is(stop.ok, true);
  // STOP reached the action in flight: it settled as canceled and the turn is gone, with no
  // simulated time passing (the plugin did not answer, no timeout fired).
  assert.is(rt.clock.now(), clockAtStop);
  // The task actor's action region is idle: nothing in flight.
  assert.equal(Object.keys(task.getSnapshot().children), [], 'no turn left in the tree');
  assert.is(task.getSnapshot().context.current, null, 'no action in flight');
  assert.is(task.getSnapshot().value.action, 'idle');
  await eventually(
    () =>
      web.events.some(
        (e) =>
          e.event.type === 'toolUsed' &&
          e.event.actionId === waitId &&
          e.event.phase === 'error' &&
          e.event.error.code === 'TASK_STOPPED',
      ),
    5_000,
    'canceled step',
  );
  await eventually(
    () => plugin.received.some((f) => 'task_stop' in f.action),
    5_000,
    'task_stop sent by the canceled action',
  );
  assert.ok(web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'completed'));
  assert.ok(
    web.events.some((e) => e.event.type === 'structuredOutput' && /stopped by the user/.test(e.event.message ?? '')),
  );
  // The browser finishes later and time moves on: nothing more is dispatched, no LLM step.
  loaded.resolve();
  rt.clock.increment(60_000);
  await plugin.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_activated',
    tabId: 1,
    windowId: 1,
    timestamp: Date.now(),
  }); // a round trip
  await settle();
  assert.is(llm.calls.length, 1, 'no further LLM step after stop');
  assert.equal(
    plugin.received.map((f) => Object.keys(f.action)[0]).slice(-2),
    ['browser_wait_for_loaded', 'task_stop'],
    'nothing dispatched after the stop',
  );
  const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
  assert.is(detail.task.status, 'completed');
  web.close();
  plugin.close();
});

// kill -9 in every task state and the restore: restore-after-kill.test.ts.

test.run();
