// The live view end to end: the real server (orchestrator, relay), the real extension in
// Chromium streaming its task tab with CDP Page.startScreencast, and the web UI showing the
// frames with Take over on them. Also: a second web client that does not watch gets no frame,
// at most 5 frames a second arrive, and a hidden page stops the stream.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildExtension } from '../../../extension/build.ts';
import { configureThroughOptionsPage } from '../../../extension/test/e2e/e2e-util.ts';
import { launchWithExtension, type LaunchedBrowser } from '../../../extension/test/harness/chromium.ts';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import type { LlmEvent, LlmGateway } from '../../../runtime/llm/llm-types.ts';
import type { MimoServer } from '../../../runtime/server.ts';
import { LIVE_FRAME_EVENT, MIMO_NAMESPACE } from '../../../transport/contracts/index.ts';
import { buildWeb } from '../../build.ts';
import { startRealRuntime } from './harness/real-runtime.ts';

const root = new URL('../../../', import.meta.url).pathname;
const shots = join(root, 'test-output/web/live');
const TOKEN = 'live-e2e-token';
const WAIT = { timeout: 30_000 };

interface Ctx {
  dir: string;
  site: FixtureSite;
  server: MimoServer;
  launched: LaunchedBrowser;
  context: BrowserContext;
  page: Page;
  other: Socket;
  otherFrames: number;
  release: () => void;
  taskId: string;
}

/** Opens the page, then keeps the turn running until the test releases it. */
function heldLlm(ctx: Ctx, url: () => string): LlmGateway {
  return {
    kind: 'openai',
    model: 'held-e2e-model',
    async *streamChat(input) {
      const toolsDone = input.messages.filter((m) => m.role === 'tool').length;
      if (toolsDone === 0) {
        yield {
          type: 'tool_call',
          toolCallId: 'call-open',
          name: 'browser_open',
          arguments: { url: url() },
        } as LlmEvent;
        yield { type: 'done' } as LlmEvent;
        return;
      }
      await new Promise<void>((resolve) => (ctx.release = resolve));
      yield { type: 'delta', content: 'Done watching.' } as LlmEvent;
      yield { type: 'done' } as LlmEvent;
    },
  };
}

const live = suite<Ctx>('live view end-to-end (chromium, real extension, real server)');

live.before(async (ctx) => {
  mkdirSync(shots, { recursive: true });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-live-'));
  ctx.release = () => {};
  const distDir = join(ctx.dir, 'dist');
  const extDir = join(ctx.dir, 'ext');
  await buildWeb({ outDir: distDir, logLevel: 'silent' });
  await buildExtension({ outDir: extDir });
  ctx.site = await serveFixtureSite();
  ctx.server = await startRealRuntime({
    dir: ctx.dir,
    webDir: distDir,
    token: TOKEN,
    llm: heldLlm(ctx, () => `${ctx.site.url}/article.html`),
  });
  ctx.launched = await launchWithExtension(extDir);
  ctx.context = ctx.launched.context;
  await configureThroughOptionsPage(ctx.context, ctx.launched.extensionId, ctx.server.url, TOKEN);
  ctx.page = await ctx.context.newPage();
  await ctx.page.setViewportSize({ width: 1280, height: 800 });
});

