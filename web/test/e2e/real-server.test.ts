// The web UI against the real Mimo server (runtime/server.ts with the agent orchestrator, a
// scripted LLM) and the runtime's fake plugin acting as the browser: the same journey as
// web-ui.test.ts, with the event shapes the runtime really emits.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MimoServer } from '../../../runtime/server.ts';
import { startFakePlugin, type FakePlugin } from '../../../runtime/test-util/fake-plugin.ts';
import { buildWeb } from '../../build.ts';
import { launchChromium } from './browser.ts';
import { fakeBrowser, homeSnapshot, TASK_TAB_ID } from './harness/fake-browser.ts';
import { startRealRuntime } from './harness/real-runtime.ts';

const root = new URL('../../../', import.meta.url).pathname;
const shots = join(root, 'test-output/web');
const TOKEN = 'real-e2e-token';
const WAIT = { timeout: 20_000 };

interface Ctx {
  dir: string;
  distDir: string;
  server: MimoServer;
  plugin: FakePlugin | undefined;
  browser: Browser;
  page: Page;
  pageErrors: string[];
}

const real = suite<Ctx>('web UI end-to-end (chromium, real server, fake plugin)');
const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`) });
const count = (page: Page, selector: string) => page.locator(selector).count();

async function connectPlugin(ctx: Ctx) {
  ctx.plugin = undefined;
  const plugin = await startFakePlugin({
    url: ctx.server.url,
    clientId: 'plugin-real-e2e',
    token: TOKEN,
    answer: fakeBrowser(() => ctx.plugin),
    snapshot: homeSnapshot,
  });
  ctx.plugin = plugin;
}

real.before(async (ctx) => {
  mkdirSync(shots, { recursive: true });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-real-'));
  ctx.distDir = join(ctx.dir, 'dist');
  await buildWeb({ outDir: ctx.distDir, logLevel: 'silent' });
  ctx.server = await startRealRuntime({ dir: ctx.dir, webDir: ctx.distDir, token: TOKEN });
  await connectPlugin(ctx);
  ctx.browser = await launchChromium();
  ctx.page = await (await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  ctx.pageErrors = [];
  ctx.page.on('pageerror', (error) => ctx.pageErrors.push(String(error)));
});

real.after(async (ctx) => {
  await ctx.browser?.close();
  ctx.plugin?.close();
  await ctx.server?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

real('a message runs a real turn: streamed text, tool steps with a screenshot, snapshot and machines', async (ctx) => {
  const { page, server } = ctx;
  await page.goto(`${server.url}/?token=${TOKEN}`);
  await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  await page.waitForSelector('[data-testid=extension-panel][data-state=one]', WAIT);
  await page.waitForSelector('[data-testid=snapshot-panel] [data-testid=tab]', WAIT);
  await page.getByRole('tab', { name: 'Machines' }).click();

  const box = page.getByLabel('Message to the agent');
  await box.fill('Open example.com and tell me what it is');
  await box.press('Enter');
  await page.waitForSelector('[data-testid=assistant-message].streaming', WAIT);
  await page.waitForSelector('[data-machine=task] [data-path="status.running.active"].current', WAIT);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=assistant-message]')?.textContent?.includes('look at it.'),
    null,
    WAIT,
  );
  await page.waitForFunction(
    () => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=tool-step] .thumb img');
      return !!img && img.complete && img.naturalWidth === 640;
    },
    null,
    WAIT,
  );
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid=assistant-message]')].some((m) =>
        m.textContent?.includes('illustrative examples.'),
      ),
    null,
    WAIT,
  );
  await page.waitForSelector('[data-machine=task] [data-path="status.ongoing.idle"].current', WAIT);
  const steps = await page.locator('[data-testid=tool-step] .tool-name').allTextContents();
  const titles = await page.getByTestId('step-title').allInnerTexts();
  assert.ok(
    titles.some((t) => /^Opened /.test(t)),
    `step titles in plain words: ${titles.join(' | ')}`,
  );
  assert.ok(steps.includes('task_start') && steps.includes('browser_screenshot'), `tool steps: ${steps.join(', ')}`);
  assert.ok(
    (await count(page, '[data-machine=action] .state.current')) === 1,
    'an action machine is drawn with its state',
  );
  await page.waitForSelector('[data-testid=usage]', WAIT);
  await shot(page, 'real-01-answer-machines-1280');

  await page.getByRole('tab', { name: 'Browser' }).click();
  await page.waitForSelector(`[data-testid=tab][data-tab-id="${TASK_TAB_ID}"].tab-task`, WAIT);
  await shot(page, 'real-02-answer-browser-1280');
});

real('Take over from the UI, then Resume', async (ctx) => {
  const { page } = ctx;
  await page.getByRole('button', { name: 'Take over' }).click();
  const banner = page.getByTestId('takeover-banner');
  await banner.waitFor(WAIT);
  await shot(page, 'real-03-takeover-1280');
  await banner.getByRole('button', { name: 'Resume' }).click();
  await banner.waitFor({ state: 'detached', ...WAIT });
  assert.match(await page.locator('[data-testid=status-badge]').first().innerText(), /Done/);
});

real('server restart: reconnect, refetch, no duplicates', async (ctx) => {
  const { page } = ctx;
  const counts = async () => ({
    user: await count(page, '[data-testid=user-message]'),
    assistant: await count(page, '[data-testid=assistant-message]'),
    tools: await count(page, '[data-testid=tool-step]'),
    thumbs: await count(page, '[data-testid=tool-step] .thumb img'),
  });
  const before = await counts();
  assert.is(before.user, 1);
  const port = Number(new URL(ctx.server.url).port);
  ctx.plugin?.close();
  await ctx.server.close();
  await page.waitForSelector('[data-testid=connection]:not([data-status=connected])', WAIT);
  ctx.server = await startRealRuntime({ dir: ctx.dir, webDir: ctx.distDir, token: TOKEN, port });
  await connectPlugin(ctx);
  await page.waitForSelector('[data-testid=connection][data-status=connected]', { timeout: 30_000 });
  await page.waitForTimeout(1_000);
  assert.equal(await counts(), before, 'the same conversation, nothing twice');
  await shot(page, 'real-04-after-restart-1280');
  assert.equal(ctx.pageErrors, []);
});

real.run();
