// Faults of issue 9's matrix that live at the server: a failing disk, and an LLM endpoint that
// answers 429, 500, a broken stream or malformed tool arguments (the real `openai` SDK against
// the local mock endpoint). Plugin faults (drop, no ack, no result, duplicates, late results)
// are in server-plugin.test.ts; kill -9 in takeover-restart.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { startMockOpenAiServer, textChunks, toolCallChunks, usageChunk, type MockScript } from '../llm/index.ts';
import { createOpenAiGateway } from '../llm/openai-gateway.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { createMemoryTaskFiles, createMemoryTaskStore } from '../store/index.ts';
import { say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000F01';
const test = suite<{ rt?: TestRuntime; close?: () => Promise<void> }>('fault matrix', {});
const userMessage = (content: string, id = `evt-${Math.random().toString(36).slice(2)}`) => ({
  v: 1,
  type: 'user_message',
  id,
  timestamp: Date.now(),
  taskId: TASK,
  content,
});

test.after.each(async (ctx) => {
  await ctx.rt?.close();
  await ctx.close?.();
  ctx.rt = undefined;
  ctx.close = undefined;
});

async function runtimeWith(llm: LlmGateway, extra: Parameters<typeof startRuntime>[0] = {}) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({ ...extra, control: (services) => createAgentOrchestrator(services, { llm, inspection }) });
}

async function openAiRuntime(ctx: { rt?: TestRuntime; close?: () => Promise<void> }, script: MockScript) {
  const mock = await startMockOpenAiServer({ script });
  ctx.close = () => mock.close();
  const llm = createOpenAiGateway({ apiKey: 'test-key', baseURL: mock.url, model: 'mock-model', retryDelayMs: 50 });
  ctx.rt = await runtimeWith(llm);
  return { rt: ctx.rt, mock };
}

const turnEnded = (web: { events: any[] }, status: string) => () =>
  web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === status);

test('disk write failure: the user gets a clear error, nothing is half-written, the server stays up and recovers', async (ctx) => {
  const files = createMemoryTaskFiles();
  const taskStore = createMemoryTaskStore({ clock: { now: () => Date.now() }, files });
  const rt = (ctx.rt = await runtimeWith(scriptedLlm([() => say('hello'), () => say('again')]), { taskStore }));
  const web = await connectWeb(rt.server.url);
  files.failWrites = true;
  const failed = await web.timeout(5_000).emitWithAck('frontend_message', userMessage('first'));
  assert.is(failed.ok, false);
  assert.is(failed.error.code, 'INTERNAL');
  assert.is(
    (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).error.code,
    'NOT_FOUND',
    'nothing half-created',
  );
  assert.is((await fetch(`${rt.server.url}/api/task/list`)).status, 200, 'the server still answers');
  files.failWrites = false;
  const ok = await web.timeout(5_000).emitWithAck('frontend_message', userMessage('second'));
  assert.is(ok.ok, true);
  await eventually(turnEnded(web, 'ongoing'), 5_000, 'turn after recovery');
  const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
  assert.equal(
    detail.messages.map((m: any) => m.content),
    ['second', 'hello'],
  );
  web.close();
});

test('LLM 429 once: one retry, then the answer streams normally', async (ctx) => {
  const { rt, mock } = await openAiRuntime(ctx, [
    { status: 429, body: { error: { message: 'slow down' } } },
    [...textChunks(['Fine ', 'now.']), usageChunk({ promptTokens: 5, completionTokens: 2 })],
  ]);
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('hi'));
  await eventually(turnEnded(web, 'ongoing'), 5_000, 'ongoing');
  assert.is(mock.requests.length, 2);
  const text = web.events
    .filter((e) => e.event.type === 'chatDelta')
    .map((e) => e.event.delta.content)
    .join('');
  assert.is(text, 'Fine now.');
  assert.ok(web.events.some((e) => e.event.type === 'usage' && e.event.totalTokens === 7));
  web.close();
});

test('LLM 500 twice: structuredOutput LLM_UNAVAILABLE (retryable) and the task goes to error', async (ctx) => {
  const { rt, mock } = await openAiRuntime(ctx, [{ status: 500 }, { status: 500 }]);
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('hi'));
  await eventually(turnEnded(web, 'error'), 5_000, 'error');
  assert.is(mock.requests.length, 2);
  const error = web.events.find((e) => e.event.type === 'structuredOutput').event.error;
  assert.is(error.code, 'LLM_UNAVAILABLE');
  assert.is(error.retryable, true);
  assert.ok(
    web.events.some((e) => e.event.type === 'chatDelta' && e.event.finished),
    'the stream is closed for the UI',
  );
  web.close();
});

test('LLM stream breaks mid-way: what arrived is shown, then LLM_STREAM_BROKEN', async (ctx) => {
  const { rt } = await openAiRuntime(ctx, [{ chunks: textChunks(['Half ', 'an ', 'answer']), breakAfterChunks: 2 }]);
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('hi'));
  await eventually(turnEnded(web, 'error'), 5_000, 'error');
  const text = web.events
    .filter((e) => e.event.type === 'chatDelta')
    .map((e) => e.event.delta.content)
    .join('');
  assert.ok(text.startsWith('Half'), text);
  assert.is(web.events.find((e) => e.event.type === 'structuredOutput').event.error.code, 'LLM_STREAM_BROKEN');
  web.close();
});

test('malformed tool arguments from the model: a tool error goes back to the model, which recovers', async (ctx) => {
  const broken = toolCallChunks([{ id: 'call-x', name: 'browser_click', arguments: '{"clickId": 3,,' }]);
  const { rt, mock } = await openAiRuntime(ctx, [broken, textChunks('My arguments were broken; sorry.')]);
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('click the third thing'));
  await eventually(turnEnded(web, 'ongoing'), 5_000, 'ongoing');
  const second = mock.requests[1] as { messages: Array<{ role: string; content: string; tool_call_id?: string }> };
  const tool = second.messages.find((m) => m.role === 'tool')!;
  assert.is(tool.tool_call_id, 'call-x');
  assert.is(JSON.parse(tool.content).error.code, 'SCHEMA_VALIDATION_FAILED');
  web.close();
});

test.run();