live.after(async (ctx) => {
  ctx.release?.();
  ctx.other?.close();
  await ctx.launched?.close();
  await ctx.server?.close();
  await ctx.site?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

live('the running task tab is streamed to the web UI, at most 5 fps, with Take over on it', async (ctx) => {
  const { page } = ctx;
  await page.goto(`${ctx.server.url}/?token=${TOKEN}`);
  await page.waitForSelector('[data-testid=extension-status][data-state=connected]', WAIT);
  const box = page.getByLabel('Message to the agent');
  await box.fill('Open the article and wait');
  await box.press('Enter');
  await page.waitForFunction(() => location.hash.startsWith('#/task/'), null, WAIT);
  ctx.taskId = await page.evaluate(() => location.hash.slice('#/task/'.length));

  // A second frontend on the same task, not watching the live view: it must get no frame.
  ctx.otherFrames = 0;
  ctx.other = io(`${ctx.server.url}${MIMO_NAMESPACE}`, {
    auth: { clientType: 'frontend', token: TOKEN },
    transports: ['websocket'],
  });
  ctx.other.on(LIVE_FRAME_EVENT, () => (ctx.otherFrames += 1));
  await new Promise<void>((resolve) => ctx.other.on('connect', () => resolve()));
  await ctx.other.timeout(5_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'subscribe_task',
    id: 'evt-other-1',
    timestamp: Date.now(),
    taskId: ctx.taskId,
  });

  // The page the agent opened keeps changing, as a live page does.
  const deadline = Date.now() + 20_000;
  let article: Page | undefined;
  while (!article && Date.now() < deadline) {
    article = ctx.context.pages().find((p) => p.url().includes('/article.html'));
    if (!article) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(article, 'the agent opened the article in a tab');
  await article!.evaluate(() => {
    const tick = document.createElement('p');
    tick.id = 'tick';
    tick.style.cssText = 'font: 48px monospace; background: #fc0';
    document.body.prepend(tick);
    let n = 0;
    setInterval(() => (tick.textContent = `tick ${++n}`), 50);
  });

  const frame = page.getByTestId('live-frame');
  await frame.waitFor(WAIT);
  const first = Number(await frame.getAttribute('data-seq'));
  const started = Date.now();
  await page.waitForTimeout(3_000);
  const last = Number(await frame.getAttribute('data-seq'));
  const seconds = (Date.now() - started) / 1000;
  const fps = (last - first) / seconds;
  assert.ok(last - first >= 3, `frames keep coming (${first} -> ${last} in ${seconds.toFixed(1)} s)`);
  assert.ok(fps <= 5.5, `at most 5 fps (${fps.toFixed(2)})`);
  const size = await frame.evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
  assert.ok(size.w > 100 && size.h > 100, `a real picture of the tab (${size.w}x${size.h})`);
  const stats = ctx.server.live.stats();
  assert.ok(stats.framesIn >= last - first, `the relay saw the frames (${JSON.stringify(stats)})`);
  assert.is(ctx.otherFrames, 0, 'a client that does not watch gets no frame');
  console.log(
    `[live view] ${stats.framesIn} frames relayed, ${(stats.bytesIn / Math.max(1, stats.framesIn) / 1024).toFixed(1)} KB base64 per frame on average, ${fps.toFixed(2)} fps seen by the page`,
  );
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(shots, `live-1280-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByTestId('live-view').getByRole('button', { name: 'Take over' }).click();
  await page.waitForSelector('.task-header [data-testid=status-badge][data-state=needs-you]', WAIT);
  await page.getByTestId('live-view').getByRole('button', { name: 'Resume' }).waitFor(WAIT);
  await page.screenshot({ path: join(shots, 'live-takeover-1280-light.png') });
  await page.getByTestId('live-view').getByRole('button', { name: 'Resume' }).click();
  await page.waitForSelector('.task-header [data-testid=status-badge][data-state=running]', WAIT);
});

live('a hidden page stops watching: the plugin stops streaming', async (ctx) => {
  const { page } = ctx;
  assert.is(ctx.server.live.viewers(ctx.taskId), 1);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForFunction(() => true);
  const deadline = Date.now() + 5_000;
  while (ctx.server.live.viewers(ctx.taskId) !== 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  assert.is(ctx.server.live.viewers(ctx.taskId), 0);
  await new Promise((r) => setTimeout(r, 800)); // frames already on the way may land
  const before = ctx.server.live.stats().framesIn;
  await new Promise((r) => setTimeout(r, 1_500));
  assert.is(ctx.server.live.stats().framesIn, before, 'no frame is sent while nobody watches');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForFunction(() => true);
  const back = Date.now() + 5_000;
  while (ctx.server.live.viewers(ctx.taskId) !== 1 && Date.now() < back) await new Promise((r) => setTimeout(r, 50));
  assert.is(ctx.server.live.viewers(ctx.taskId), 1, 'visible again: watching again');
  ctx.release();
  await page.waitForSelector('.task-header [data-testid=status-badge][data-state=done]', WAIT);
  await page.waitForFunction(
    () =>
      !document.querySelector('[data-testid=live-view]') ||
      document.querySelector('[data-testid=live-state]')?.textContent === 'Last frame',
    null,
    WAIT,
  );
  assert.is(ctx.server.live.viewers(ctx.taskId), 0, 'a finished task is not watched');
});

live.run();
