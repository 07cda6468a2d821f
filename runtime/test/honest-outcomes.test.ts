// Honest outcomes (seed 000 §2.1, issue 22), a fault table with the fake plugin on the real
// socket.io-client and the runtime on SimulatedClock: a turn that ends on a failure puts the task
// in `error` with its cause (live as a structuredOutput error, stored as an outcome note a reload
// shows); a successful final answer leaves it `ongoing` (Done); a failure the agent recovered from
// in the same turn is not a failure; a follow-up message reopens the task without a second `created`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { LlmEvent } from '../llm/llm-types.ts';
import { startFakePlugin, type Answerer, type FakePlugin, pageAnswerer } from '../test-util/fake-plugin.ts';
import { callTool, say, scriptedLlm } from './scripted-llm.ts';
import { connectWeb, eventually, type TestRuntime, startRuntime } from './util.ts';
import { actionStateOf } from '../../machines/index.ts';

const TASK = '01JD0000000000000000000H01';
const test = suite<{ rt?: TestRuntime; closers: Array<() => void> }>(
  'honest outcomes: a turn that ends on a failure puts the task in error',
  { closers: [] },
);
test.after.each(async (ctx) => {
  for (const close of ctx.closers.splice(0)) close();
  await ctx.rt?.close();
  ctx.rt = undefined;
});

const page = pageAnswerer({ title: 'Page', text: 'Some text.' });
const loadError =
  (code: string, message: string, details: Record<string, unknown> = {}): Answerer =>
  (name, params, frame) =>
    name === 'browser_wait_for_loaded'
      ? { result: { status: 'error', error: { code, message, retryable: code === 'NAVIGATION_TIMEOUT', details } } }
      : page(name, params, frame);

interface Row {
  name: string;
  script: Array<() => LlmEvent[]>;
  answer?: Answerer;
  /** No extension at all. */
  offline?: boolean;
  stepLimit?: number;
  /** Moves the clock once this action is in `state` (an exec timeout, a retry's backoff). */
  timeOut?: { action: string; state: 'executing' | 'retryWait'; ms: number };
  status: 'error' | 'ongoing';
  code?: string;
}

const open = (url: string) => () => callTool('browser_open', { url });
/** The first page load fails (no such host), the next ones work. */
function failingFirstLoad(): Answerer {
  let loads = 0;
  return (name, params, frame) =>
    name === 'browser_wait_for_loaded' && ++loads === 1
      ? loadError('NAVIGATION_FAILED', 'no such host')(name, params, frame)
      : page(name, params, frame);
}
const rows: Row[] = [
  {
    name: 'blocked URL',
    script: [open('file:///etc/passwd'), () => say('That URL is not allowed.')],
    status: 'error',
    code: 'URL_BLOCKED',
  },
  {
    name: 'unknown host',
    script: [open('http://nosuchhost.invalid/'), () => say('The host does not exist.')],
    answer: loadError(
      'NAVIGATION_FAILED',
      'http://nosuchhost.invalid/ could not be loaded: net::ERR_NAME_NOT_RESOLVED',
      { netError: 'net::ERR_NAME_NOT_RESOLVED' },
    ),
    status: 'error',
    code: 'NAVIGATION_FAILED',
  },
  {
    name: 'refused port',
    script: [open('http://127.0.0.1:9/'), () => say('Nothing listens there.')],
    answer: loadError('NAVIGATION_FAILED', 'http://127.0.0.1:9/ could not be loaded: net::ERR_CONNECTION_REFUSED'),
    status: 'error',
    code: 'NAVIGATION_FAILED',
  },
  {
    name: 'HTTP 404 (the page loaded, but it is an error page)',
    script: [open('http://127.0.0.1:9/missing'), () => say('The page says Not Found.')],
    answer: (name, params, frame) =>
      name === 'browser_wait_for_loaded'
        ? {
            result: {
              status: 'success',
              result: { status: 'complete', httpStatus: 404, warnings: ['the page answered HTTP 404 Not Found'] },
            },
          }
        : page(name, params, frame),
    status: 'error',
    code: 'NAVIGATION_FAILED',
  },
  {
    name: 'load timeout',
    script: [open('http://127.0.0.1:9/slow'), () => say('It did not load.')],
    answer: loadError('NAVIGATION_TIMEOUT', 'tab 101 did not finish loading within 15000 ms'),
    timeOut: { action: 'browser_wait_for_loaded', state: 'retryWait', ms: 1_000 },
    status: 'error',
    code: 'NAVIGATION_TIMEOUT',
  },
  {
    name: 'extension offline',
    script: [open('http://127.0.0.1:9/')],
    offline: true,
    status: 'error',
    code: 'PLUGIN_OFFLINE',
  },
  {
    name: 'step limit',
    script: [open('http://127.0.0.1:9/a'), open('http://127.0.0.1:9/b'), open('http://127.0.0.1:9/c')],
    stepLimit: 2,
    status: 'error',
    code: 'EXECUTION_ERROR',
  },
  {
    name: 'exec timeout',
    script: [
      open('http://127.0.0.1:9/form'),
      () => callTool('browser_click', { clickId: 1 }),
      () => say('The click did not finish.'),
    ],
    answer: (name, params, frame) => (name === 'browser_click' ? { result: null } : page(name, params, frame)),
    timeOut: { action: 'browser_click', state: 'executing', ms: 5_000 },
    status: 'error',
    code: 'PLUGIN_TIMEOUT_EXEC',
  },
  {
    name: 'a successful final answer',
    script: [open('http://127.0.0.1:9/'), () => say('The page says: Some text.')],
    status: 'ongoing',
  },
  {
    name: 'a failure the agent recovered from in the same turn',
    script: [
      open('http://nosuchhost.invalid/'),
      open('http://127.0.0.1:9/'),
      () => say('The second site says: Some text.'),
    ],
    answer: failingFirstLoad(),
    status: 'ongoing',
  },
];

