// MIMO_RECORD_DIR for MCP sessions (mcp-call-recording.ts): each browser-shell call goes into the
// session file of the MCP session's task (its tab's task actor), beside that task's frames,
// events and inspection records: `mcp_call` when it arrives (first in the file for the call that
// opens the tab), `mcp_result` with the arguments and the result when it returns. Calls over the
// stdio bridge are the same calls. Calls without a tab are not recorded. A template run has a file
// of its own (mcp-run-recording.ts): its calls, its status changes and the frames of the tabs that
// serve it while they do.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  createSessionRecorder,
  parseRecording,
  type RecordedLine,
  type SessionRecorder,
} from '../../recorder/session-recorder.ts';
import { startMcp, type McpHarness } from './mcp-harness.ts';

interface Ctx {
  dir: string;
  recorder: SessionRecorder;
  h: McpHarness;
}

const URL_A = 'https://a.test/';
const test = suite<Ctx>('MCP sessions recorded');

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-mcp-rec-'));
  ctx.recorder = createSessionRecorder({ dir: ctx.dir, clock: { now: () => Date.now() } });
  ctx.h = await startMcp({
    pages: { [URL_A]: { title: 'A', text: 'page a', elements: [{ tag: 'button', text: 'Go' } as never] } },
    server: { recorder: ctx.recorder },
    routes: { recorder: ctx.recorder },
  });
});
test.after.each(async (ctx) => {
  await ctx.h.close();
  await ctx.recorder.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

async function files(ctx: Ctx): Promise<Map<string, RecordedLine[]>> {
  await ctx.recorder.close(); // flushes; a later entry opens its file again
  return new Map(
    readdirSync(ctx.dir).map((name) => [
      name.replace(/\.jsonl$/, ''),
      parseRecording(readFileSync(join(ctx.dir, name), 'utf8')),
    ]),
  );
}
const callsIn = (lines: RecordedLine[]) =>
  lines.flatMap((l) => (l.kind === 'mcp_result' ? [(l.arguments as { argv: string[] }).argv.join(' ')] : []));

test("a session's calls go into its tab's task file, the opening call first", async (ctx) => {
  const { h } = ctx;
  assert.is((await h.shell('s1', ['snapshot'])).exit_code, 1, 'no tab yet');
  assert.is((await h.shell('s1', ['open', URL_A])).exit_code, 0);
  const taskId = h.routes.mcp.sessions.get('s1')!.main!.taskId;
  assert.is((await h.shell('s1', ['snapshot', '-i'])).exit_code, 0);
  assert.is((await h.shell('s1', ['click', '@e9'])).exit_code, 1, 'an unknown ref: recorded, with its error');
  await h.ok('list_task_templates', {});
  const recorded = await files(ctx);
  assert.equal([...recorded.keys()], [taskId], 'one file: the session task');
  const lines = recorded.get(taskId)!;
  assert.is(lines[0]!.kind, 'mcp_call');
  assert.is(lines[0]!.t, 0);
  assert.equal(callsIn(lines), [`open ${URL_A}`, 'snapshot -i', 'click @e9']);
  const calls = lines.filter((l) => l.kind === 'mcp_call').map((l) => (l as { callId: string }).callId);
  const results = lines.filter((l) => l.kind === 'mcp_result').map((l) => (l as { callId: string }).callId);
  assert.equal(results, calls, 'each call has its result, in order');
  const frames = lines.filter((l) => l.kind === 'frame' && l.channel === 'plugin_message' && l.direction === 'out');
  assert.ok(frames.length >= 4, 'the browser frames of the task are in the same file');
  const last = lines.filter((l) => l.kind === 'mcp_result').at(-1) as Extract<RecordedLine, { kind: 'mcp_result' }>;
  assert.equal((last.result as { isError?: boolean }).isError, true);
});

test('after close, the next open is a new task with a file of its own; sessions do not mix', async (ctx) => {
  const { h } = ctx;
  await h.shell('s1', ['open', URL_A]);
  const first = h.routes.mcp.sessions.get('s1')!.main!.taskId;
  await h.shell('s2', ['open', URL_A]);
  const other = h.routes.mcp.sessions.get('s2')!.main!.taskId;
  await h.shell('s1', ['close']);
  await h.shell('s1', ['open', URL_A]);
  const second = h.routes.mcp.sessions.get('s1')!.main!.taskId;
  assert.not.equal(second, first);
  const recorded = await files(ctx);
  assert.equal(callsIn(recorded.get(first)!), [`open ${URL_A}`, 'close']);
  assert.equal(callsIn(recorded.get(second)!), [`open ${URL_A}`]);
  assert.equal(callsIn(recorded.get(other)!), [`open ${URL_A}`]);
});

test('calls through the stdio bridge are recorded as the same calls', async (ctx) => {
  const root = new URL('../../../', import.meta.url).pathname;
  const client = new Client({ name: 'stdio-recorded', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(root, 'bin', 'mimo.mjs'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', MIMO_URL: ctx.h.runtime.server.url, MIMO_TOKEN: 'off' },
      cwd: root,
      stderr: 'pipe',
    }),
  );
  try {
    await client.callTool({ name: 'browser-shell', arguments: { session_id: 'stdio', argv: ['open', URL_A] } });
  } finally {
    await client.close();
  }
  const taskId = ctx.h.routes.mcp.sessions.get('stdio')!.main!.taskId;
  assert.equal(callsIn((await files(ctx)).get(taskId)!), [`open ${URL_A}`]);
});

test("a template run's file: its calls and the frames of its tabs while they serve it; not the session's later calls", async (ctx) => {
  const { h } = ctx;
  await h.shell('s1', ['open', URL_A]);
  const main = h.routes.mcp.sessions.get('s1')!.main!.taskId;
  const run = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    sessionId: 's1',
    inputs: { urls: [URL_A, URL_A] },
    options: { mode: 'sync' },
  });
  assert.is(run.status, 'succeeded');
  await h.ok('get_task_run', { runId: run.runId });
  await h.ok('list_task_runs', {});
  assert.is((await h.shell('s1', ['snapshot', '-i'])).exit_code, 0, 'the session goes on after the run');
  const recorded = await files(ctx);
  const lines = recorded.get(run.runId)!;
  assert.ok(lines, 'the run has a file named by its id');
  assert.equal(
    lines.filter((l) => l.kind === 'mcp_result').map((l) => (l as { tool: string }).tool),
    ['run_task_template', 'get_task_run'],
    'the calls that name the run (list_task_runs names none)',
  );
  assert.equal(lines[0], {
    t: 0,
    kind: 'mcp_call',
    callId: (lines[0] as { callId: string }).callId,
    tool: 'run_task_template',
  });
  const changes = lines.flatMap((l) => (l.kind === 'run_change' ? [`${l.status} ${l.doneSteps}`] : []));
  assert.equal(changes.at(-1), 'succeeded 2');
  const tabs = new Set(lines.flatMap((l) => (l.task ? [l.task] : [])));
  assert.is(tabs.size, 2, 'two worker tabs, one per page (the main tab did nothing during the run)');
  for (const tab of tabs) {
    assert.ok(recorded.has(tab), 'each worker tab has its own task file too');
    const own = recorded.get(tab)!.filter((l) => l.kind === 'frame').length;
    assert.is(
      lines.filter((l) => l.task === tab).length,
      own,
      'every frame of the worker, from its first to its close',
    );
  }
  assert.not.ok(tabs.has(main));
  assert.equal(callsIn(recorded.get(main)!), [`open ${URL_A}`, 'snapshot -i'], 'the later call is the session’s own');
});

test.run();
