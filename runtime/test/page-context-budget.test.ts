// The per-step page context on a huge page, end to end over real sockets: the page text comes
// back from its readability artifact (>= 256 KB), the step context (page + browser state) stays
// within the o200k budget, elements in view come first, the paging tools reach the rest, and the
// tabs of a stopped task leave the next task's prompt.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { countTokens } from '../agent/token-count.ts';
import type { LlmGateway, LlmMessage } from '../llm/llm-types.ts';
import { okAnswer, startFakePlugin, type Answerer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const test = suite<{ rt: TestRuntime }>('page context budget', { rt: undefined as never });
test.after.each(async (ctx) => {
  await ctx.rt?.close();
});

const TASK_A = '01JD0000000000000000000B01';
const TASK_B = '01JD0000000000000000000B02';

// 6 000 paragraphs (~420 KB): over the 256 KB inline limit, so the extension stores an artifact.
const paragraphs = Array.from(
  { length: 6_000 },
  (_, i) =>
    `Paragraph ${i}: the SELECT statement returns rows computed from table ${i % 97} joined with index ${i % 13}.`,
);
const bigText = paragraphs.join('\n');
// 1 000 elements, 800 px viewport: elements 1-20 are in view (40 px apart), the rest below it.
const elements = Array.from({ length: 1_000 }, (_, i) => ({
  clickId: i + 1,
  tag: 'a',
  text: `Section ${i + 1} link`,
  href: `http://127.0.0.1:9/big#s${i + 1}`,
  bbox: { x: 10, y: i * 40, w: 200, h: 20 },
}));

function hugePage(rt: TestRuntime, taskId: string): Answerer {
  return async (name, params) => {
    if (name === 'task_start')
      return {
        result: {
          status: 'success',
          result: {
            tabId: taskId === TASK_A ? 101 : 202,
            windowId: 1,
            groupId: taskId === TASK_A ? 5 : 6,
            url: String(params.url),
          },
        },
      };
    if (name === 'browser_readability_extract') {
      const stored = await rt.server.artifacts.putArtifact({
        taskId,
        kind: 'readability',
        contentType: 'text/markdown; charset=utf-8',
        bytes: bigText,
      });
      return {
        result: {
          status: 'success',
          result: {
            title: 'SELECT',
            artifactId: stored.artifactId,
            truncated: true,
            contentLengthBytes: bigText.length,
          },
        },
      };
    }
    if (name === 'browser_screenshot')
      return {
        result: {
          status: 'success',
          result: { artifactId: 'art-abcdefghijklmnop', url: 'http://x/a', width: 1280, height: 800 },
        },
      };
    if (name === 'browser_dom_index') return { result: { status: 'success', result: { elements } } };
    return okAnswer(name, params);
  };
}

/** Tokens of a step's page context: the newest tool result carrying a page payload plus the browser-state message. */
function stepContextTokens(messages: LlmMessage[]): number {
  const state = messages.find((m) => m.role === 'system' && m.content.startsWith('Current browser state'))!;
  const tools = messages.filter((m) => m.role === 'tool' && !m.content.includes('superseded'));
  return countTokens(state.content) + (tools.length ? countTokens(tools.at(-1)!.content) : 0);
}

async function runtimeWith(llm: LlmGateway, contextTokens?: number) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({
    ackTimeoutMs: 500,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) =>
      createAgentOrchestrator(services, {
        llm,
        inspection,
        pagePrepBackoffMs: [20],
        ...(contextTokens ? { contextTokens } : {}),
      }),
  });
}

const userMessage = (taskId: string, content: string, id: string) => ({
  v: 1,
  type: 'user_message',
  id,
  timestamp: Date.now(),
  taskId,
  content,
});

