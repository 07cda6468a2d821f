// Faults across three node processes on one PostgreSQL, seen from outside as an operator would:
// web clients (real socket.io-client) on A and C, the fake extension on B (its second click can
// be held per task), the mock model deterministic by conversation. Each test drives a task whose
// owner is A (the node its first message reached, naming the site: issue 23's scope) while that
// turn is held at the extension; the messages after it name none (the new owner rebuilds the
// scope from the stored ones):
// - more messages during the turn (one forwarded from C) queue on the live actor: no takeover;
//   then kill -9 of A: the interrupted turn and the queued ones run once each, in order;
// - stop_task from C during the turn is run by A: no takeover;
// - a message to the cluster while the new owner replays the interrupted turn queues behind it;
// - SIGTERM of A mid-turn: the action settles, A hands over and exits 0; no "stopped" note;
// - a PostgreSQL restart mid-turn (with a message acknowledged during the outage): no node exits,
//   the sockets stay, the task goes on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMockOpenAiServer, type MockOpenAiServer } from '../../llm/mock-openai-server.ts';
import { startFakePlugin, type FakePlugin } from '../../test-util/fake-plugin.ts';
import { connectWeb, eventually } from '../../test/util.ts';
import { CLUSTER_TOKEN, startClusterHarness, type ClusterHarness, type NodeProcess } from './cluster-harness.ts';
import { answers, historyOf, holdingAnswerer, model, notes, SITE, userMessage } from './cluster-scenario.ts';

type Web = Awaited<ReturnType<typeof connectWeb>>;

interface Ctx {
  h: ClusterHarness;
  llm: MockOpenAiServer;
  a: NodeProcess;
  b: NodeProcess;
  c: NodeProcess;
  plugin: FakePlugin;
  holds: ReturnType<typeof holdingAnswerer>;
}

const TOOK_OVER = /took it over/;
const faults = suite<Ctx>('cluster faults: 3 node processes, 1 PostgreSQL');

faults.before(async (ctx) => {
  ctx.llm = await startMockOpenAiServer({ script: model });
  ctx.h = await startClusterHarness({ OPENAI_BASE_URL: ctx.llm.url, OPENAI_API_KEY: 'test-key', MIMO_MODEL: 'mock' });
  [ctx.a, ctx.b, ctx.c] = (await Promise.all(['node-a', 'node-b', 'node-c'].map((n) => ctx.h.startNode(n)))) as [
    NodeProcess,
    NodeProcess,
    NodeProcess,
  ];
  ctx.holds = holdingAnswerer();
  ctx.plugin = await startFakePlugin({
    url: ctx.b.url,
    clientId: 'plugin-b',
    answer: ctx.holds.answer,
    dedupe: true,
    token: CLUSTER_TOKEN,
  });
  for (const node of [ctx.a, ctx.c]) {
    await eventually(
      async () => {
        const body = (await (
          await fetch(`${node.url}/api/extension/extension-list`, {
            headers: { Authorization: `Bearer ${CLUSTER_TOKEN}` },
          })
        ).json()) as any;
        return body.data.some((e: any) => e.clientId === 'plugin-b' && e.socketConnected);
      },
      10_000,
      `${node.name} to see the extension`,
    );
  }
});

faults.after(async (ctx) => {
  ctx.plugin?.close();
  await ctx.h?.close();
  await ctx.llm?.close();
});

const send = async (web: Web, taskId: string, content: string) => {
  const ack = await web.timeout(30_000).emitWithAck('frontend_message', userMessage(taskId, content));
  assert.is(ack.ok, true, JSON.stringify(ack));
  return ack;
};
const clicksOf = (ctx: Ctx, taskId: string, list: 'received' | 'executed') =>
  ctx.plugin[list]
    .filter((f) => f.taskId === taskId && 'browser_click' in f.action)
    .map((f) => ({ id: f.id, clickId: (f.action.browser_click as { clickId: number }).clickId }));
/** Tabs opened (browser_open runs as task_start): one per turn that opens a page. */
const startsOf = (ctx: Ctx, taskId: string) =>
  ctx.plugin.executed.filter((f) => f.taskId === taskId && 'task_start' in f.action).length;
const heldClickReached = (ctx: Ctx, taskId: string) =>
  eventually(
    () => clicksOf(ctx, taskId, 'received').some((c) => c.clickId === 2),
    20_000,
    'the held click to reach the extension',
  );
