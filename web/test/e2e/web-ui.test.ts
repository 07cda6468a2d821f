// The web UI in a real chromium against the scripted server: send a message, watch it stream,
// see the tool step with its screenshot, the snapshot and the machine view change, take over
// and resume, survive a server restart, and fit a 420 px wide window. Screenshots of the main
// states go to test-output/web/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildWeb } from '../../build.ts';
import { launchChromium } from './browser.ts';
import { startScriptedServer, type ScriptedServer } from './harness/scripted-server.ts';
import { createWorld, type HarnessWorld } from './harness/world.ts';

const root = new URL('../../../', import.meta.url).pathname;
const shots = join(root, 'test-output/web');
const TOKEN = 'e2e-token';
const WAIT = { timeout: 15_000 };

interface Ctx {
  distDir: string;
  world: HarnessWorld;
  server: ScriptedServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
  taskId: string;
}

const e2e = suite<Ctx>('web UI end-to-end (chromium, scripted server)');

const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`) });
const count = (page: Page, selector: string) => page.locator(selector).count();

e2e.before(async (ctx) => {
  mkdirSync(shots, { recursive: true });
  ctx.distDir = join(shots, 'dist-e2e');
  await buildWeb({ outDir: ctx.distDir, logLevel: 'silent' });
  ctx.world = createWorld();
  ctx.server = await startScriptedServer({ world: ctx.world, distDir: ctx.distDir, token: TOKEN });
  ctx.browser = await launchChromium();
  ctx.context = await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } });
  ctx.page = await ctx.context.newPage();
  ctx.pageErrors = [];
  ctx.page.on('pageerror', (error) => ctx.pageErrors.push(String(error)));
});

e2e.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.close();
});

e2e('loads with the token, connects, lists the extension and the browser snapshot', async (ctx) => {
  const { page, server } = ctx;
  await page.goto(`${server.url}/?token=${TOKEN}`);
  await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  assert.not.match(page.url(), /token=/, 'the token leaves the address bar');
  assert.is(await page.evaluate(() => localStorage.getItem('mimo.token')), TOKEN);
  await page.waitForSelector('[data-testid=extension-panel][data-state=one]', WAIT);
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=snapshot-panel] [data-testid=tab]').length === 2,
    null,
    WAIT,
  );
  assert.ok(
    server.requests.length > 0 && server.requests.filter((r) => r.path !== '/api/artifacts').every((r) => r.authorized),
    'every API call carried the bearer token',
  );
  await shot(page, '01-start-1280');
});

e2e(
  'a message streams an answer with a tool step, a screenshot thumbnail, a snapshot change and machine highlights',
  async (ctx) => {
    const { page, server } = ctx;
    await page.getByRole('tab', { name: 'Machines' }).click();
    await page.waitForSelector('[data-machine=task]', WAIT);
    const box = page.getByLabel('Message to the agent');
    await box.fill('Open example.com and tell me what it shows');
    await box.press('Enter');
    assert.is(await box.inputValue(), '', 'Enter sent the message');

    await page.waitForSelector('[data-testid=user-message]', WAIT);
    // Streaming: the first answer grows while the cursor shows.
    await page.waitForSelector('[data-testid=assistant-message].streaming', WAIT);
    const partial = await page.locator('[data-testid=assistant-message]').first().innerText();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=assistant-message]')?.textContent?.includes('screenshot.'),
      null,
      WAIT,
    );
    const complete = await page.locator('[data-testid=assistant-message]').first().innerText();
    assert.ok(
      partial.length < complete.length,
      `text arrived in pieces (${JSON.stringify(partial)} -> ${JSON.stringify(complete)})`,
    );
    assert.ok(
      await page.locator('[data-testid=assistant-message] strong', { hasText: 'example.com' }).count(),
      'Markdown bold rendered',
    );

    await page.waitForSelector(
      '[data-machine=task][data-value*="status.running.active"] [data-path="status.running.active"].current',
      WAIT,
    );
    await page.waitForSelector('[data-machine=action] [data-path="executing"].current', WAIT);
    await shot(page, '02-streaming-machines-1280');

    const thumb = page.locator('[data-testid=tool-step][data-phase=success] .thumb img');
    await thumb.waitFor(WAIT);
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('[data-testid=tool-step] .thumb img');
        return !!img && img.complete && img.naturalWidth === 640;
      },
      null,
      WAIT,
    );
    // The step reads in plain words; its raw actions (name, params, result) are one click away.
    const step = page.locator('[data-testid=tool-step]').first();
    assert.match(await step.getByTestId('step-title').innerText(), /^Opened /);
    assert.not.match(await step.innerText(), /task_start/, 'the raw name is not on the step line');
    await step.getByTestId('step-details').locator('summary').click();
    assert.match(await step.getByTestId('step-details').innerText(), /task_start/);

    await page.waitForSelector('[data-testid=assistant-message] table', WAIT);
    await page.waitForSelector(
      '[data-machine=task][data-value*="status.ongoing.idle"] [data-path="status.ongoing.idle"].current',
      WAIT,
    );
    assert.is(
      await count(page, '[data-machine=task] .state.current'),
      3,
      'one current state per region of the task chart (status, action, plugin UI)',
    );
    assert.is(await count(page, '[data-machine=action] [data-path=idle].current'), 1, 'the action actor is idle again');
    assert.ok((await count(page, '[data-testid=machine-events] li')) >= 3, 'recent events listed');
    await page.waitForSelector('[data-testid=usage]', WAIT);
    assert.match(await page.locator('[data-testid=usage]').innerText(), /1\.3k tokens/);
    assert.match(await page.locator('[data-testid=status-badge]').first().innerText(), /Done/);
    await shot(page, '03-answer-machines-1280');

    await page.getByRole('tab', { name: 'Browser' }).click();
    await page.waitForSelector('[data-testid=tab][data-tab-id="101"].tab-task', WAIT);
    assert.is(await count(page, '[data-testid=snapshot-panel] [data-testid=tab]'), 3);
    assert.match(await page.locator('.group-title').innerText(), /Mimo/);
    await shot(page, '04-answer-browser-1280');

    await page.locator('.thumb').first().click();
    await page.waitForSelector('.viewer img', WAIT);
    await shot(page, '05-screenshot-viewer-1280');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.viewer', { state: 'detached', ...WAIT });

    ctx.taskId = server.received.find((m) => m.type === 'user_message')!.taskId;
    assert.match(page.url(), new RegExp(`#/task/${ctx.taskId}$`), 'the open task is in the address');
    assert.equal(
      server.received.slice(0, 3).map((m) => m.type),
      ['subscribe_task', 'subscribe_inspection', 'user_message'],
      'subscribed to the new task and its machines before the message went out',
    );
  },
);

