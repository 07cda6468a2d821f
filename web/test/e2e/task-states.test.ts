// Task states at a glance, against the real server (orchestrator + a scripted LLM that acts on
// what was asked) and the runtime's fake plugin: a running step survives a reload, Stop leaves
// a "Stopped" task with its step canceled, another client's list follows live, steps read in
// plain words, and each error offers its action. Screenshots of each state, 1280x800 and
// 390x844, light and dark, go to test-output/web/states/.
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
const TOKEN = 'states-e2e-token';
const WAIT = { timeout: 20_000 };

interface Ctx {
  dir: string;
  server: MimoServer;
  plugin: FakePlugin;
  browser: Browser;
  a: Page;
  b: Page;
  problems: string[];
  /** While set, browser_wait_for_loaded waits for it. */
  hold: Promise<void> | null;
  release: () => void;
}

const states = suite<Ctx>('task states end-to-end (chromium, real server, fake plugin)');

const badge = (page: Page) => page.locator('.task-header [data-testid=status-badge]');

async function shotAll(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(shots, `${name}-1280-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

function watch(page: Page, label: string, problems: string[]) {
  page.on('console', (m) => m.type() === 'error' && problems.push(`${label} console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`${label} pageerror: ${String(e)}`));
  page.on(
    'response',
    (r) =>
      r.status() >= 400 && problems.push(`${label} ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`),
  );
}

async function send(page: Page, text: string) {
  const box = page.getByLabel('Message to the agent');
  await box.fill(text);
  await box.press('Enter');
}

