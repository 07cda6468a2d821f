// A turn cut short by a server restart, seen in a real browser (issue 22): the real server stops
// while an action is in flight (server.close, the SIGTERM path) and a new one starts on the same
// data folder and port. The open page reconnects and shows the task "Interrupted" with the cause
// and Resume, never Done, its step no longer running and the cause never "the extension went
// offline"; a reload shows the same; Resume runs the last message again and the task ends Done.
// Screenshots go to test-output/web/states/interrupted-*.png.
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
import { fakeBrowser, homeSnapshot } from './harness/fake-browser.ts';
import { intentLlm } from './harness/intent-llm.ts';
import { startRealRuntime } from './harness/real-runtime.ts';

const root = new URL('../../../', import.meta.url).pathname;
const shots = join(root, 'test-output/web/states');
const TOKEN = 'interrupted-e2e-token';
const WAIT = { timeout: 20_000 };

interface Ctx {
  dir: string;
  distDir: string;
  server?: MimoServer;
  plugin?: FakePlugin;
  browser: Browser;
  page: Page;
}
const s = suite<Ctx>('interrupted by a server restart (chromium, real server, fake plugin)');

async function plugin(ctx: Ctx, hold: boolean): Promise<FakePlugin> {
  const base = fakeBrowser(() => ctx.plugin);
  return startFakePlugin({
    url: ctx.server!.url,
    clientId: 'plugin-interrupted-e2e',
    token: TOKEN,
    snapshot: homeSnapshot,
    // The first server never gets the page load: the restart comes while it waits.
    answer: (name, params, frame) =>
      hold && name === 'browser_wait_for_loaded' ? { result: null } : base(name, params, frame),
  });
}

s.before(async (ctx) => {
  mkdirSync(shots, { recursive: true });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-interrupted-'));
  ctx.distDir = join(ctx.dir, 'dist');
  await buildWeb({ outDir: ctx.distDir, logLevel: 'silent' });
  ctx.server = await startRealRuntime({ dir: ctx.dir, webDir: ctx.distDir, token: TOKEN, llm: intentLlm() });
  ctx.plugin = await plugin(ctx, true);
  ctx.browser = await launchChromium();
  ctx.page = await (await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
});

s.after(async (ctx) => {
  await ctx.browser?.close();
  ctx.plugin?.close();
  await ctx.server?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

s(
  'restart mid-action: Interrupted with Resume (never Done), the same after a reload; Resume finishes the task',
  async (ctx) => {
    const { page } = ctx;
    await page.goto(`${ctx.server!.url}/?token=${TOKEN}`);
    await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
    const box = page.getByLabel('Message to the agent');
    await box.fill('Open https://example.com/ and summarise the page');
    await box.press('Enter');
    await page.locator('[data-testid=tool-step][data-phase=start]').waitFor(WAIT);

    // The server stops (SIGTERM path) and a new one starts on the same folder and port.
    const port = Number(new URL(ctx.server!.url).port);
    await ctx.server!.close();
    ctx.plugin!.close();
    ctx.server = await startRealRuntime({ dir: ctx.dir, webDir: ctx.distDir, token: TOKEN, llm: intentLlm(), port });
    ctx.plugin = await plugin(ctx, false);

    const header = page.locator('.task-header');
    await header.locator('[data-testid=status-badge][data-state=interrupted]').waitFor(WAIT);
    const outcome = header.locator('[data-testid=task-outcome][data-outcome=interrupted]');
    await outcome.waitFor(WAIT);
    assert.match(await outcome.innerText(), /^Interrupted: The server restarted while this task was running/);
    assert.not.match(await outcome.innerText(), /extension/i, 'not "the extension went offline"');
    assert.is(await page.locator('[data-testid=tool-step][data-phase=start]').count(), 0, 'no step left running');
    assert.is(await page.locator('[data-testid=status-badge][data-state=done]').count(), 0, 'never Done');
    await page.screenshot({ path: join(shots, 'interrupted-1280-light.png') });

    await page.reload();
    await header.locator('[data-testid=status-badge][data-state=interrupted]').waitFor(WAIT);
    await outcome.waitFor(WAIT);
    // The task list says so too, from the list alone: with another task open, its row is Interrupted.
    const taskId = await page.locator('[data-testid=task-row][aria-current=page]').getAttribute('data-task-id');
    await page.getByRole('button', { name: '+ New task' }).click();
    const row = page.locator(`[data-testid=task-row][data-task-id="${taskId}"]`);
    await row.locator('[data-testid=status-badge][data-state=interrupted]').waitFor(WAIT);
    assert.is(await row.locator('[data-testid=status-badge][data-state=failed]').count(), 0, 'not Failed');
    await row.click();
    await outcome.waitFor(WAIT);
    assert.is(
      await page.locator('[data-testid=tool-step][data-phase=start]').count(),
      0,
      'no step left running after a reload',
    );

    await outcome.getByRole('button', { name: 'Resume' }).click();
    await header.locator('[data-testid=status-badge][data-state=done]').waitFor(WAIT);
    assert.is(
      await page.locator('[data-testid=user-message]').count(),
      1,
      'Resume ran the same message; it sent no new one',
    );
    await page.screenshot({ path: join(shots, 'interrupted-resumed-1280-light.png') });
  },
);

s.run();