e2e('takeover shows the banner; Resume hands control back', async (ctx) => {
  const { page, server } = ctx;
  server.takeover(ctx.taskId);
  const banner = page.getByTestId('takeover-banner');
  await banner.waitFor(WAIT);
  assert.match(await banner.innerText(), /You have control/);
  assert.match(await page.locator('[data-testid=status-badge]').first().innerText(), /Needs you/);
  await shot(page, '06-takeover-1280');
  await banner.getByRole('button', { name: 'Resume' }).click();
  await banner.waitFor({ state: 'detached', ...WAIT });
  assert.ok(server.received.some((m) => m.type === 'resume_task' && m.taskId === ctx.taskId));
  assert.match(await page.locator('[data-testid=status-badge]').first().innerText(), /Done/);
});

/** Stands in for https://stately.ai/inspect (no internet here): says hello and keeps what it receives. */
const FAKE_INSPECTOR = `<!doctype html><title>Stately Inspector (stand-in)</title><script>
window.received = [];
addEventListener('message', (e) => window.received.push(e.data));
window.opener.postMessage({ type: '@statelyai.connected' }, '*');
</script>`;

e2e('Open in Stately Inspector feeds the same actors to the inspector window', async (ctx) => {
  const { page } = ctx;
  await ctx.context.route(/^https:\/\/stately\.ai\/inspect/, (route) =>
    route.fulfill({ contentType: 'text/html', body: FAKE_INSPECTOR }),
  );
  await page.getByRole('tab', { name: 'Machines' }).click();
  const [popup] = await Promise.all([
    page.waitForEvent('popup', WAIT),
    page.getByRole('button', { name: 'Open in Stately Inspector' }).click(),
  ]);
  await popup.waitForURL(/stately\.ai\/inspect/, { waitUntil: 'commit', ...WAIT });
  await page.getByText('Stately Inspector connected').waitFor(WAIT);
  await popup.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length > 5, null, WAIT);
  const received = (await popup.evaluate(() => (window as unknown as { received: unknown[] }).received)) as {
    type: string;
    name?: string;
    definition?: string;
    snapshot?: { value?: unknown };
  }[];
  const taskActor = received.find((r) => r.type === '@xstate.actor' && r.name === 'task');
  assert.ok(taskActor, `the task actor is registered: ${JSON.stringify(received.map((r) => r.type))}`);
  assert.match(taskActor.definition ?? '', /"running"/, 'with its machine definition');
  assert.ok(
    received.some(
      (r) =>
        r.type === '@xstate.snapshot' &&
        JSON.stringify((r.snapshot?.value as { status?: unknown } | undefined)?.status) === '{"ongoing":"idle"}',
    ),
    'and its current state',
  );
  await shot(page, '06b-stately-connected-1280');
  await popup.close();
  await page.getByRole('button', { name: 'Close Stately Inspector' }).click();
  await page.getByRole('button', { name: 'Open in Stately Inspector' }).waitFor(WAIT);
  await page.getByRole('tab', { name: 'Browser' }).click();
});

