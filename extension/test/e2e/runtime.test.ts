// The extension against the real runtime (runtime/server.ts createServer with the agent
// orchestrator and a scripted LLM) in a real Chromium: registration and snapshot over the real
// HTTP API, an LLM turn whose browser actions run in the background tab, and a takeover by a
// real mouse click on the task tab, resumed from the overlay.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Socket } from 'socket.io-client';
import { ulid } from 'ulid';
import { createAgentOrchestrator } from '../../../runtime/agent/orchestrator.ts';
import { createInspectionHub } from '../../../runtime/agent/inspection-hub.ts';
import { callTool, say, scriptedLlm } from '../../../runtime/test/scripted-llm.ts';
import { connectWeb, startRuntime, type TestRuntime } from '../../../runtime/test/util.ts';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import { buildExtension } from '../../build.ts';
import { launchWithExtension, type LaunchedBrowser } from '../harness/chromium.ts';
import { armWatchdog, configureThroughOptionsPage, waitUntil } from './e2e-util.ts';

const disarm = armWatchdog(120_000, 'runtime.test');
const TASK = ulid();

interface Ctx {
  outDir: string;
  site: FixtureSite;
  runtime: TestRuntime;
  browser: LaunchedBrowser;
  web: Socket & { events: any[] };
  llm: ReturnType<typeof scriptedLlm>;
}
const s = suite<Ctx>('extension + real runtime (createServer, orchestrator, scripted LLM)');

s.before(async (ctx) => {
  ctx.outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-'));
  await buildExtension({ outDir: ctx.outDir });
  ctx.site = await serveFixtureSite();
  ctx.llm = scriptedLlm([
    () => callTool('browser_open', { url: `${ctx.site.url}/slow.html?ms=4000` }),
    () => callTool('browser_screenshot', {}),
    () => say('The slow page is open.'),
  ]);
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  ctx.runtime = await startRuntime({
    inspectFor: (taskId) => inspection.observerFor(taskId),
    control: (services) => createAgentOrchestrator(services, { llm: ctx.llm, inspection }),
  });
  ctx.browser = await launchWithExtension(ctx.outDir);
  await configureThroughOptionsPage(ctx.browser.context, ctx.browser.extensionId, ctx.runtime.server.url, '');
  ctx.web = await connectWeb(ctx.runtime.server.url);
});
s.after(async (ctx) => {
  ctx.web?.close();
  await ctx.browser?.close();
  await ctx.runtime?.close();
  await ctx.site?.close();
  if (ctx.outDir) await rm(ctx.outDir, { recursive: true, force: true });
  disarm();
});

s('the runtime lists the extension as connected and serves its snapshot', async ({ runtime, browser }) => {
  const list = async () =>
    (await (await fetch(`${runtime.server.url}/api/extension/extension-list`)).json()).data as any[];
  await waitUntil(
    async () => (await list()).some((x) => x.socketConnected && x.extensionId === browser.extensionId),
    10_000,
  );
  const item = (await list()).find((x) => x.extensionId === browser.extensionId);
  assert.match(item.clientId, /^plugin-/);
  assert.is(item.extensionName, 'Mimo');
  await waitUntil(async () => (await (await fetch(`${runtime.server.url}/api/snapshot`)).json()).data.tabs.length > 0);
  const snapshot = (await (await fetch(`${runtime.server.url}/api/snapshot`)).json()).data;
  assert.is(snapshot.connected, true);
  assert.is(snapshot.stale, false);
});

s(
  'an LLM turn drives the background tab; a real click takes over and Resume on the overlay hands back',
  async (ctx) => {
    const { web, browser, site } = ctx;
    const statuses = () => web.events.filter((e) => e.event.type === 'taskStatus').map((e) => e.event.status);
    const ack = await web.timeout(5_000).emitWithAck('frontend_message', {
      v: 1,
      type: 'user_message',
      id: `evt-${ulid()}`,
      timestamp: Date.now(),
      taskId: TASK,
      content: 'open the slow page',
    });
    assert.is(ack.ok, true);

    // browser_open waits for the slow page's load event: the overlay shows the AI at work.
    await waitUntil(() => browser.context.pages().some((p) => p.url().startsWith(`${site.url}/slow.html`)), 10_000);
    const page = browser.context.pages().find((p) => p.url().startsWith(`${site.url}/slow.html`))!;
    await page.waitForSelector('#mimo-step', { timeout: 5_000 });
    const tabActive = await browser.serviceWorker.evaluate(() =>
      (globalThis as any).chrome.tabs.query({ active: true }).then((tabs: any[]) => tabs.map((t) => t.url)),
    );
    assert.not.ok(
      tabActive.some((url: string) => url.includes('slow.html')),
      'the task tab stays in the background',
    );

    await page.click('#mimo-take-over');
    await waitUntil(() => statuses().includes('takeover'), 5_000);
    await page.waitForSelector('#mimo-resume', { timeout: 5_000 });
    const detail = (await (await fetch(`${ctx.runtime.server.url}/api/task/${TASK}`)).json()).data;
    assert.is(detail.task.status, 'takeover');

    await page.click('#mimo-resume');
    await waitUntil(() => statuses().lastIndexOf('running') > statuses().indexOf('takeover'), 5_000);
    await waitUntil(() => statuses().at(-1) === 'ongoing', 20_000);
    const tools = web.events
      .filter((e) => e.event.type === 'toolUsed' && e.event.phase === 'success')
      .map((e) => e.event.actionName);
    assert.ok(tools.includes('browser_screenshot'), `actions that succeeded: ${tools.join(', ')}`);
    assert.ok(
      web.events.some((e) => e.event.type === 'chatDelta' && /slow page is open/.test(e.event.delta?.content ?? '')),
    );
  },
);

s.run();