function noDuplicateExecution(ctx: Ctx, taskId: string): void {
  const executed = ctx.plugin.executed.filter((f) => f.taskId === taskId);
  assert.is(new Set(executed.map((f) => f.id)).size, executed.length, 'no actionId executed twice');
}
async function restartA(ctx: Ctx): Promise<void> {
  ctx.a = await ctx.h.startNode('node-a');
}
faults.before.each(async (ctx) => {
  if (ctx.a.child.exitCode !== null || ctx.a.child.signalCode !== null) await restartA(ctx);
});

faults(
  'messages during a turn queue on the owner (no takeover); after kill -9 the interrupted turn and the queued ones run once each, in order',
  async (ctx) => {
    const task = '01JD00000000000000000F0001';
    const webA = await connectWeb(ctx.a.url, { token: CLUSTER_TOKEN });
    const webC = await connectWeb(ctx.c.url, { token: CLUSTER_TOKEN });
    ctx.holds.hold(task);
    await send(webA, task, `Please click both on ${SITE}`);
    await heldClickReached(ctx, task);
    await send(webC, task, 'Then click three'); // forwarded to A
    await send(webA, task, 'And open one'); // local on A
    await new Promise((r) => setTimeout(r, 500));
    const before = await historyOf(ctx.c.url, task);
    assert.is(notes(before.messages, TOOK_OVER).length, 0, 'no takeover while the owner lives');
    assert.is(startsOf(ctx, task), 1, 'the turn did not start twice');
    ctx.a.kill9();
    await new Promise((r) => ctx.a.child.once('exit', r));
    await eventually(
      () => clicksOf(ctx, task, 'received').filter((c) => c.clickId === 2).length === 2,
      10_000,
      'the in-flight click to be re-sent',
    );
    const twos = clicksOf(ctx, task, 'received').filter((c) => c.clickId === 2);
    assert.is(twos[1]!.id, twos[0]!.id, 're-sent under its first actionId');
    ctx.holds.release(task);
    await eventually(
      async () => answers((await historyOf(ctx.b.url, task)).messages).length >= 3,
      20_000,
      'three answers',
    );
    const after = await historyOf(ctx.b.url, task);
    assert.equal(answers(after.messages), ['Clicked both buttons.', 'Clicked three.', 'Opened page one.']);
    assert.is(notes(after.messages, TOOK_OVER).length, 1, 'one note for the one takeover');
    assert.equal(
      clicksOf(ctx, task, 'executed').map((c) => c.clickId),
      [1, 2, 3],
    );
    assert.is(startsOf(ctx, task), 3, 'one tab opened per turn');
    noDuplicateExecution(ctx, task);
    webA.close();
    webC.close();
    await restartA(ctx);
  },
);

faults(
  'stop_task from another node during a turn is run by the owner: the task stops, nobody takes it over',
  async (ctx) => {
    const task = '01JD00000000000000000F0002';
    const webA = await connectWeb(ctx.a.url, { token: CLUSTER_TOKEN });
    const webC = await connectWeb(ctx.c.url, { token: CLUSTER_TOKEN });
    ctx.holds.hold(task);
    await send(webA, task, `Please click both on ${SITE}`);
    await heldClickReached(ctx, task);
    const ack = await webC.timeout(10_000).emitWithAck('frontend_message', {
      v: 1,
      type: 'stop_task',
      id: 'evt-stop-f2',
      timestamp: Date.now(),
      taskId: task,
    });
    assert.is(ack.ok, true, JSON.stringify(ack));
    ctx.holds.release(task);
    await eventually(
      async () => (await historyOf(ctx.c.url, task)).status === 'completed',
      10_000,
      'the task to be stopped',
    );
    await new Promise((r) => setTimeout(r, 500));
    const history = await historyOf(ctx.c.url, task);
    assert.is(notes(history.messages, TOOK_OVER).length, 0);
    assert.is(notes(history.messages, /stopped by the user/).length, 1);
    assert.is(startsOf(ctx, task), 1);
    noDuplicateExecution(ctx, task);
    webA.close();
    webC.close();
  },
);

