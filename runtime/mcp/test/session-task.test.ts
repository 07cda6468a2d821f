// An MCP session's tab runs its browser actions as children of its own task actor (a tool task,
// runtime/agent/tool-task.ts): not a chat task, but inspected, held by a takeover until Resume,
// and stopped on the plugin when the MCP client cancels its call (extra.signal).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { InspectionEvent } from 'xstate';
import { createAgentOrchestrator } from '../../agent/orchestrator.ts';
import { createInspectionHub } from '../../agent/inspection-hub.ts';
import type { LlmGateway } from '../../llm/llm-types.ts';
import { eventually, settle } from '../../test/util.ts';
import { startMcp, type McpHarness } from './mcp-harness.ts';

interface Ctx {
  h: McpHarness;
  release: () => void;
  inspected: Map<string, InspectionEvent[]>;
}

const URL_A = 'https://a.test/';
const test = suite<Ctx>('MCP session task actor');

test.before.each(async (ctx) => {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  ctx.release = release;
  ctx.inspected = new Map();
  const inspectFor = (taskId: string) => (event: InspectionEvent) => {
    const list = ctx.inspected.get(taskId) ?? [];
    list.push(event);
    ctx.inspected.set(taskId, list);
  };
  ctx.h = await startMcp({
    pages: {
      [URL_A]: {
        title: 'A',
        text: 'page a',
        elements: [{ tag: 'button', text: 'Go', role: 'button', name: 'Go' } as never],
        hold,
      },
    },
    server: {
      inspectFor,
      control: (services) =>
        createAgentOrchestrator(services, {
          llm: {} as LlmGateway,
          inspection: createInspectionHub({ clock: services.clock }),
        }),
    },
  });
});
test.after.each(async (ctx) => {
  ctx.release();
  await ctx.h.close();
});

const mainOf = (h: McpHarness, sessionId: string) => h.routes.mcp.sessions.get(sessionId)!.main!;
const actionsOf = (h: McpHarness, taskId: string) =>
  h.plugin!.received.filter((f) => f.taskId === taskId).map((f) => Object.keys(f.action)[0]);

test('its actions run in its own task actor, inspected, and it is not a chat task', async ({ h, inspected }) => {
  assert.is((await h.shell('s1', ['open', URL_A])).exit_code, 0);
  const page = mainOf(h, 's1');
  const tree = h.runtime.server.tasks.get(page.taskId);
  assert.ok(tree, 'the tab has a live task tree');
  assert.is(tree!.kind, 'tool');
  assert.is(tree!.clientId(), 'plugin-mcp');
  assert.is(await h.runtime.server.taskStore.getTask(page.taskId), undefined, 'no chat task is stored for it');
  const actors = new Set(
    (inspected.get(page.taskId) ?? [])
      .filter((e) => e.type === '@xstate.actor')
      .map((e) => (e.actorRef as unknown as { id: string }).id),
  );
  assert.ok(actors.has(`task:${page.taskId}`), 'the task actor is inspected');
  const actionStates = (inspected.get(page.taskId) ?? [])
    .filter(
      (e) => e.type === '@xstate.snapshot' && (e.actorRef as unknown as { id: string }).id === `task:${page.taskId}`,
    )
    .map((e) => (e as unknown as { snapshot: { value: { action?: string } } }).snapshot.value.action);
  assert.ok(
    actionStates.includes('awaitingAck') && actionStates.includes('executing'),
    `its actions run in the task actor's action region, inspected: ${actionStates.join(', ')}`,
  );
  assert.ok(actionsOf(h, page.taskId).includes('task_start'));
});

test('a takeover reported by the plugin holds the next action until Resume', async ({ h }) => {
  assert.is((await h.shell('s1', ['open', URL_A])).exit_code, 0);
  const page = mainOf(h, 's1');
  const taken = await h.plugin!.send({
    v: 1,
    type: 'takeover_report',
    taskId: page.taskId,
    clientId: 'plugin-mcp',
    timestamp: Date.now(),
    reason: 'user_click',
  });
  assert.is(taken.ok, true, JSON.stringify(taken));
  const before = actionsOf(h, page.taskId).length;
  const snapshot = h.shell('s1', ['snapshot', '-i']);
  await eventually(
    () => (h.runtime.server.tasks.get(page.taskId)!.actor.getSnapshot().context.pendingActions.length ?? 0) === 1,
    5_000,
    'the action waits in the task',
  );
  await h.plugin!.send({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_activated',
    tabId: page.tabId!,
    windowId: 1,
    timestamp: Date.now(),
  }); // a round trip
  await settle();
  assert.is(actionsOf(h, page.taskId).length, before, 'nothing dispatched during the takeover');
  const resumed = await h.plugin!.send({
    v: 1,
    type: 'overlay_command',
    taskId: page.taskId,
    clientId: 'plugin-mcp',
    timestamp: Date.now(),
    command: 'resume',
  });
  assert.is(resumed.ok, true, JSON.stringify(resumed));
  const reply = await snapshot;
  assert.is(reply.exit_code, 0, reply.stderr);
  assert.is(actionsOf(h, page.taskId).at(-1), 'browser_dom_index');
});

test("the MCP client's cancel stops the action in flight on the plugin; the session goes on", async ({
  h,
  release,
}) => {
  assert.is((await h.shell('s1', ['open', URL_A])).exit_code, 0);
  const page = mainOf(h, 's1');
  const abort = new AbortController();
  const reading = h
    .call('browser-shell', { session_id: 's1', argv: ['snapshot'] }, { signal: abort.signal })
    .catch((error: unknown) => error);
  await eventually(
    () => actionsOf(h, page.taskId).at(-1) === 'browser_readability_extract',
    5_000,
    'the read is in flight',
  );
  const readId = h.plugin!.received.at(-1)!.id;
  abort.abort();
  await eventually(() => actionsOf(h, page.taskId).at(-1) === 'task_stop', 5_000, 'task_stop sent to the plugin');
  const stop = h.plugin!.received.at(-1)!;
  assert.equal((stop.action as Record<string, unknown>).task_stop, { closeTab: false });
  assert.ok(h.runtime.server.scheduler.actorOf(readId) === undefined, 'the read is no longer in flight');
  assert.ok((await reading) instanceof Error, 'the client saw its call canceled');
  release();
  const again = await h.shell('s1', ['snapshot', '-i']);
  assert.is(again.exit_code, 0, again.stderr);
});

test('closing a session whose tab is taken over does not wait for Resume: the tab closes', async ({ h }) => {
  assert.is((await h.shell('s1', ['open', URL_A])).exit_code, 0);
  const page = mainOf(h, 's1');
  const taken = await h.plugin!.send({
    v: 1,
    type: 'takeover_report',
    taskId: page.taskId,
    clientId: 'plugin-mcp',
    timestamp: Date.now(),
    reason: 'user_click',
  });
  assert.is(taken.ok, true);
  const closed = await h.shell('s1', ['close']);
  assert.is(closed.exit_code, 0, closed.stderr);
  assert.equal((h.plugin!.received.at(-1)!.action as Record<string, unknown>).task_stop, { closeTab: true });
  assert.is(h.runtime.server.tasks.get(page.taskId), undefined, 'its task actor is gone with the tab');
});

test.run();
