// The offline planner's abilities end to end: the real server, the real extension in Debian
// Chromium (no Playwright page emulation), fixtures/site. Each request is plain language; the
// planner plans from the page context the extension returns.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startDemoEnv, type DemoEnv } from './demo-env.ts';

const test = suite<{ env: DemoEnv }>('offline planner through the real extension', { env: undefined as never });

test.before(async (ctx) => {
  ctx.env = await startDemoEnv();
});
test.after(async (ctx) => {
  await ctx.env?.close();
});

const okSteps = (run: { steps: Array<{ phase: string }> }) => run.steps.every((s) => s.phase !== 'error');

test('open a URL and summarise the page', async ({ env }) => {
  const run = await env.runTask(`Open ${env.site.url}/article.html and summarise it`);
  assert.is(run.error, null);
  assert.is(run.status, 'ongoing');
  assert.ok(okSteps(run));
  assert.match(run.text, /Offline planner/);
  assert.match(run.text, /Teapot/i);
  assert.ok(run.screenshots.length >= 1, 'a screenshot was taken');
});

test('extract a list as a table', async ({ env }) => {
  const run = await env.runTask(
    `Go to ${env.site.url}/products.html and list the products with their prices in a table`,
  );
  assert.is(run.error, null);
  assert.match(run.text, /\| *Name *\| *Price *\|/);
  for (const row of ['Yixing Clay Teapot', '$48.00', 'Bamboo Tea Whisk', '$9.95'])
    assert.ok(run.text.includes(row), `missing ${row}`);
});

test('click a button by its visible text; the DOM change is read back', async ({ env }) => {
  const run = await env.runTask(`Open ${env.site.url}/dynamic.html and click the "Load more" button`);
  assert.is(run.error, null);
  assert.ok(
    run.steps.some((s) => s.actionName === 'browser_click' && s.phase === 'success'),
    JSON.stringify(run.steps),
  );
  assert.match(run.text, /Clicked "Load more"/, run.text);
  // The click reached the page in the background tab: the list grew from 2 to 4 items.
  const page = env.browser.context.pages().find((p) => p.url().includes('/dynamic.html'));
  assert.ok(page, 'the task tab is a page of the browser');
  assert.is(await page!.evaluate(() => document.querySelectorAll('#items li').length), 4);
  // ...and the task tab was never made the active tab (the server's snapshot of the browser).
  const snapshot = env.app.server.snapshots.current();
  const tab = snapshot.tabs.find((t) => t.url?.includes('/dynamic.html'));
  assert.ok(tab, 'the task tab is in the snapshot');
  assert.is(tab!.active, false);
});

test('type into a field and submit', async ({ env }) => {
  const run = await env.runTask(`Open ${env.site.url}/form.html, type Ada Lovelace into the name field and submit`);
  assert.is(run.error, null);
  assert.ok(run.steps.some((s) => s.actionName === 'browser_type' && s.phase === 'success'));
  assert.match(run.text, /Thank you/);
  assert.match(run.text, /Ada Lovelace/);
});

test('open a second tab and switch to it', async ({ env }) => {
  const run = await env.runTask(`Open ${env.site.url}/new-tab.html, open the article in a new tab and switch to it`);
  assert.is(run.error, null, run.text);
  assert.ok(
    run.steps.some((s) => s.actionName === 'browser_switch_tab' && s.phase === 'success'),
    JSON.stringify(run.steps),
  );
  assert.match(run.text, /History of the Teapot/i);
});

test.run();
