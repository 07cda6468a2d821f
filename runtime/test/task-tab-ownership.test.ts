// One owner of a task's tab (runtime/agent/task-tab.ts) for the agent and MCP. An agent task
// (the orchestrator, a scripted LLM calling browser_open) and an MCP page driver run against the
// same fake plugin on the real socket.io-client, under the same real URL policy: a blocked URL is
// refused the same way before any frame is sent, a redirect to a blocked host sends the same
// frames on both paths (task_start with the URL the policy checked, attach, wait, then the tab
// parked on about:blank), and both know the tab and its URL the same way, through the same API.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ulid } from 'ulid';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { createPageDriver } from '../mcp/browser/page-driver.ts';
import type { RuntimeServices } from '../services/runtime-services.ts';
import { createUrlPolicy, parseUrlPolicyConfig } from '../url-policy/index.ts';
import { okAnswer, startFakePlugin, type Answerer, type FakePlugin } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const AGENT_TASK = '01JD0000000000000000000T01';
const test = suite<{ rt: TestRuntime; plugin: FakePlugin; web: Awaited<ReturnType<typeof connectWeb>> }>(
  'task tab: one owner for the agent and MCP',
  {} as never,
);

const parsed = parseUrlPolicyConfig({ open: { allow_hosts: ['allowed.example'] } });
if (!parsed.ok) throw new Error(parsed.errors.join());
const policy = createUrlPolicy({
  config: parsed.config,
  resolve: async () => [{ address: '93.184.215.14', family: 4 }],
});

/** The browser: `/redirect` pages land on a host the policy blocks (the wait reports the final URL). */
const answer: Answerer = (name, params) => {
  if (name === 'browser_wait_for_loaded') {
    return {
      result: {
        status: 'success',
        result: { status: 'complete', url: 'https://blocked.example/landing', title: 'Landing' },
      },
    };
  }
  return okAnswer(name, params);
};

async function setUp(llmSteps: Parameters<typeof scriptedLlm>[0]) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  let services!: RuntimeServices;
  const rt = await startRuntime({
    ackTimeoutMs: 2_000,
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (s) => {
      services = s;
      return createAgentOrchestrator(s, {
        llm: scriptedLlm(llmSteps),
        inspection,
        checkUrl: policy.check,
        checkFinalUrl: policy.checkFinal,
        pagePrepBackoffMs: [20],
      });
    },
  });
  const orchestrator = rt.server.control as ReturnType<typeof createAgentOrchestrator>;
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-tab', answer });
  const web = await connectWeb(rt.server.url);
  const driver = createPageDriver(services, {
    groupTitle: 'MCP tab test',
    checkUrl: policy.check,
    checkFinalUrl: policy.checkFinal,
    taskId: ulid(),
  });
  for (const taskId of [AGENT_TASK, driver.taskId]) {
    await web.timeout(5_000).emitWithAck('frontend_message', {
      v: 1,
      type: 'subscribe_task',
      id: `evt-${ulid()}`,
      timestamp: Date.now(),
      taskId,
    });
  }
  return { rt, plugin, web, driver, orchestrator };
}

/** What the plugin was asked to do for one task: action names and the URL task_start got. */
const framesOf = (plugin: FakePlugin, taskId: string) =>
  plugin.received
    .filter((f) => f.taskId === taskId)
    .map((f) => {
      const [name, params] = Object.entries(f.action)[0]!;
      return name === 'task_start' ? `${name} ${String(params.url)}${params.reuseExistingTab ? ' (reuse)' : ''}` : name;
    });

const refusedSteps = (web: { events: any[] }, taskId: string) =>
  web.events
    .filter((e) => e.taskId === taskId && e.event.type === 'toolUsed' && e.event.phase === 'error')
    .map((e) => [e.event.actionName, e.event.error.code, e.event.error.details?.reason]);

