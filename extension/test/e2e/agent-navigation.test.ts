// What the agent is told about pages that are not there, through the real runtime (orchestrator,
// scripted LLM) and the real extension in a plain Chromium: a refused connection comes back to
// the model as a NAVIGATION_FAILED tool error naming the net error (not "Frame with ID 0 is
// showing error page" steps), and a 404 page comes with a warning that it is an error page.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Socket } from 'socket.io-client';
import { ulid } from 'ulid';
import { createInspectionHub } from '../../../runtime/agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../../runtime/agent/orchestrator.ts';
import { callTool, say, scriptedLlm } from '../../../runtime/test/scripted-llm.ts';
import { connectWeb, startRuntime, type TestRuntime } from '../../../runtime/test/util.ts';
import { buildExtension } from '../../build.ts';
import { launchRealistic, type RealisticBrowser } from '../harness/chromium.ts';
import { serveCorpus, type CorpusSite } from './corpus-site.ts';
import { armWatchdog, configureThroughOptionsPage, waitUntil } from './e2e-util.ts';

const disarm = armWatchdog(150_000, 'agent-navigation.test');
const TASK = ulid();

interface Ctx {
  outDir: string;
  corpus: CorpusSite;
  runtime: TestRuntime;
  browser: RealisticBrowser;
  web: Socket & { events: any[] };
  llm: ReturnType<typeof scriptedLlm>;
  refusedUrl: string;
}
const s = suite<Ctx>('the agent hears of refused connections and error pages');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The content of the last tool message the model was given. */
const lastToolResult = (input: { messages: Array<{ role: string; content?: unknown }> }) =>
  String([...input.messages].reverse().find((m) => m.role === 'tool')?.content ?? '');

s.before(async (ctx) => {
  try {
    ctx.outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-agent-'));
    await buildExtension({ outDir: ctx.outDir });
    ctx.corpus = await serveCorpus();
    ctx.refusedUrl = `http://127.0.0.1:${await freePort()}/`;
    ctx.llm = scriptedLlm([
      () => callTool('browser_open', { url: ctx.refusedUrl }, 'call-refused'),
      () => callTool('browser_open', { url: `${ctx.corpus.url}/status/404` }, 'call-404'),
      () => say('Checked both pages.'),
    ]);
    const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
    ctx.runtime = await startRuntime({
      inspectFor: (taskId) => inspection.observerFor(taskId),
      control: (services) => createAgentOrchestrator(services, { llm: ctx.llm, inspection }),
    });
    ctx.browser = await launchRealistic(ctx.outDir);
    const worker =
      ctx.browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await ctx.browser.context.waitForEvent('serviceworker', { timeout: 15_000 }));
    await configureThroughOptionsPage(ctx.browser.context, new URL(worker.url()).host, ctx.runtime.server.url, '');
    await waitUntil(() => ctx.runtime.server.registry.list().some((e) => e.socketConnected), 15_000);
    ctx.web = await connectWeb(ctx.runtime.server.url);
  } catch (error) {
    console.error('setup failed:', error);
    throw error;
  }
});
s.after(async (ctx) => {
  ctx.web?.close();
  await ctx.browser?.close();
  await ctx.runtime?.close();
  await ctx.corpus?.close();
  if (ctx.outDir) await rm(ctx.outDir, { recursive: true, force: true });
  disarm();
});

s('a refused connection is NAVIGATION_FAILED for the model; a 404 page is read with a warning', async (ctx) => {
  const ack = await ctx.web.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: `evt-${ulid()}`,
    timestamp: Date.now(),
    taskId: TASK,
    content: 'open both pages',
  });
  assert.is(ack.ok, true);
  await waitUntil(() => ctx.llm.calls.length >= 3, 60_000);
  const afterRefused = lastToolResult(ctx.llm.calls[1] as any);
  assert.match(afterRefused, /NAVIGATION_FAILED/);
  assert.match(afterRefused, /ERR_CONNECTION_REFUSED/);
  assert.not.match(afterRefused, /Frame with ID/);
  const after404 = lastToolResult(ctx.llm.calls[2] as any);
  assert.match(after404, /HTTP 404/);
  const failedSteps = ctx.web.events
    .filter((e) => e.event.type === 'toolUsed' && e.event.phase === 'error')
    .map((e) => e.event.error?.code);
  assert.ok(failedSteps.includes('NAVIGATION_FAILED'), `failed steps: ${failedSteps.join(', ')}`);
  assert.not.ok(failedSteps.includes('PLUGIN_ERROR'), `no PLUGIN_ERROR steps: ${failedSteps.join(', ')}`);
});

s.run();
