// The agent loop end to end over real sockets: a web client sends user_message, a scripted
// LLM drives the browser tools, a fake plugin executes the actions; the test checks the
// frontend event sequence, the persisted messages and the final task state.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { startFakePlugin, okAnswer, type Answerer, type FakeAnswer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000A01';
const test = suite<{ rt: TestRuntime }>('agent loop', { rt: undefined as never });

const pageAnswer: Answerer = (name, params) => {
  if (name === 'browser_readability_extract')
    return {
      result: {
        status: 'success',
        result: { title: 'Article', text: 'Otters hold hands while sleeping. They live in rivers.' },
      },
    };
  if (name === 'browser_screenshot')
    return {
      result: {
        status: 'success',
        result: {
          artifactId: 'art-abcdefghijklmnop',
          url: 'http://x/api/artifacts/art-abcdefghijklmnop',
          width: 800,
          height: 600,
        },
      },
    };
  if (name === 'browser_dom_index')
    return {
      result: { status: 'success', result: { elements: [{ clickId: 1, tag: 'a', text: 'Next page', href: '/next' }] } },
    };
  return okAnswer(name, params);
};

async function runtimeWith(llm: LlmGateway, extra: { stepLimit?: number } = {}) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({
    ackTimeoutMs: 500,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) => createAgentOrchestrator(services, { llm, inspection, pagePrepBackoffMs: [20], ...extra }),
  });
}

const userMessage = (content: string, id = 'evt-user-1') => ({
  v: 1,
  type: 'user_message',
  id,
  timestamp: Date.now(),
  taskId: TASK,
  content,
});

test.after.each(async (ctx) => {
  await ctx.rt?.close();
});

test('chat only: streamed chatDelta, finished, assistant message persisted, task ongoing', async (ctx) => {
  const llm = scriptedLlm([() => say('Hello ', 'there!')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const web = await connectWeb(rt.server.url);
  const ack = await web.timeout(5_000).emitWithAck('frontend_message', userMessage('hi'));
  assert.is(ack.ok, true);
  await eventually(
    () => web.events.some((e) => e.event.type === 'chatDelta' && e.event.finished),
    5_000,
    'finished chatDelta',
  );
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  const deltas = web.events.filter((e) => e.event.type === 'chatDelta').map((e) => e.event);
  assert.equal(
    deltas.map((d) => d.delta.content),
    ['Hello ', 'there!', ''],
  );
  assert.ok(deltas.every((d) => d.targetEventId === 'evt-user-1'));
  const statuses = web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
  assert.equal(statuses, ['created', 'running', 'ongoing']);
  const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
  assert.equal(
    detail.messages.map((m: any) => [m.role, m.content]),
    [
      ['user', 'hi'],
      ['assistant', 'Hello there!'],
    ],
  );
  assert.is(detail.task.status, 'ongoing');
  assert.is(detail.task.title, 'hi');
  web.close();
});

test('after a click, the screenshot upload is presigned while the page load is awaited, not after its result', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/article' }),
    () => callTool('browser_click', { clickId: 1 }),
    () => say('done'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  let releaseLoad!: () => void;
  const loadAnswered = new Promise<void>((resolve) => (releaseLoad = resolve));
  let loads = 0;
  // The open's load is answered at once; the load after the click waits for the test.
  const answer: Answerer = (name, params, frame) => {
    const reply = pageAnswer(name, params, frame) as FakeAnswer;
    return name === 'browser_wait_for_loaded' && ++loads === 2 ? { ...reply, until: loadAnswered } : reply;
  };
  // Each presign notes whether the click's load had been answered when it was asked for.
  const presignedAfterLoad: boolean[] = [];
  let loadDone = false;
  void loadAnswered.then(() => (loadDone = true));
  const presign = rt.server.artifacts.presign.bind(rt.server.artifacts);
  rt.server.artifacts.presign = (input) => {
    presignedAfterLoad.push(loadDone);
    return presign(input);
  };
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the article and click next'));
  await eventually(() => loads === 2, 5_000, 'the load after the click is awaited');
  // The open's read presigned once; the read after the click presigns while its load is held.
  await eventually(() => presignedAfterLoad.length === 2, 5_000, 'presigned while the load is awaited');
  releaseLoad();
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  assert.equal(
    presignedAfterLoad,
    [false, false],
    "a presign per read; the click's, asked for before its load answered",
  );
  const screenshots = plugin.received.filter((f) => 'browser_screenshot' in f.action);
  assert.is(screenshots.length, 2);
  assert.match(String(screenshots[1]!.screenshotPresignedUrl), /\/api\/artifacts\/art-[^/]+\/upload\?token=/);
  web.close();
  plugin.close();
});

test('browser task: task_start, attach, wait, page prep, dom index, then the answer from the page context', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/article' }),
    (input) => {
      const page = input.context?.page;
      return say(`The page "${page?.title}" says: ${page?.text?.split('.')[0]}.`);
    },
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: pageAnswer });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open the article and summarise it'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  const actions = plugin.received.map((f) => Object.keys(f.action)[0]);
  assert.equal(actions.slice(0, 3), ['task_start', 'browser_debugger_attach', 'browser_wait_for_loaded']);
  assert.ok(actions.includes('browser_screenshot') && actions.includes('browser_readability_extract'));
  assert.is(actions[actions.length - 1], 'browser_dom_index');
  const screenshotFrame = plugin.received.find((f) => 'browser_screenshot' in f.action)!;
  assert.match(String(screenshotFrame.screenshotPresignedUrl), /\/api\/artifacts\/art-[^/]+\/upload\?token=/);
  const toolSteps = web.events
    .filter((e) => e.event.type === 'toolUsed')
    .map((e) => `${e.event.actionName}:${e.event.phase}`);
  assert.ok(toolSteps.includes('task_start:start') && toolSteps.includes('task_start:success'));
  const shot = web.events.find(
    (e) => e.event.type === 'toolUsed' && e.event.actionName === 'browser_screenshot' && e.event.phase === 'success',
  );
  assert.is(shot.event.artifacts[0].artifactId, 'art-abcdefghijklmnop');
  const text = web.events
    .filter((e) => e.event.type === 'chatDelta')
    .map((e) => e.event.delta.content)
    .join('');
  assert.is(text, 'The page "Article" says: Otters hold hands while sleeping.');
  // The tool result fed back to the LLM is the seed's JSON.
  const toolMessage = llm.calls[1]!.messages.find((m) => m.role === 'tool')!;
  const parsed = JSON.parse(toolMessage.content);
  assert.is(parsed.ok, true);
  assert.is(parsed.name, 'browser_open');
  assert.is(parsed.toolCallId, 'call-browser_open');
  assert.is(parsed.result.page.elements[0].clickId, 1);
  // Every step sees the tabs (seed 002).
  const state = llm.calls[1]!.messages.find(
    (m) => m.role === 'system' && m.content.startsWith('Current browser state'),
  )!;
  const browserState = JSON.parse(state.content.slice('Current browser state: '.length));
  assert.is(browserState.taskTabId, 101);
  assert.ok(Array.isArray(browserState.tabs));
  web.close();
  plugin.close();
});

