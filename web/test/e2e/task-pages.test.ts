// The sidebar loads the task list page by page in a real chromium against the scripted server:
// 120 tasks, the first 50 at start, the next page when the "Load more tasks" button is scrolled into
// view or clicked, and no more requests once the last page is in.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildWeb } from '../../build.ts';
import { seriousViolations } from './axe.ts';
import { launchChromium } from './browser.ts';
import { startScriptedServer, type ScriptedServer } from './harness/scripted-server.ts';
import { createWorld } from './harness/world.ts';

const root = new URL('../../../', import.meta.url).pathname;
const TOKEN = 'e2e-token';
const WAIT = { timeout: 15_000 };

const e2e = suite<{ server: ScriptedServer; browser: Browser }>('web UI: task list pages (chromium, scripted server)');

e2e.before(async (ctx) => {
  const distDir = join(root, 'test-output/web/dist-pages');
  await buildWeb({ outDir: distDir, logLevel: 'silent' });
  const world = createWorld();
  for (let i = 0; i < 120; i += 1) {
    const taskId = `01HR0000000000000000000${String(i).padStart(3, '0')}`;
    world.tasks.set(taskId, {
      summary: { taskId, title: `Paged task ${i}`, status: 'ongoing', createdAt: 1_000, updatedAt: 100_000 - i },
      messages: [],
    });
  }
  ctx.server = await startScriptedServer({ world, distDir, token: TOKEN });
  ctx.browser = await launchChromium();
});

e2e.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

e2e('first page at start, next pages by button and by scrolling to the end', async (ctx) => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const lists = () => ctx.server.requests.filter((r) => r.path === '/api/task/list').length;
  await page.goto(`${ctx.server.url}/?token=${TOKEN}`);
  await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=task-row]').length === 50, undefined, WAIT);
  assert.is(lists(), 1, 'one page request at start, not the whole list');
  assert.equal(
    await seriousViolations(page, 'sidebar with "Load more tasks"'),
    [],
    'axe: no serious or critical violation',
  );
  assert.is(
    await page
      .locator('[data-testid=task-row]')
      .first()
      .textContent()
      .then((t) => t?.includes('Paged task 0')),
    true,
  );
  // Scrolling to the end loads one page; the button then sits below the new rows again.
  await page.locator('[data-testid=load-more]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=task-row]').length === 100, undefined, WAIT);
  assert.is(lists(), 2);
  await page.getByRole('button', { name: 'Load more tasks' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=task-row]').length === 120, undefined, WAIT);
  assert.is(await page.locator('[data-testid=load-more]').count(), 0, 'no button once every task is loaded');
  assert.ok(await page.getByText('Paged task 119').isVisible());
  assert.is(lists(), 3);
  await page.close();
});

e2e.run();
