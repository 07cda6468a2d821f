// The committed MCP session of fixtures/sessions (mcp-browser-shell.jsonl: browser-shell on the
// products page), replayed against a fresh server: the real MCP SDK client makes the recorded
// calls, a fake plugin answers from the recording. The tool results the client gets, the frontend
// events and the task's machine snapshots must be the recorded ones, in order; a mismatch is
// reported as a readable diff. The building blocks (mcp-replay.ts) are checked on their own too.
// The committed template run (mcp-template-run.jsonl: a run's file) is replayed the same way.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  describeInspection,
  describeMcpCall,
  describeMismatch,
  mcpReplayInputs,
  recordedMcpCalls,
} from '../../recorder/mcp-replay.ts';
import { parseRecording, type RecordedLine } from '../../recorder/session-recorder.ts';
import { replayMcpRun } from '../replay-mcp-run.ts';
import { replayMcpSession } from '../replay-mcp-session.ts';
import { FIXTURE_TIMINGS } from '../session-runtime.ts';

const lines: RecordedLine[] = parseRecording(
  readFileSync(new URL('../../../fixtures/sessions/mcp-browser-shell.jsonl', import.meta.url), 'utf8'),
);

const test = suite('MCP fixture replay');

test('mcp-browser-shell: the same tool results, frontend events and machine snapshots', async () => {
  const out = await replayMcpSession(lines, { timings: FIXTURE_TIMINGS });
  assert.is(out.timedOut, false);
  assert.equal(out.mismatches, [], out.mismatches.join('\n\n'));
  assert.equal(out.actual.results, out.expected.results);
  assert.equal(out.actual.events, out.expected.events);
  assert.equal(out.actual.inspection, out.expected.inspection);
  assert.equal(out.unexpectedActions, []);
  assert.equal(out.unusedActions, []);
  // What the fixture is about: the click added the teapot, the screenshot is a live artifact.
  assert.is(out.actual.results.length, 6);
  assert.match(out.actual.results[3]!, /Cart: 1 item\(s\)\. Last added: Yixing Clay Teapot/);
  assert.match(out.actual.results[4]!, /"artifactId\\":\\"art-\*\\"/);
  assert.equal(
    out.pluginFrames.map((f) => Object.keys(f.action)[0]),
    [
      'task_start',
      'browser_debugger_attach',
      'browser_wait_for_loaded',
      'browser_dom_index',
      'browser_click',
      'browser_dom_index',
      'browser_readability_extract',
      'browser_screenshot',
      'task_stop',
    ],
  );
});

test('the recorded calls, in order, keyed by what came before each', () => {
  const calls = recordedMcpCalls(lines);
  assert.equal(
    calls.map((c) => (c.arguments.argv as string[]).join(' ')),
    ['open http://127.0.0.1:9/products.html', 'snapshot -i', 'click @e3', 'snapshot', 'screenshot', 'close'],
  );
  const inputs = mcpReplayInputs(lines);
  assert.equal(
    inputs.map((i) => [i.afterCalls, i.afterResults]),
    calls.map((_, n) => [n, n]),
    'each call after the previous one returned',
  );
  assert.ok(
    inputs.every((input, n) => n === 0 || input.afterPluginFrames > inputs[n - 1]!.afterPluginFrames),
    'each call after the previous one reached the plugin',
  );
});

test('results are compared without artifact ids or the server port; a differing list is a diff', () => {
  const shot = (id: string, port: number) => ({
    tool: 'browser-shell',
    arguments: { argv: ['screenshot'] },
    result: {
      content: [{ type: 'text', text: `{"url":"http://127.0.0.1:${port}/api/artifacts/${id}"}` }],
      structuredContent: { url: `http://127.0.0.1:${port}/api/artifacts/${id}` },
    },
  });
  assert.is(
    describeMcpCall(shot('art-aaaaaaaaaaaaaaaaaaaaa', 4000)),
    describeMcpCall(shot('art-bbbbbbbbbbbbbbbbbbbbb', 5000)),
  );
  assert.not.match(describeMcpCall(shot('art-a', 1)), /structured/, 'the same JSON both ways is shown once');
  const differing = shot('art-a', 1);
  differing.result.structuredContent.url = 'elsewhere';
  assert.match(describeMcpCall(differing), /structured \{"url":"elsewhere"\}/);
  assert.is(describeMismatch('results', ['a', 'b'], ['a', 'b']), '');
  const diff = describeMismatch('events', ['a', 'b', 'c'], ['a', 'x']);
  assert.match(diff, /^events: the replay differs at #1 \(recorded 3, replayed 2\)/);
  assert.match(diff, /> 1: b/);
  assert.match(diff, /> 1: x/);
  assert.ok(describeInspection(lines).length > 0, 'the compacted fixture keeps the snapshots');
});

test('mcp-template-run: batch_extract_pages over two pages, replayed to the same results and tab events', async () => {
  const run = parseRecording(
    readFileSync(new URL('../../../fixtures/sessions/mcp-template-run.jsonl', import.meta.url), 'utf8'),
  );
  const out = await replayMcpRun(run, { timings: FIXTURE_TIMINGS });
  assert.is(out.timedOut, false);
  assert.equal(out.mismatches, [], out.mismatches.join('\n\n'));
  assert.equal(out.unexpectedActions, []);
  assert.equal(out.unusedActions, []);
  // What the fixture is about: two worker tabs, each page read, the run succeeded with both items.
  assert.is(out.tabs.size, 2);
  assert.is(out.actual.results.length, 2);
  assert.match(out.actual.results[0]!, /"summary":\{"total":2,"succeeded":2,"failed":0,"skipped":0\}/);
  assert.match(out.actual.results[0]!, /Yixing Clay Teapot/);
  assert.equal(
    out.actual.events.filter((e) => e.startsWith('<tab') || e.includes('readability')),
    [
      '<tab 1>',
      'toolUsed browser_readability_extract start',
      'toolUsed browser_readability_extract success',
      '<tab 2>',
      'toolUsed browser_readability_extract start',
      'toolUsed browser_readability_extract success',
    ],
  );
});

test.run();