test('a 420 KB page read back from its artifact: every step within 4000 tokens, in-view elements first, paging reaches the rest', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/big' }),
    (input) => callTool('browser_read_page_text', { offset: input.context!.page!.paging!.textEnd }, 'call-text'),
    () => callTool('browser_list_elements', { page: 2 }, 'call-list'),
    () => callTool('browser_list_elements', { query: 'section 777' }, 'call-query'),
    () => say('done'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: hugePage(rt, TASK_A) });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage(TASK_A, 'read the big page', 'evt-a1'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    10_000,
    'ongoing',
  );
  assert.is(llm.calls.length, 5);
  const perStep = llm.calls.slice(1).map((c) => stepContextTokens(c.messages));
  for (const tokens of perStep)
    assert.ok(tokens <= 4_000, `step context ${tokens} tokens > 4000 (${perStep.join(', ')})`);
  assert.ok(perStep[0]! > 3_000, `the budget is used, not wasted: ${perStep[0]}`);

  const page = llm.calls[1]!.context!.page!;
  assert.ok(page.text!.startsWith('Paragraph 0: the SELECT statement'), 'the text came back from the artifact');
  assert.is(page.truncated, true);
  assert.is(page.paging!.textTotal, bigText.length);
  assert.is(page.paging!.elementsTotal, 1_000);
  assert.match(page.paging!.howTo, /browser_read_page_text/);
  assert.match(page.paging!.howTo, /browser_list_elements/);
  // All 20 elements in the 800 px viewport are shown; what follows them is nearer the top first.
  const shown = page.elements.map((e) => e.clickId);
  for (let id = 1; id <= 20; id++) assert.ok(shown.includes(id), `in-view element ${id} listed`);
  assert.ok(shown.length < 1_000 && shown.length >= 20);
  assert.equal(
    shown,
    [...shown].sort((a, b) => a - b),
    'listed in document order',
  );

  const text = JSON.parse(llm.calls[2]!.messages.at(-2)!.content).result.pageText;
  assert.is(text.offset, page.paging!.textEnd);
  assert.ok(
    bigText.slice(text.offset).startsWith(text.text),
    'the next window continues where the page context stopped',
  );
  assert.ok(text.nextOffset > text.offset);

  const listed = JSON.parse(llm.calls[3]!.messages.at(-2)!.content).result.elementsPage;
  assert.is(listed.page, 2);
  assert.ok(listed.pages > 2 && listed.elements.length > 10);
  const queried = JSON.parse(llm.calls[4]!.messages.at(-2)!.content).result.elementsPage;
  assert.equal(
    queried.elements.map((e: { clickId: number }) => e.clickId),
    [777],
  );
  // Older payloads are superseded: only the newest page-ish result stays in the conversation.
  const pagesInLastCall = llm.calls[4]!.messages.filter((m) => m.role === 'tool' && !m.content.includes('superseded'));
  assert.is(pagesInLastCall.length, 1);
  web.close();
  plugin.close();
});

test('MIMO_CONTEXT_TOKENS-sized budgets are honoured (2000 tokens)', async (ctx) => {
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/big' }), () => say('ok')]);
  const rt = (ctx.rt = await runtimeWith(llm, 2_000));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: hugePage(rt, TASK_A) });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage(TASK_A, 'read', 'evt-a1'));
  await eventually(() => llm.calls.length === 2, 10_000, 'second call');
  const tokens = stepContextTokens(llm.calls[1]!.messages);
  assert.ok(tokens <= 2_000 && tokens > 1_500, `${tokens}`);
  web.close();
  plugin.close();
});

test('a stopped task closes its tab (task_stop closeTab) and its tabs leave the next task prompt', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/big' }),
    () => say('A done'),
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/big' }, 'call-b'),
    () => say('B here'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const tabs = [
    {
      tabId: 1,
      windowId: 1,
      active: true,
      pinned: false,
      hidden: false,
      index: 0,
      url: 'http://127.0.0.1/',
      title: 'Home',
    },
    {
      tabId: 101,
      windowId: 1,
      active: false,
      pinned: false,
      hidden: false,
      index: 1,
      url: 'http://127.0.0.1:9/big',
      title: 'SELECT',
      groupId: 5,
    },
    {
      tabId: 102,
      windowId: 1,
      active: false,
      pinned: false,
      hidden: false,
      index: 2,
      url: 'http://127.0.0.1:9/other',
      title: 'Opened by A',
      groupId: 5,
    },
  ];
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-a',
    answer: (name, params, frame) => hugePage(rt, frame.taskId)(name, params, frame),
    snapshot: { tabs, tabGroups: [{ groupId: 5, windowId: 1, title: 'Mimo b01' }] },
  });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage(TASK_A, 'open', 'evt-a1'));
  await eventually(
    () => web.events.some((e) => e.taskId === TASK_A && e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    10_000,
    'A ongoing',
  );
  const seenByA = JSON.parse(
    llm.calls[1]!.messages.find((m) => m.content.startsWith('Current browser state'))!.content.slice(23),
  );
  assert.equal(
    seenByA.tabs.map((t: { tabId: number }) => t.tabId),
    [1, 101, 102],
  );
  const stopped = await web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'stop_task',
    id: 'evt-a-stop',
    timestamp: Date.now(),
    taskId: TASK_A,
  });
  assert.is(stopped.ok, true, JSON.stringify(stopped));
  await eventually(() => plugin.received.some((f) => 'task_stop' in f.action), 5_000, 'task_stop sent');
  assert.equal(plugin.received.find((f) => 'task_stop' in f.action)!.action.task_stop, { closeTab: true });
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage(TASK_B, 'hello', 'evt-b1'));
  await eventually(() => llm.calls.length === 4, 5_000, 'B asked');
  const seenByB = JSON.parse(
    llm.calls[3]!.messages.find((m) => m.content.startsWith('Current browser state'))!.content.slice(23),
  );
  assert.is(seenByB.taskTabId, 202);
  assert.equal(
    seenByB.tabs.map((t: { tabId: number }) => t.tabId),
    [1],
    'the finished task tab and its group tab are gone',
  );
  web.close();
  plugin.close();
});

test.run();