for (const row of rows) {
  test(`${row.name}: ${row.status}${row.code ? ` (${row.code})` : ''}`, async (ctx) => {
    const llm = scriptedLlm([...row.script, () => say('follow-up answered')]);
    const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
    const rt = (ctx.rt = await startRuntime({
      control: (services) =>
        createAgentOrchestrator(services, { llm, inspection, ...(row.stepLimit ? { stepLimit: row.stepLimit } : {}) }),
    }));
    let plugin: FakePlugin | undefined;
    if (!row.offline) {
      plugin = await startFakePlugin({ url: rt.server.url, clientId: 'plugin-a', answer: row.answer ?? page });
      ctx.closers.push(() => plugin!.close());
    }
    const web = await connectWeb(rt.server.url);
    ctx.closers.push(() => web.close());
    const message = (id: string, content: string) => ({
      v: 1,
      type: 'user_message',
      id,
      timestamp: Date.now(),
      taskId: TASK,
      content,
    });
    await web.timeout(5_000).emitWithAck('frontend_message', message('evt-1', `do it: ${row.name}`));
    if (row.timeOut) {
      const { action, state, ms } = row.timeOut;
      await eventually(() => plugin!.received.some((f) => action in f.action), 10_000, `${action} sent`);
      const id = plugin!.received.find((f) => action in f.action)!.id;
      const inState = () => {
        const actor = rt.server.scheduler.actorOf(id);
        return actor !== undefined && actionStateOf(actor.getSnapshot()) === state;
      };
      await eventually(inState, 10_000, `${action} ${state}`);
      rt.clock.increment(ms);
    }
    const settled = () =>
      web.events.find(
        (e) => e.event.type === 'taskStatus' && (e.event.status === 'error' || e.event.status === 'ongoing'),
      )?.event.status;
    await eventually(() => settled() !== undefined, 10_000, 'the turn ended');
    assert.is(settled(), row.status);
    const errors = web.events
      .filter((e) => e.event.type === 'structuredOutput' && e.event.status === 'error')
      .map((e) => e.event.error.code);
    const detail = (await (await fetch(`${rt.server.url}/api/task/${TASK}`)).json()).data;
    const notes = detail.messages
      .filter((m: any) => m.meta?.outcome)
      .map((m: any) => [m.meta.outcome, m.meta.error.code]);
    assert.is(detail.task.status, row.status, 'stored');
    if (row.code) {
      assert.ok(errors.includes(row.code), `told live: ${errors}`);
      assert.equal(notes, [['error', row.code]], 'the cause is stored for a reload');
    } else {
      assert.equal(notes, [], 'no failure stored');
    }
    // A follow-up reopens the same task: no second `created`.
    await web.timeout(5_000).emitWithAck('frontend_message', message('evt-2', 'just answer'));
    await eventually(
      () =>
        web.events.filter((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing').length >=
        (row.status === 'ongoing' ? 2 : 1),
      10_000,
      'follow-up turn',
    );
    const statuses = web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
    assert.is(statuses.filter((s: string) => s === 'created').length, 1, `one created: ${statuses}`);
  });
}

test.run();