/** The same URL opened by an agent task (browser_open from the LLM) and by an MCP page driver. */
async function openOnBoth(ctx: Record<string, unknown>, url: string) {
  let toolResult: any;
  const env = await setUp([
    () => callTool('browser_open', { url }),
    (input) => {
      toolResult = JSON.parse(input.messages.find((m) => m.role === 'tool')!.content);
      return say('done');
    },
  ]);
  Object.assign(ctx, { rt: env.rt, plugin: env.plugin, web: env.web });
  await env.web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: `evt-${ulid()}`,
    timestamp: Date.now(),
    taskId: AGENT_TASK,
    content: `open ${url}`,
  });
  await eventually(() => toolResult !== undefined, 5_000, 'the agent got the tool result');
  const mcp = await env.driver.open(url);
  return { ...env, toolResult, mcp };
}

test.after.each(async (ctx) => {
  ctx.web?.close();
  ctx.plugin?.close();
  await ctx.rt?.close();
});

test('a blocked URL: refused the same way on both paths, before any frame is sent', async (ctx) => {
  const { plugin, web, driver, toolResult, mcp } = await openOnBoth(ctx, 'https://blocked.example/');

  // The LLM sees the code and the message (no details).
  assert.equal([toolResult.ok, toolResult.error.code], [false, 'URL_BLOCKED']);
  assert.equal(mcp.ok ? null : [mcp.error.code, (mcp.error.details as any).reason], ['URL_BLOCKED', 'not_allowlisted']);
  assert.equal(mcp.ok ? null : mcp.error.message, toolResult.error.message, 'the same refusal');
  assert.equal(framesOf(plugin, AGENT_TASK), [], 'the agent sent nothing');
  assert.equal(framesOf(plugin, driver.taskId), [], 'MCP sent nothing');
  await eventually(
    () => refusedSteps(web, driver.taskId).length === 1 && refusedSteps(web, AGENT_TASK).length === 1,
    5_000,
    'both refusals shown as steps',
  );
  assert.equal(refusedSteps(web, driver.taskId), refusedSteps(web, AGENT_TASK));
  assert.equal(refusedSteps(web, AGENT_TASK), [['task_start', 'URL_BLOCKED', 'not_allowlisted']]);
});

test('a redirect to a blocked host: the same frames on both paths, the tab parked, the same tab state', async (ctx) => {
  // Upper case: the browser gets the form the policy checked, on both paths.
  const { plugin, driver, orchestrator, toolResult, mcp } = await openOnBoth(ctx, 'HTTPS://Allowed.Example/redirect');

  const expected = [
    'task_start https://allowed.example/redirect',
    'browser_debugger_attach',
    'browser_wait_for_loaded',
    'task_start about:blank (reuse)',
  ];
  assert.equal(framesOf(plugin, AGENT_TASK), expected, 'agent frames');
  assert.equal(framesOf(plugin, driver.taskId), expected, 'MCP frames');
  assert.equal([toolResult.ok, toolResult.error.code], [false, 'URL_BLOCKED']);
  assert.equal(mcp.ok ? null : [mcp.error.code, (mcp.error.details as any).stage, mcp.error.message], [
    'URL_BLOCKED',
    'final',
    toolResult.error.message,
  ]);

  // The same tab owner on both: the tab is known, parked on about:blank, not closed.
  const agentTab = orchestrator.sessionOf(AGENT_TASK)!.browser.tab;
  for (const tab of [agentTab, driver.tab]) {
    assert.equal([tab.tabId, tab.currentUrl(), tab.closed], [101, 'about:blank', false]);
  }
  assert.equal(Object.keys(agentTab).sort(), Object.keys(driver.tab).sort(), 'one API');

  // Closing goes through the same owner: task_stop closing the tab, then no navigation any more.
  assert.equal(await driver.close(), { ok: true, value: { closed: true } });
  assert.is(framesOf(plugin, driver.taskId).at(-1), 'task_stop');
  assert.equal([driver.tab.closed, driver.tab.tabId], [true, null]);
  const again = await driver.tab.navigate({ toolCallId: 'after-close' }, 'https://allowed.example/');
  assert.equal(again.ok ? null : again.error.code, 'TASK_TAB_CLOSED');
  assert.is(framesOf(plugin, driver.taskId).length, expected.length + 1, 'nothing sent after close');
});

test.run();