faults(
  'a message sent right after the owner died is handled at once by the new owner, queued behind the replayed turn: one takeover, both answered in order',
  async (ctx) => {
    const task = '01JD00000000000000000F0003';
    const webA = await connectWeb(ctx.a.url, { token: CLUSTER_TOKEN });
    const webC = await connectWeb(ctx.c.url, { token: CLUSTER_TOKEN });
    ctx.holds.hold(task);
    await send(webA, task, `Please click both on ${SITE}`);
    await heldClickReached(ctx, task);
    ctx.a.kill9();
    await new Promise((r) => ctx.a.child.once('exit', r));
    const killedAt = Date.now();
    // At once, to C: no wait on a forward to the dead owner; whichever node takes the task over
    // runs it, queued behind the replayed turn.
    await send(webC, task, 'Then open one');
    const ackMs = Date.now() - killedAt;
    await eventually(
      async () => notes((await historyOf(ctx.c.url, task)).messages, TOOK_OVER).length > 0,
      10_000,
      'the takeover note',
    );
    const tookMs = Date.now() - killedAt;
    await new Promise((r) => setTimeout(r, 300));
    ctx.holds.release(task);
    await eventually(
      async () => answers((await historyOf(ctx.c.url, task)).messages).length >= 2,
      20_000,
      'two answers',
    );
    const history = await historyOf(ctx.c.url, task);
    assert.equal(answers(history.messages), ['Clicked both buttons.', 'Opened page one.']);
    assert.is(
      notes(history.messages, TOOK_OVER).length,
      1,
      'one note: the message during the replay did not adopt again',
    );
    assert.is(startsOf(ctx, task), 2, 'one tab opened per turn');
    noDuplicateExecution(ctx, task);
    assert.ok(tookMs < 5_000, `takeover took ${tookMs} ms`);
    assert.ok(ackMs < 3_000, `the message to the dead owner's task was acknowledged after ${ackMs} ms`);
    console.log(`    message to a dead owner's task acknowledged in ${ackMs} ms; takeover note after ${tookMs} ms`);
    webA.close();
    webC.close();
    await restartA(ctx);
  },
);

faults(
  'SIGTERM mid-turn: the action settles, A hands the task over and exits 0; it goes on elsewhere without a note',
  async (ctx) => {
    const task = '01JD00000000000000000F0004';
    const webA = await connectWeb(ctx.a.url, { token: CLUSTER_TOKEN });
    ctx.holds.hold(task);
    await send(webA, task, `Please click both on ${SITE}`);
    await heldClickReached(ctx, task);
    const exited = new Promise<number | null>((r) => ctx.a.child.once('exit', (code) => r(code)));
    ctx.a.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    ctx.holds.release(task); // the in-flight click settles while A drains
    assert.is(await exited, 0);
    await eventually(
      async () => answers((await historyOf(ctx.c.url, task)).messages).length >= 1,
      20_000,
      'the answer from another node',
    );
    const history = await historyOf(ctx.c.url, task);
    assert.equal(answers(history.messages), ['Clicked both buttons.']);
    assert.is(notes(history.messages, /stopped|restarted|took it over/).length, 0, 'a handoff is not a crash');
    assert.equal(
      clicksOf(ctx, task, 'received').map((c) => c.clickId),
      [1, 2],
      'the settled click is answered from the ledger, not sent again',
    );
    noDuplicateExecution(ctx, task);
    webA.close();
    await restartA(ctx);
  },
);

faults(
  'PostgreSQL restart mid-turn: no node exits, sockets stay, a message acknowledged during the outage is answered',
  async (ctx) => {
    const task = '01JD00000000000000000F0005';
    const webA = await connectWeb(ctx.a.url, { token: CLUSTER_TOKEN });
    let disconnects = 0;
    webA.on('disconnect', () => disconnects++);
    ctx.holds.hold(task);
    await send(webA, task, `Please click both on ${SITE}`);
    await heldClickReached(ctx, task);
    const restarted = ctx.h.pg.restart!(3_000);
    await new Promise((r) => setTimeout(r, 1_000));
    const during = send(webA, task, 'Then open one'); // A owns the task: it queues while the store waits
    await restarted;
    await during;
    ctx.holds.release(task);
    await eventually(
      async () => answers((await historyOf(ctx.a.url, task)).messages).length >= 2,
      30_000,
      'both answers',
    );
    const history = await historyOf(ctx.a.url, task);
    assert.equal(answers(history.messages), ['Clicked both buttons.', 'Opened page one.']);
    assert.is(notes(history.messages, TOOK_OVER).length, 0, 'A kept its task');
    for (const node of [ctx.a, ctx.b, ctx.c]) assert.is(node.child.exitCode, null, `${node.name} is still running`);
    assert.is(disconnects, 0, 'the web socket stayed');
    assert.ok(webA.connected);
    noDuplicateExecution(ctx, task);
    webA.close();
  },
);

faults.run();
