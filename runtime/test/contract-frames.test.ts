// Every frame the server sends is checked against transport/contracts on the receiving side: the
// plugin_message frames a fake plugin gets, the frontend_event envelopes and every Socket.IO ack
// a web client and a plugin get, over a whole agent turn with page preparation, a takeover and
// resume, a stop, refused messages and an extension selection.
import * as v from 'valibot';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FrontendEventSchema, ServerToPluginMessageSchema, SocketAckSchema } from '../../transport/contracts/index.ts';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { startFakePlugin, pageAnswerer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000C01';
const test = suite<{ rt?: TestRuntime }>('outgoing frames match the contract', {});
test.after.each(async (ctx) => {
  await ctx.rt?.close();
});

const pageAnswer = pageAnswerer();

function problems(schema: v.GenericSchema, values: unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const parsed = v.safeParse(schema, value);
    if (!parsed.success)
      out.push(
        `${JSON.stringify(value).slice(0, 200)}: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? ''} ${i.message}`).join('; ')}`,
      );
  }
  return out;
}

test('a turn with page prep, takeover, resume, stop and refusals: every frame and ack validates', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
    () => callTool('browser_click', { clickId: 1 }),
    () => say('Done.'),
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/form' }),
  ]);
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  const rt = (ctx.rt = await startRuntime({
    inspectFor: (id) => inspection.observerFor(id),
    control: (s) => createAgentOrchestrator(s, { llm, inspection }),
  }));
  const web = await connectWeb(rt.server.url);
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: pageAnswer });
  const webAcks: unknown[] = [];
  const send = async (message: Record<string, unknown>) => {
    const ack = await web.timeout(5_000).emitWithAck('frontend_message', {
      v: 1,
      id: `evt-${webAcks.length}`,
      timestamp: Date.now(),
      taskId: TASK,
      ...message,
    });
    webAcks.push(ack);
    return ack;
  };
  await send({ type: 'subscribe_inspection' });
  await send({ type: 'user_message', content: 'open the form and click Go' });
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    10_000,
    'turn done',
  );
  await send({ type: 'takeover_task', reason: 'me' });
  await send({ type: 'resume_task' });
  await send({ type: 'resume_task' }); // refused: not in takeover
  await send({ type: 'select_extension', clientId: 'plugin-a' });
  await send({ type: 'user_message', content: 'again' });
  await eventually(() => plugin.received.length > 8, 10_000, 'second turn dispatching');
  await send({ type: 'stop_task' });
  await eventually(() => plugin.received.some((f) => 'task_stop' in f.action), 10_000, 'task_stop');
  await plugin.send({
    v: 1,
    type: 'overlay_command',
    taskId: TASK,
    clientId: 'plugin-a',
    command: 'resume',
    timestamp: Date.now(),
  });
  await plugin.send({ v: 1, type: 'tab_event', eventType: 'tab_created', tab: { tabId: 'x' }, timestamp: Date.now() });

  const kinds = new Set(plugin.frames.map((f) => f.type));
  assert.ok(kinds.has('browser_action') && kinds.has('plugin_ui_state'), `frame kinds: ${[...kinds]}`);
  assert.equal(problems(ServerToPluginMessageSchema, plugin.frames), []);
  assert.ok(
    plugin.received.every((f) => typeof (f as { timeoutMs?: number }).timeoutMs === 'number'),
    'every browser_action carries its timeoutMs',
  );
  const eventTypes = new Set(web.events.map((e) => e.event.type));
  for (const t of ['taskStatus', 'chatDelta', 'toolUsed', 'inspection', 'snapshotSync', 'structuredOutput'])
    assert.ok(eventTypes.has(t), `saw ${t}`);
  assert.equal(problems(FrontendEventSchema, web.events), []);
  assert.ok(
    webAcks.some((a) => (a as { ok: boolean }).ok === false),
    'a refused web message is in the sample',
  );
  assert.ok(
    plugin.acks.some((a) => (a as { ok: boolean }).ok === false),
    'a refused plugin message is in the sample',
  );
  assert.equal(problems(SocketAckSchema, [...webAcks, ...plugin.acks]), []);
  // The inspector shows one actor per task: its actions run in its `action` region, page
  // preparations are its own work too.
  const actors = web.events
    .filter((e) => e.event.type === 'inspection' && e.event.record.type === '@xstate.actor')
    .map((e) => e.event.record);
  const task = actors.find((r) => r.machineId === 'task');
  assert.ok(task, 'the task actor is inspected');
  const childrenOf = (machineId: string) => actors.filter((r) => r.machineId === machineId);
  assert.is(childrenOf('action').length, 0, 'no action actor');
  const taskEvents = (type: string) =>
    web.events.filter(
      (e) =>
        e.event.type === 'inspection' &&
        e.event.record.type === '@xstate.event' &&
        e.event.record.event?.type === type &&
        e.event.record.actorId === task.actorId,
    ).length;
  // The task actor runs its actions one after another: each is an ACTION_REQUESTED, an ACK and a RESULT it receives.
  assert.ok(taskEvents('ACTION_REQUESTED') >= 6, `actions asked of the task actor: ${taskEvents('ACTION_REQUESTED')}`);
  assert.ok(taskEvents('ACK') >= 6 && taskEvents('RESULT') >= 6, 'the plugin answers the task actor itself');
  // Page preparations run in the task actor itself: each is a PAGE_PREP_REQUESTED and its PAGE_PREP_DONE.
  assert.ok(taskEvents('PAGE_PREP_REQUESTED') >= 1, 'page preparations are asked of the task actor');
  // (the one the STOP cut short may answer after the sample ends)
  const done = taskEvents('PAGE_PREP_DONE');
  assert.ok(done >= 1 && done <= taskEvents('PAGE_PREP_REQUESTED'), "each one's outcome comes back to it");
  assert.is(childrenOf('pagePrep').length, 0, 'no page-preparation actor');
  web.close();
  plugin.close();
});

test.run();
