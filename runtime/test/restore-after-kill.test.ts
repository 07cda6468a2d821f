// Kill -9 the server in each task state, start a new one on the same data dir, and check the
// restored state and what the user sees (restore by hand from the stored task, task-restore.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { startFakePlugin } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = '01JD0000000000000000000K01';
const test = suite<{ rt?: TestRuntime; dir?: string; child?: ChildProcess }>(
  'kill -9 in each task state, then restore',
  {},
);
test.after.each(async (ctx) => {
  ctx.child?.kill('SIGKILL');
  await ctx.rt?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
  Object.assign(ctx, { rt: undefined, dir: undefined, child: undefined });
});

const message = (content: string, id = `evt-${content.replace(/\W/g, '')}`) => ({
  v: 1,
  type: 'user_message',
  id,
  timestamp: Date.now(),
  taskId: TASK,
  content,
});
const control = (type: string) => ({ v: 1, type, id: `evt-${type}`, timestamp: Date.now(), taskId: TASK });
const detailOf = async (url: string) => (await (await fetch(`${url}/api/task/${TASK}`)).json()).data;

async function crashServer(ctx: { dir?: string; child?: ChildProcess }): Promise<string> {
  const dir = (ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-kill-')));
  const child = (ctx.child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./crash-server.ts', import.meta.url).pathname, dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  ));
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk) => resolve(JSON.parse(String(chunk)).url));
    child.once('exit', (code) => reject(new Error(`crash server exited with ${code}`)));
  });
}

async function kill(ctx: { child?: ChildProcess }): Promise<void> {
  const child = ctx.child!;
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  ctx.child = undefined;
}

async function restart(ctx: { rt?: TestRuntime; dir?: string }): Promise<{ rt: TestRuntime; restored: number }> {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  const rt = (ctx.rt = await startRuntime({
    dir: ctx.dir!,
    persistent: true,
    control: (s) =>
      createAgentOrchestrator(s, { llm: scriptedLlm([() => say('back again'), () => say('back again')]), inspection }),
  }));
  const restored = await (rt.server.control as unknown as { restore(): Promise<number> }).restore();
  return { rt, restored };
}

/** Drives the crashed-to-be server into `state` and waits until the store has it. */
/** Returns the peers' close: they stay connected until the kill (a closing plugin would end the turn). */
async function into(url: string, dir: string, state: string): Promise<() => void> {
  const web = await connectWeb(url);
  const plugin = await startFakePlugin({ url, clientId: 'plugin-a', answer: () => ({ result: null }) });
  const send = (m: object) => web.timeout(5_000).emitWithAck('frontend_message', m);
  // On disk, not only in the server's memory: the kill comes right after.
  const onDisk = () => {
    try {
      return JSON.parse(readFileSync(join(dir, 'data', 'tasks', TASK, 'meta.json'), 'utf8')).task.status as string;
    } catch {
      return undefined;
    }
  };
  const stored = (status: string) => eventually(() => onDisk() === status, 10_000, `${status} stored`);
  // The browser is chosen before the first message (a task id from GET /api/task/id): it must survive the kill.
  const selected = await send({
    v: 1,
    type: 'select_extension',
    id: 'evt-select',
    timestamp: Date.now(),
    taskId: TASK,
    clientId: 'plugin-a',
  });
  assert.is(selected.ok, true, `select_extension before the first message: ${JSON.stringify(selected)}`);
  if (state === 'running' || state === 'takeover') {
    await send(message('open the page'));
    await eventually(() => plugin.received.length > 0, 10_000, 'action in flight');
    await stored('running');
    if (state === 'takeover') {
      await send(control('takeover_task'));
      await stored('takeover');
    }
  } else if (state === 'error') {
    await send(message('fail please'));
    await stored('error');
  } else {
    await send(message('hello'));
    await stored('ongoing');
    if (state === 'completed') {
      await send(control('stop_task'));
      await stored('completed');
    }
  }
  return () => {
    web.close();
    plugin.close();
  };
}

const cases: Array<{ state: string; restored: string; note: RegExp | null; counted: number }> = [
  {
    state: 'running',
    restored: 'error',
    note: /restarted while this task was running; its last step was cut short/,
    counted: 1,
  },
  { state: 'takeover', restored: 'takeover', note: /restarted while you had control/, counted: 1 },
  { state: 'ongoing', restored: 'ongoing', note: null, counted: 0 },
  { state: 'completed', restored: 'completed', note: null, counted: 0 },
  { state: 'error', restored: 'error', note: null, counted: 0 },
];