e2e('a server restart: the UI reconnects, refetches and shows nothing twice', async (ctx) => {
  const { page } = ctx;
  const before = {
    user: await count(page, '[data-testid=user-message]'),
    assistant: await count(page, '[data-testid=assistant-message]'),
    tools: await count(page, '[data-testid=tool-step]'),
  };
  assert.equal(before, { user: 1, assistant: 2, tools: 2 });
  const port = ctx.server.port;
  await ctx.server.close();
  await page.waitForSelector('[data-testid=connection][data-status=reconnecting]', WAIT);
  await shot(page, '07-reconnecting-1280');
  ctx.server = await startScriptedServer({ world: ctx.world, distDir: ctx.distDir, token: TOKEN, port });
  await page.waitForSelector('[data-testid=connection][data-status=connected]', { timeout: 30_000 });
  const server = ctx.server;
  const refetched = () =>
    ['/api/snapshot', `/api/task/${ctx.taskId}`, '/api/task/list'].every((p) =>
      server.requests.some((r) => r.path === p),
    );
  for (let i = 0; i < 100 && !refetched(); i++) await page.waitForTimeout(50);
  assert.ok(refetched(), `refetched after reconnect: ${JSON.stringify(server.requests.map((r) => r.path))}`);
  assert.ok(
    server.received.some((m) => m.type === 'subscribe_task' && m.taskId === ctx.taskId),
    'resubscribed to the task',
  );
  await page.waitForTimeout(300);
  assert.equal(
    {
      user: await count(page, '[data-testid=user-message]'),
      assistant: await count(page, '[data-testid=assistant-message]'),
      tools: await count(page, '[data-testid=tool-step]'),
    },
    before,
  );
  assert.is(await count(page, '[data-testid=tool-step] .thumb img'), 1, 'the screenshot step kept its thumbnail');

  // The new server counts snapshot seq from 1 again; its pushes must still be applied.
  const box = page.getByLabel('Message to the agent');
  await box.fill('Now look again');
  await box.press('Shift+Enter');
  await box.type('please');
  assert.is(await box.inputValue(), 'Now look again\nplease', 'Shift+Enter makes a new line');
  await box.press('Enter');
  await page.waitForSelector('[data-testid=tab][data-tab-id="102"].tab-task', WAIT);
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[data-testid=assistant-message]').length === 4 &&
      !document.querySelector('.streaming'),
    null,
    WAIT,
  );
  assert.is(await count(page, '[data-testid=user-message]'), 2);
  await server.idle();
  await shot(page, '08-after-restart-1280');
});

e2e('420 px wide: one pane at a time, no horizontal scrolling', async (ctx) => {
  const narrow = await ctx.context.newPage();
  narrow.on('pageerror', (error) => ctx.pageErrors.push(String(error)));
  await narrow.setViewportSize({ width: 420, height: 800 });
  await narrow.goto(`${ctx.server.url}/#/task/${ctx.taskId}`);
  await narrow.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  await narrow.waitForFunction(
    () => document.querySelectorAll('[data-testid=assistant-message]').length === 4,
    null,
    WAIT,
  );
  const overflow = () => narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok((await overflow()) <= 0, 'chat pane fits');
  await shot(narrow, '09-chat-420');
  await narrow.getByRole('button', { name: 'Tasks' }).click();
  await narrow.waitForSelector('.pane-tasks .task-link', WAIT);
  assert.ok((await overflow()) <= 0, 'task pane fits');
  await shot(narrow, '10-tasks-420');
  assert.is(
    await count(narrow, '[data-testid=tool-step] .thumb img'),
    2,
    'screenshots come back from history after a reload',
  );
  await narrow.getByRole('button', { name: 'Browser', exact: true }).click();
  await narrow.waitForSelector('[data-testid=tab][data-tab-id="102"].tab-task', WAIT);
  assert.ok((await overflow()) <= 0, 'panel fits');
  await shot(narrow, '11-browser-420');
  await narrow.getByRole('tab', { name: 'Machines' }).click();
  await narrow.waitForSelector('[data-machine=task][data-value*="status.ongoing.idle"]', WAIT);
  await shot(narrow, '12-machines-420');
  await narrow.close();
  assert.equal(ctx.pageErrors, [], 'no uncaught errors in the page');
});

e2e.run();
