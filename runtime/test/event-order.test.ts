// One order everywhere (issue 22 item 4): every frontend event of a task carries the task's seq,
// the web receives them in that order with a step's result before the next step's start, and
// the stored messages keep the seq of their event, so a reload sorts them as the live view did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { UrlCheck } from '../agent/task-browser-types.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { deferred, okAnswer, startFakePlugin, type Answerer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, settle, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000E01';
const test = suite<{ rt: TestRuntime }>('event order', { rt: undefined as never });

const pageAnswer: Answerer = (name, params) => {
  if (name === 'browser_readability_extract')
    return { result: { status: 'success', result: { title: 'Article', text: 'Otters hold hands while sleeping.' } } };
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

/** A URL re-check that answers a few event-loop turns later (as a DNS lookup of the policy would). */
const slowCheck: UrlCheck = async () => {
  await settle(3);
  return { ok: true };
};

async function runtimeWith(
  llm: LlmGateway,
  extra: { checkFinalUrl?: UrlCheck } = {},
  store: { dir?: string; persistent?: boolean } = {},
) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({
    ...store,
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

/** Problems with the order of toolUsed events as they arrived: a start before an earlier action's settle. */
function orderProblems(events: any[]): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  for (const e of events) {
    if (e.event.type !== 'toolUsed' || !e.event.actionId) continue;
    const { actionId, actionName, phase } = e.event;
    if (phase === 'start') {
      if (open.size > 0) problems.push(`${actionName} started while ${[...open].join(', ')} had not settled`);
      open.add(actionId);
    } else open.delete(actionId);
  }
  return problems;
}

test.after.each(async (ctx) => {
  await ctx.rt?.close();
});

test('a read whose URL re-check is slow: its result still reaches the web before the next step starts; seq 1, 2, ... in arrival order', async (ctx) => {
  const llm = scriptedLlm([
    () => callTool('browser_open', { url: 'http://127.0.0.1:9/article' }),
    () => say('Otters hold hands.'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm, { checkFinalUrl: slowCheck }));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-order', answer: pageAnswer });
  const web = await connectWeb(rt.server.url);
  assert.is(
    (await web.timeout(5_000).emitWithAck('frontend_message', userMessage('read http://127.0.0.1:9/article'))).ok,
    true,
  );
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  const task = web.events.filter((e) => e.taskId === TASK);
  const reads = task.filter((e) => e.event.type === 'toolUsed' && /screenshot|readability/.test(e.event.actionName));
  assert.ok(reads.length >= 4, 'the page preparation ran its two reads');
  assert.equal(orderProblems(task), []);
  assert.equal(
    task.map((e) => e.seq),
    task.map((_, i) => i + 1),
    'one seq per task event, in the order they arrived',
  );
  assert.is(task[0].event.type, 'userMessage');
  assert.is(task[0].event.messageId, 'evt-user-1');
  web.close();
  plugin.close();
});

test('a reload sorts the stored messages by their seq as the live view showed their events', async (ctx) => {
  const llm = scriptedLlm([
    () => [...say('Opening it.').slice(0, 1), ...callTool('browser_open', { url: 'http://127.0.0.1:9/article' })],
    () => say('Otters hold hands.'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm, { checkFinalUrl: slowCheck }));
  const plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-order', answer: pageAnswer });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('read http://127.0.0.1:9/article'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    5_000,
    'ongoing',
  );
  const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
  const seqOf = new Map<string, number>();
  for (const e of web.events) {
    if (e.event.type === 'userMessage') seqOf.set(`user:${e.event.messageId}`, e.seq);
    if (e.event.type === 'toolUsed' && e.event.phase === 'start') seqOf.set(`tool:${e.event.actionId}`, e.seq);
    if (e.event.type === 'toolUsed' && e.event.phase !== 'start') seqOf.set(`settle:${e.event.actionId}`, e.seq);
  }
  for (const m of detail.messages) {
    assert.type(m.meta?.seq, 'number', `${m.role} message has a seq`);
    if (m.role === 'user') assert.is(m.meta.seq, seqOf.get(`user:${m.id}`));
    if (m.role === 'tool') {
      assert.is(
        m.meta.seq,
        seqOf.get(`tool:${m.meta.actionId}`),
        `${m.meta.actionName} sorts at its start event's seq`,
      );
      assert.is(
        m.meta.settleSeq,
        seqOf.get(`settle:${m.meta.actionId}`),
        `${m.meta.actionName} keeps its settle event's seq`,
      );
    }
  }
  const assistant = detail.messages.find((m: any) => m.role === 'assistant');
  assert.equal(
    assistant.meta.segments.map((s: any) => s.text.trim()),
    ['Opening it.', 'Otters hold hands.'],
  );
  const firstDelta = web.events.find((e) => e.event.type === 'chatDelta');
  assert.is(assistant.meta.seq, firstDelta.seq, 'the answer sits where its first text was shown');
  const tools = detail.messages.filter((m: any) => m.role === 'tool');
  assert.ok(
    assistant.meta.segments[0].seq < tools[0].meta.seq && assistant.meta.segments[1].seq > tools.at(-1).meta.seq,
    'the segments sit around the steps',
  );
  web.close();
  plugin.close();
});

test('stop during an action: the stop note comes before the canceled step and the status change', async (ctx) => {
  const hold = deferred();
  const llm = scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/article' }), () => say('never')]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-order',
    answer: async (name, params, frame) => {
      if (name === 'browser_wait_for_loaded') await hold.promise;
      return pageAnswer(name, params, frame);
    },
  });
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('read http://127.0.0.1:9/article'));
  await eventually(
    () => web.events.some((e) => e.event.type === 'toolUsed' && e.event.actionName === 'browser_wait_for_loaded'),
    5_000,
    'the wait in flight',
  );
  const stopped = await web
    .timeout(5_000)
    .emitWithAck('frontend_message', { v: 1, type: 'stop_task', id: 'ctl-stop', timestamp: Date.now(), taskId: TASK });
  assert.is(stopped.ok, true);
  await eventually(
    () => web.events.some((e) => e.event.type === 'toolUsed' && e.event.phase === 'error'),
    5_000,
    'the canceled step',
  );
  hold.resolve();
  const task = web.events.filter((e) => e.taskId === TASK);
  const note = task.findIndex(
    (e) => e.event.type === 'structuredOutput' && /stopped by the user/.test(e.event.message ?? ''),
  );
  const canceled = task.findIndex((e) => e.event.type === 'toolUsed' && e.event.phase === 'error');
  const completed = task.findIndex((e) => e.event.type === 'taskStatus' && e.event.status === 'completed');
  assert.ok(
    note >= 0 && note < completed && note < canceled,
    `note ${note}, completed ${completed}, canceled ${canceled}`,
  );
  assert.equal(
    task.map((e) => e.seq),
    task.map((_, i) => i + 1),
  );
  web.close();
  plugin.close();
});