for (const c of cases) {
  test(`killed while ${c.state}: restored as ${c.restored}${c.note ? ' with a note' : ''}; the next message continues the same task`, async (ctx) => {
    const url = await crashServer(ctx);
    const closePeers = await into(url, ctx.dir!, c.state);
    const before = await detailOf(url);
    await kill(ctx);
    closePeers();

    const { rt, restored } = await restart(ctx);
    assert.is(restored, c.counted, 'tasks restored with a note');
    const after = await detailOf(rt.server.url);
    assert.is(after.task.status, c.restored);
    assert.is(after.task.selectedClientId, 'plugin-a', 'the selected extension survives the kill');
    const outcome = after.messages
      .filter((m: any) => m.meta?.outcome)
      .map((m: any) => [m.meta.outcome, m.meta.error.code]);
    if (c.state === 'running')
      assert.equal(
        outcome,
        [['interrupted', 'TASK_INTERRUPTED']],
        'stored as interrupted, not as done and not as the extension going offline',
      );
    else if (c.state !== 'error') assert.equal(outcome, []);
    // The task list says the same without reading the messages (the web's sidebar: Interrupted, not Failed).
    const listed = (await (await fetch(`${rt.server.url}/api/task/list`)).json()).data.find(
      (t: any) => t.taskId === TASK,
    );
    assert.is(listed.status, c.restored);
    const expected = { running: 'interrupted', error: 'error' }[c.state as 'running' | 'error'];
    assert.is(listed.outcome, expected, 'the listed outcome: Interrupted, Failed, or none');
    assert.equal(
      after.messages.slice(0, before.messages.length).map((m: any) => m.id),
      before.messages.map((m: any) => m.id),
      'nothing stored is lost',
    );
    const notes = after.messages.filter((m: any) => m.role === 'system').map((m: any) => m.content);
    if (c.note)
      assert.ok(
        notes.some((n: string) => c.note!.test(n)),
        `note: ${notes}`,
      );
    else
      assert.equal(
        notes.filter((n: string) => /restarted/.test(n)),
        [],
        'no restart note',
      );

    const web = await connectWeb(rt.server.url);
    await web.timeout(5_000).emitWithAck('frontend_message', {
      v: 1,
      type: 'subscribe_task',
      id: 'evt-sub',
      timestamp: Date.now(),
      taskId: TASK,
    });
    if (c.restored === 'takeover') {
      const resumed = await web.timeout(5_000).emitWithAck('frontend_message', control('resume_task'));
      assert.is(resumed.ok, true, 'a restored takeover can be resumed');
    }
    if (c.state === 'running') {
      // Resume runs the interrupted message again, in the same task.
      const resumed = await web.timeout(5_000).emitWithAck('frontend_message', control('resume_task'));
      assert.is(resumed.ok, true, `an interrupted task can be resumed: ${JSON.stringify(resumed)}`);
      await eventually(
        () => web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
        10_000,
        'the resumed turn ran',
      );
      const rerun = await detailOf(rt.server.url);
      assert.is(rerun.task.outcome, undefined, 'the resumed task is no longer interrupted');
      assert.equal(
        rerun.messages.slice(-1).map((m: any) => m.content),
        ['back again'],
      );
      web.events.length = 0;
    }
    await web.timeout(5_000).emitWithAck('frontend_message', message('and now?', 'evt-next'));
    await eventually(
      () =>
        web.events.some(
          (e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing' && e.event.previous === 'running',
        ),
      10_000,
      'the next turn ran',
    );
    const statuses = web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
    assert.not.ok(statuses.includes('created'), `no second created: ${statuses}`);
    const final = await detailOf(rt.server.url);
    assert.equal(
      final.messages.slice(-2).map((m: any) => m.content),
      ['and now?', 'back again'],
    );
    web.close();
  });
}

test('a graceful shutdown (SIGTERM: server.close) mid-action is not "the extension went offline": the turn is restored as interrupted', async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-close-'));
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  const first = await startRuntime({
    dir: ctx.dir,
    persistent: true,
    control: (s) =>
      createAgentOrchestrator(s, {
        llm: scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/' })]),
        inspection,
      }),
  });
  const plugin = await startFakePlugin({
    url: first.server.url,
    clientId: 'plugin-a',
    answer: () => ({ result: null }),
  });
  const web = await connectWeb(first.server.url);
  await web.timeout(5_000).emitWithAck('frontend_message', message('open the page'));
  await eventually(() => plugin.received.length > 0, 10_000, 'action in flight');
  await first.close();
  plugin.close();
  web.close();
  const { rt } = await restart(ctx);
  const after = await detailOf(rt.server.url);
  assert.is(after.task.status, 'error');
  const outcome = after.messages
    .filter((m: any) => m.meta?.outcome)
    .map((m: any) => [m.meta.outcome, m.meta.error.code]);
  assert.equal(outcome, [['interrupted', 'TASK_INTERRUPTED']]);
  assert.not.ok(
    after.messages.some((m: any) => /PLUGIN_OFFLINE|extension disconnected|went offline/i.test(m.content)),
    'no "extension offline" cause',
  );
});

test.run();