states.before(async (ctx) => {
  mkdirSync(shots, { recursive: true });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-states-'));
  const distDir = join(ctx.dir, 'dist');
  await buildWeb({ outDir: distDir, logLevel: 'silent' });
  ctx.server = await startRealRuntime({ dir: ctx.dir, webDir: distDir, token: TOKEN, llm: intentLlm() });
  ctx.hold = null;
  ctx.release = () => {};
  const base = fakeBrowser(() => ctx.plugin);
  ctx.plugin = await startFakePlugin({
    url: ctx.server.url,
    clientId: 'plugin-states-e2e',
    token: TOKEN,
    snapshot: homeSnapshot,
    answer: async (name, params, frame) => {
      if (name === 'browser_wait_for_loaded') {
        if (ctx.hold) await ctx.hold;
        return { result: { status: 'success', result: { status: 'complete' } } };
      }
      // What the extension answers in a tab that shows Chrome's network error page (a refused connection):
      // chrome.scripting's refusal, as the page agent's runPageOp reports it (NAVIGATION_FAILED, reason error_page).
      const started = ctx.plugin.received.filter((f) => f.taskId === frame.taskId && f.action.task_start).pop()
        ?.action.task_start;
      if (
        String(started?.url ?? '').includes('unreachable') &&
        (name === 'browser_readability_extract' || name === 'browser_dom_index')
      ) {
        return {
          result: {
            status: 'error',
            error: {
              code: 'NAVIGATION_FAILED',
              message:
                "the tab shows the browser's error page: the page could not be loaded (Frame with ID 0 is showing error page)",
              retryable: false,
              details: { reason: 'error_page' },
            },
          },
        };
      }
      return base(name, params, frame);
    },
  });
  ctx.browser = await launchChromium();
  ctx.problems = [];
  ctx.a = await (await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  ctx.b = await (await ctx.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  watch(ctx.a, 'A', ctx.problems);
  watch(ctx.b, 'B', ctx.problems);
});

states.after(async (ctx) => {
  ctx.release?.();
  await ctx.browser?.close();
  ctx.plugin?.close();
  await ctx.server?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

states('running: the step reads in plain words, survives a reload, and shows in another client live', async (ctx) => {
  const { a, b } = ctx;
  for (const page of [a, b]) {
    await page.goto(`${ctx.server.url}/?token=${TOKEN}`);
    await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
    await page.waitForSelector('[data-testid=extension-status][data-state=connected]', WAIT);
  }
  ctx.hold = new Promise<void>((resolve) => (ctx.release = resolve));
  await send(a, 'Open https://example.com/ and summarise the page');
  const running = a.locator('[data-testid=tool-step][data-phase=start]');
  await running.waitFor(WAIT);
  assert.match(await running.getByTestId('step-title').innerText(), /^Opening example\.com/);
  assert.is(await badge(a).getAttribute('data-state'), 'running');
  assert.ok(await a.locator('.task-header').getByRole('button', { name: 'Stop', exact: true }).isVisible());
  assert.ok(await a.locator('.task-header').getByRole('button', { name: 'Take over', exact: true }).isVisible());

  // Another client: the new task appears without a reload, readable and running.
  await b.getByRole('button', { name: 'Tasks' }).click();
  const row = b.locator('[data-testid=task-row]', { hasText: 'example.com - summarise the page' });
  await row.waitFor(WAIT);
  assert.is(await row.locator('[data-testid=status-badge]').getAttribute('data-state'), 'running');
  await b.screenshot({ path: join(shots, 'running-list-390-light.png') });

  // Reload mid-step: the step in flight is still there, running.
  await a.reload();
  await a.locator('[data-testid=tool-step][data-phase=start]').waitFor(WAIT);
  const raw = await a
    .locator('[data-testid=tool-step][data-phase=start] [data-testid=substep]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  assert.ok(
    raw.includes('browser_wait_for_loaded'),
    `the action in flight is listed after the reload: ${raw.join(', ')}`,
  );
  await shotAll(a, 'running');
});

states(
  'Stop: the task reads Stopped, its step canceled, no Stop or Take over left; the other client follows',
  async (ctx) => {
    const { a, b } = ctx;
    await a.locator('.task-header').getByRole('button', { name: 'Stop', exact: true }).click();
    await a.waitForSelector('.task-header [data-testid=status-badge][data-state=stopped]', WAIT);
    await a.locator('[data-testid=tool-step][data-phase=canceled]').waitFor(WAIT);
    assert.is(await a.locator('.task-header').getByRole('button', { name: 'Stop', exact: true }).count(), 0);
    assert.is(await a.locator('.task-header').getByRole('button', { name: 'Take over', exact: true }).count(), 0);
    await b.waitForSelector('[data-testid=task-row] [data-testid=status-badge][data-state=stopped]', WAIT);
    ctx.hold = null;
    ctx.release();
    await shotAll(a, 'stopped');
  },
);

states('done: open then click reads "Opened Example Domain" and "Clicked \'More information...\'"', async (ctx) => {
  const { a } = ctx;
  await a.getByRole('button', { name: '+ New task' }).click();
  await send(a, 'Click the first link on https://example.com/');
  await a.waitForSelector('.task-header [data-testid=status-badge][data-state=done]', WAIT);
  const titles = await a.getByTestId('step-title').allInnerTexts();
  assert.equal(titles, ['Opened Example Domain', "Clicked 'More information...'"]);
  assert.ok(
    await a.locator('.task-header').getByRole('button', { name: 'Take over', exact: true }).isVisible(),
    'a done task can still be taken over',
  );
  assert.is(
    await a.locator('.task-header').getByRole('button', { name: 'Stop', exact: true }).count(),
    0,
    'a done task has nothing to stop',
  );
  const step = a.locator('[data-testid=tool-step]').first();
  await step.getByTestId('step-details').locator('summary').click();
  assert.match(await step.getByTestId('step-details').innerText(), /task_start[\s\S]*browser_dom_index/);
  assert.ok((await step.getByTestId('step-result').count()) > 0, 'the results are there live');
  await shotAll(a, 'done');
  await a.reload();
  await a.waitForSelector('[data-testid=tool-step]', WAIT);
  assert.equal(await a.getByTestId('step-title').allInnerTexts(), titles, 'the same words after a reload');
  const after = a.locator('[data-testid=tool-step]').first();
  await after.getByTestId('step-details').locator('summary').click();
  assert.ok((await after.getByTestId('step-result').count()) > 0, 'the results are there after a reload');
});

states(
  'machines tab (on the done task): the plugin UI actor live (takeover included), readable names, no xstate.* noise, payloads on click',
  async (ctx) => {
    const { a } = ctx;
    await a.getByRole('tab', { name: 'Machines' }).click();
    const pluginUi = a.locator('[data-machine=pluginUi] [data-testid=actor-label]').first();
    await a.waitForFunction(
      () =>
        /plugin UI · (hidden|ongoing)/.test(
          document.querySelector('[data-machine=pluginUi] [data-testid=actor-label]')?.textContent ?? '',
        ),
      null,
      WAIT,
    );
    assert.match(await a.locator('[data-machine=task] [data-testid=actor-label]').first().innerText(), /^task 01/);
    assert.match(
      await a.locator('[data-machine=action] [data-testid=actor-label]').first().innerText(),
      /^action [a-z ]+ #\d+/,
    );
    const events = await a.getByTestId('machine-events').innerText();
    assert.not.match(events, /xstate\./, 'internal events are hidden by default');
    assert.not.match(events, /\bx:\d+/, 'no session ids');
    await a.getByLabel(/Show internal/).check();
    await a.waitForFunction(
      () => /xstate\./.test(document.querySelector('[data-testid=machine-events]')?.textContent ?? ''),
      null,
      WAIT,
    );
    await a.getByLabel(/Show internal/).uncheck();
    const withPayload = a.locator('[data-testid=machine-events] details').first();
    await withPayload.locator('summary').click();
    assert.ok((await withPayload.getByTestId('event-payload').innerText()).length > 2);
    assert.ok((await a.locator('[data-testid=machine-timeline] li').count()) > 0, 'a timeline of transitions');
    await a.locator('.task-header').getByRole('button', { name: 'Take over', exact: true }).click();
    await a.waitForFunction(
      () =>
        /plugin UI · takeover/.test(
          document.querySelector('[data-machine=pluginUi] [data-testid=actor-label]')?.textContent ?? '',
        ),
      null,
      WAIT,
    );
    await shotAll(a, 'machines-takeover');
    await a.getByTestId('takeover-banner').getByRole('button', { name: 'Resume' }).click();
    await a.waitForSelector('.task-header [data-testid=status-badge][data-state=done]', WAIT);
    await a.locator('.task-header').getByRole('button', { name: 'Take over', exact: true }).waitFor(WAIT);
    void pluginUi;
    await a.getByRole('tab', { name: 'Browser' }).click();
  },
);

states(
  'errors: a blocked URL shows the policy and the task reads Failed, an unreachable site offers Retry, a failed task reads Failed with its cause',
  async (ctx) => {
    const { a } = ctx;
    await a.getByRole('button', { name: '+ New task' }).click();
    await send(a, 'Open file:///etc/passwd');
    // The step's error (the turn's failure notice repeats the cause below it).
    const blocked = a.getByTestId('tool-step').locator('[data-testid=error-detail][data-code=URL_BLOCKED]');
    await blocked.waitFor(WAIT);
    assert.match(await blocked.innerText(), /URL policy/);
    // A turn that ended on the refusal is a failure (seed 000 §2.1), never a green Done.
    await a.waitForSelector('.task-header [data-testid=status-badge][data-state=failed]', WAIT);
    await a.waitForSelector('.task-header [data-testid=task-outcome][data-code=URL_BLOCKED]', WAIT);

    await a.getByRole('button', { name: '+ New task' }).click();
    await send(a, 'Open http://unreachable.example/ please');
    const unreachable = a.getByTestId('tool-step').locator('[data-testid=error-detail][data-code=NETWORK]');
    await unreachable.waitFor(WAIT);
    assert.match(
      await a.locator('[data-testid=tool-step]').first().getByTestId('step-title').innerText(),
      /^Could not reach unreachable\.example/,
    );
    assert.ok(await unreachable.getByRole('button', { name: 'Retry' }).isVisible());
    await a.waitForSelector('.task-header [data-testid=status-badge][data-state=failed]', WAIT);
    await shotAll(a, 'unreachable');

    await a.getByRole('button', { name: '+ New task' }).click();
    await send(a, 'fail now');
    await a.waitForSelector('.task-header [data-testid=status-badge][data-state=failed]', WAIT);
    const notice = a.locator('[data-testid=notice][data-code=RATE_LIMITED]');
    await notice.waitFor(WAIT);
    assert.ok(await notice.getByRole('button', { name: 'Retry' }).isVisible());
    const outcome = a.locator('.task-header [data-testid=task-outcome][data-outcome=error][data-code=RATE_LIMITED]');
    await outcome.waitFor(WAIT);
    assert.match(await outcome.innerText(), /^Failed: /);
    assert.ok(await outcome.getByRole('button', { name: 'Retry' }).isVisible(), 'the header offers Retry');
    await shotAll(a, 'failed');
    // Retry sends the message again in the same task (a failed task reopens with a follow-up).
    const before = await a.locator('[data-testid=task-row]').count();
    await notice.getByRole('button', { name: 'Retry' }).click();
    await a.waitForFunction(() => document.querySelectorAll('[data-testid=user-message]').length === 2, null, WAIT);
    await a.waitForSelector('.task-header [data-testid=status-badge][data-state=failed]', WAIT);
    assert.is(await a.locator('[data-testid=task-row]').count(), before, 'no new task');
    // After a reload the cause is the stored one.
    await a.reload();
    await a
      .locator('.task-header [data-testid=task-outcome][data-outcome=error][data-code=RATE_LIMITED]')
      .waitFor(WAIT);
  },
);

states(
  'the sidebar filters and searches; phone width shows both statuses; no console error or failed request',
  async (ctx) => {
    const { a, b } = ctx;
    await a.locator('[data-filter=failed]').click();
    await a.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=task-row] [data-testid=status-badge]')].every(
          (e) => e.getAttribute('data-state') === 'failed',
        ),
      null,
      WAIT,
    );
    assert.ok((await a.locator('[data-testid=task-row]').count()) >= 1);
    await a.locator('[data-filter=all]').click();
    await a.getByLabel('Search tasks').fill('example.com click');
    await a.waitForFunction(() => document.querySelectorAll('[data-testid=task-row]').length === 1, null, WAIT);
    await shotAll(a, 'sidebar-search');
    await a.getByLabel('Search tasks').fill('');

    await b.getByRole('button', { name: 'Chat' }).click();
    for (const scheme of ['light', 'dark'] as const) {
      await b.emulateMedia({ colorScheme: scheme });
      const ext = await b.getByTestId('extension-status').boundingBox();
      const server = await b.getByTestId('connection').boundingBox();
      assert.ok(ext && server && ext.x + ext.width <= 390 && server.x >= 0, 'both statuses fit at 390 px');
      assert.is(await b.evaluate(() => document.documentElement.scrollWidth), 390, 'no horizontal scrolling');
      await b.screenshot({ path: join(shots, `chat-390-${scheme}.png`) });
      await b.getByRole('button', { name: 'Tasks' }).click();
      await b.screenshot({ path: join(shots, `tasks-390-${scheme}.png`) });
      await b.getByRole('button', { name: 'Chat' }).click();
    }
    assert.equal(ctx.problems, []);
  },
);

states.run();