test('a message sent while a turn runs: its turn comes after, and its history holds the first answer', async (ctx) => {
  const hold = deferred();
  const llm = scriptedLlm([
    async () => {
      await hold.promise;
      return say('First answer.');
    },
    () => say('Second answer.'),
  ]);
  const rt = (ctx.rt = await runtimeWith(llm));
  const web = await connectWeb(rt.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('first'));
  await eventually(() => llm.calls.length === 1, 5_000, 'the first turn asks the model');
  await web.timeout(5_000).emitWithAck('frontend_message', userMessage('second', 'evt-user-2'));
  hold.resolve();
  await eventually(
    () =>
      llm.calls.length === 2 && web.events.filter((e) => e.event.type === 'chatDelta' && e.event.finished).length === 2,
    5_000,
    'both turns done',
  );
  const history = llm.calls[1]!.messages.filter((m) => m.role !== 'system').map((m) => `${m.role}:${m.content}`);
  assert.equal(history, ['user:first', 'assistant:First answer.', 'user:second']);
  const task = web.events.filter((e) => e.taskId === TASK);
  const shown = task
    .filter((e) => e.event.type === 'userMessage' || (e.event.type === 'chatDelta' && e.event.delta.content))
    .map((e) => e.event.content ?? e.event.delta.content);
  assert.equal(
    shown,
    ['first', 'second', 'First answer.', 'Second answer.'],
    'the second message was taken while the first answer was pending',
  );
  web.close();
});

test('after a restart the task goes on after the seq its history holds (a reload keeps one order)', async (ctx) => {
  const dir = mkdtempSync(join(tmpdir(), 'mimo-seq-'));
  try {
    const first = (ctx.rt = await runtimeWith(scriptedLlm([() => say('One.')]), {}, { dir, persistent: true }));
    const web = await connectWeb(first.server.url);
    await web.timeout(5_000).emitWithAck('frontend_message', userMessage('first'));
    await eventually(
      () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
      5_000,
      'ongoing',
    );
    web.close();
    const stored = (await (await fetch(`${first.server.url}/api/task/${TASK}`)).json()).data.messages;
    const before = Math.max(...stored.map((m: any) => m.meta.seq));
    await first.close();
    const second = (ctx.rt = await runtimeWith(scriptedLlm([() => say('Two.')]), {}, { dir, persistent: true }));
    const again = await connectWeb(second.server.url);
    await again.timeout(5_000).emitWithAck('frontend_message', userMessage('second', 'evt-user-2'));
    await eventually(
      () => again.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
      5_000,
      'ongoing again',
    );
    const seqs = again.events.filter((e) => e.taskId === TASK).map((e) => e.seq);
    assert.is(seqs[0], before + 1, 'the first event after the restart follows the stored ones');
    assert.equal(
      seqs,
      seqs.map((_: number, i: number) => before + 1 + i),
    );
    const messages = (await (await fetch(`${second.server.url}/api/task/${TASK}`)).json()).data.messages;
    const order = [...messages]
      .sort((a: any, b: any) => a.meta.seq - b.meta.seq)
      .map((m: any) => `${m.role}:${m.content}`);
    assert.equal(order, ['user:first', 'assistant:One.', 'user:second', 'assistant:Two.']);
    again.close();
  } finally {
    await ctx.rt?.close();
    ctx.rt = undefined as never;
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