test('no extension connected: PLUGIN_OFFLINE as structuredOutput with a hint; the task is in error (seed 000 §2.1) and a follow-up reopens it', async (ctx) => {
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/' }), () => say('hello again')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('open a page'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'error'),
    5_000,
    'error',
  );
  const error = web.events.find((e) => e.event.type === 'structuredOutput')!.event;
  assert.is(error.status, 'error');
  assert.is(error.error.code, 'PLUGIN_OFFLINE');
  assert.is(error.error.retryable, true);
  assert.match(error.error.message, /extension/i);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('just chat', 'evt-user-2'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'the follow-up reopened the task',
  );
  const statuses = web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
  assert.equal(statuses.filter((s: string) => s === 'created').length, 1, `no second created: ${statuses}`);
  web.close();
});

test('malformed tool arguments come back to the LLM as a tool error, not a crash', async (ctx) => {
  const llm = scriptedLlm([
    () => [
      { type: 'tool_call', toolCallId: 'c1', name: 'browser_click', arguments: {}, argumentsError: 'Unexpected token' },
      { type: 'done' },
    ],
    () => say('Sorry, my arguments were broken.'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('click something'));
  await eventually(() => llm.calls.length === 2, 5_000, 'second LLM call');
  const tool = JSON.parse(llm.calls[1]!.messages.find((m) => m.role === 'tool')!.content);
  assert.is(tool.ok, false);
  assert.is(tool.error.code, 'SCHEMA_VALIDATION_FAILED');
  web.close();
});

test('the step limit ends a runaway loop with a clear message', async (ctx) => {
  const llm = scriptedLlm(Array.from({ length: 10 }, () => () => callTool('browser_read_page', {})));
  const rt = (ctx.rt = await runtimeWith(llm, { stepLimit: 3 }));
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('loop forever'));
  await eventually(() => web.events.some((e) => e.event.type === 'chatDelta' && e.event.finished), 5_000, 'finished');
  assert.is(llm.calls.length, 3);
  const text = web.events
    .filter((e) => e.event.type === 'chatDelta')
    .map((e) => e.event.delta.content)
    .join('');
  assert.match(text, /stopped after 3 steps/);
  web.close();
});

test('an LLM error -> structuredOutput error and task error', async (ctx) => {
  const llm = scriptedLlm([
    () => [
      { type: 'delta', content: 'Let me' },
      { type: 'error', code: 'LLM_UNAVAILABLE', message: 'upstream 500', retryable: true },
    ],
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('hello'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'error'),
    5_000,
    'error status',
  );
  const error = web.events.find((e) => e.event.type === 'structuredOutput')!.event;
  assert.is(error.error.code, 'LLM_UNAVAILABLE');
  assert.ok(web.events.some((e) => e.event.type === 'chatDelta' && e.event.finished));
  web.close();
});

test('a duplicate user_message (same id) is not processed twice', async (ctx) => {
  const llm = scriptedLlm([() => say('once')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const web = await connectWeb(rt.server.url);
  const message = userMessage('hi');
  await web.timeout(5_000).emitWithAck('frontend_message', message);
  const second = await web.timeout(5_000).emitWithAck('frontend_message', message);
  assert.is(second.ok, true, JSON.stringify(second));
  assert.is(second.data.duplicate, true);
  const conflicting = await web
    .timeout(5_000)
    .emitWithAck('frontend_message', { ...message, content: 'something else' });
  assert.is(conflicting.ok, false);
  assert.is(conflicting.error.code, 'CONFLICT');
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  assert.is(llm.calls.length, 1);
  web.close();
});

test('an invalid frontend_message gets a field-level error and changes nothing', async (ctx) => {
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([])));
  const web = await connectWeb(rt.server.url);
  const reply = await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'x',
    timestamp: 1,
    taskId: 'not-a-ulid',
    content: '',
  });
  assert.is(reply.ok, false);
  assert.is(reply.error.code, 'BAD_REQUEST');
  assert.ok(reply.error.fieldErrors.some((e: any) => e.field === 'taskId'));
  const list = (await (await fetch(`${rt.server.url}/api/task/list`)).json()).data;
  assert.equal(list, []);
  web.close();
});

test.run();
