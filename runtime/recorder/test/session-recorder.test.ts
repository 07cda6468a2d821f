// The session recorder: one JSONL file per task, times relative to the task's first entry,
// unsafe task ids never become file names, and what it writes parses back.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSessionRecorder, parseRecording } from '../session-recorder.ts';

const test = suite<{ dir: string; now: number }>('session recorder', { dir: '', now: 0 });

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-recorder-'));
  ctx.now = 1_700_000_000_000;
});
test.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

const TASK_A = '01JD0000000000000000000R01';
const TASK_B = '01JD0000000000000000000R02';

test('times are relative to each task’s first entry; one file per task', async (ctx) => {
  const recorder = createSessionRecorder({ dir: ctx.dir, clock: { now: () => ctx.now } });
  recorder.record(TASK_A, {
    kind: 'frame',
    direction: 'in',
    channel: 'frontend_message',
    payload: { type: 'user_message', taskId: TASK_A },
  });
  ctx.now += 250;
  recorder.record(TASK_A, { kind: 'llm_chunk', attempt: 1, chunk: { id: 'c1' } });
  ctx.now += 1_000;
  recorder.record(TASK_B, { kind: 'frame', direction: 'out', channel: 'frontend_event', payload: { taskId: TASK_B } });
  ctx.now += 40;
  recorder.record(TASK_A, { kind: 'inspection', record: { type: '@xstate.snapshot' } });
  recorder.record(TASK_B, { kind: 'frame', direction: 'in', channel: 'plugin_ack', payload: { actionId: 'act-1' } });
  await recorder.close();

  assert.equal(readdirSync(ctx.dir).sort(), [`${TASK_A}.jsonl`, `${TASK_B}.jsonl`]);
  const a = parseRecording(readFileSync(join(ctx.dir, `${TASK_A}.jsonl`), 'utf8'));
  assert.equal(
    a.map((l) => [l.t, l.kind]),
    [
      [0, 'frame'],
      [250, 'llm_chunk'],
      [1_290, 'inspection'],
    ],
  );
  assert.equal(a[1], { t: 250, kind: 'llm_chunk', attempt: 1, chunk: { id: 'c1' } });
  const b = parseRecording(readFileSync(join(ctx.dir, `${TASK_B}.jsonl`), 'utf8'));
  assert.equal(
    b.map((l) => l.t),
    [0, 40],
  );
  assert.is((b[1] as { channel: string }).channel, 'plugin_ack');
});

test('unsafe task ids are ignored: nothing is written outside or inside the folder', async (ctx) => {
  const recorder = createSessionRecorder({ dir: join(ctx.dir, 'rec'), clock: { now: () => ctx.now } });
  for (const taskId of ['../escape', 'a/b', '..', '', 'x'.repeat(129), 'tab\tid', 'dot.jsonl']) {
    recorder.record(taskId, { kind: 'llm_chunk', attempt: 1, chunk: {} });
  }
  recorder.record(TASK_A, { kind: 'llm_chunk', attempt: 1, chunk: {} });
  await recorder.close();
  assert.equal(readdirSync(join(ctx.dir, 'rec')), [`${TASK_A}.jsonl`]);
  assert.equal(readdirSync(ctx.dir), ['rec']);
});

test('creates its folder; close() flushes every line; parseRecording skips blank lines', async (ctx) => {
  const dir = join(ctx.dir, 'deep', 'er');
  const recorder = createSessionRecorder({ dir, clock: { now: () => ctx.now } });
  assert.is(recorder.dir, dir);
  for (let i = 0; i < 500; i++) recorder.record(TASK_A, { kind: 'llm_chunk', attempt: 1, chunk: { i } });
  await recorder.close();
  const text = readFileSync(join(dir, `${TASK_A}.jsonl`), 'utf8');
  assert.is(parseRecording(`\n${text}\n\n`).length, 500);
  assert.equal((parseRecording(text)[499] as { chunk: unknown }).chunk, { i: 499 });
});

test('a linked file follows a task’s frames (with `task`) until unlinked; nothing else of the task', async (ctx) => {
  const recorder = createSessionRecorder({ dir: ctx.dir, clock: { now: () => ctx.now } });
  const RUN = 'run_01JD0000000000000000000R03';
  recorder.record(RUN, { kind: 'mcp_call', callId: 'c1', tool: 'run_task_template' });
  recorder.record(TASK_A, { kind: 'frame', direction: 'out', channel: 'plugin_message', payload: { n: 0 } });
  recorder.link(TASK_A, RUN);
  ctx.now += 100;
  recorder.record(TASK_A, { kind: 'frame', direction: 'out', channel: 'plugin_message', payload: { n: 1 } });
  recorder.record(TASK_A, { kind: 'inspection', record: { type: '@xstate.snapshot' } });
  recorder.link('../escape', RUN); // an unsafe id is never linked
  recorder.record('../escape', { kind: 'frame', direction: 'in', channel: 'plugin_ack', payload: {} });
  recorder.unlink(TASK_A, RUN);
  recorder.record(TASK_A, { kind: 'frame', direction: 'in', channel: 'plugin_ack', payload: { n: 2 } });
  await recorder.close();
  const run = parseRecording(readFileSync(join(ctx.dir, `${RUN}.jsonl`), 'utf8'));
  assert.equal(run, [
    { t: 0, kind: 'mcp_call', callId: 'c1', tool: 'run_task_template' },
    { t: 100, task: TASK_A, kind: 'frame', direction: 'out', channel: 'plugin_message', payload: { n: 1 } },
  ]);
  const own = parseRecording(readFileSync(join(ctx.dir, `${TASK_A}.jsonl`), 'utf8'));
  assert.is(own.length, 4, 'the task’s own file has all of its entries');
  assert.ok(own.every((line) => line.task === undefined));
});

test.run();
