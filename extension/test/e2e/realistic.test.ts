// The realistic mode of shared/notes/chromium-extension-testing.md: Chromium spawned plainly and
// attached with connectOverCDP(url, { noDefaults: true }), so no Playwright focus emulation
// hides background-tab failures. Clicks, typing and screenshots on a background task tab, with
// the p50 of a click and of a screenshot (issue 6 target: <= 20 ms / <= 50 ms).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  armWatchdog,
  download,
  inWorker,
  p50,
  pageOf,
  startE2eEnv,
  startTask,
  tabInfo,
  type E2eEnv,
} from './e2e-util.ts';

const disarm = armWatchdog(150_000, 'realistic.test');
const s = suite<{ env: E2eEnv; timings: Record<string, number> }>(
  'background-tab actions in a plain Chromium (no Playwright emulation)',
);

const CLICKS = 25;
const SCREENSHOTS = 15;

s.before(async (ctx) => {
  ctx.env = await startE2eEnv('realistic');
  ctx.timings = {};
});
s.after(async (ctx) => {
  if (Object.keys(ctx.timings).length > 0) console.log(`[realistic] measured: ${JSON.stringify(ctx.timings)}`);
  await ctx.env?.close();
  disarm();
});

s('the task tab stays in the background and is not emulated by Playwright', async ({ env }) => {
  const tabId = await startTask(env, env.driver, '/products.html');
  const info = await tabInfo(env, tabId);
  assert.is(info?.active, false);
  const active = await inWorker(
    env,
    () => (globalThis as any).chrome.tabs.query({ active: true }).then((tabs: any[]) => tabs.map((t) => t.id)),
    null,
  );
  assert.not.ok(active.includes(tabId));
  // Nothing but the extension emulates focus in this mode: a background tab it has not attached to
  // (opened here straight through chrome.tabs, not a task tab) is hidden...
  const plainId = await inWorker(
    env,
    (url: string) => (globalThis as any).chrome.tabs.create({ url, active: false }).then((t: any) => t.id),
    `${env.site.url}/products.html?plain=1`,
  );
  const plain = await pageOf(env, '/products.html?plain=1');
  await plain.waitForFunction(() => typeof (window as any).__mimoVisibility === 'function');
  assert.equal(await plain.evaluate(() => (window as any).__mimoVisibility()), {
    visibilityState: 'hidden',
    hasFocus: false,
  });
  await inWorker(env, (id: number) => (globalThis as any).chrome.tabs.remove(id), plainId);
  // ...while the task tab, attached by the extension before its first navigation (the navigation
  // guard), has the extension's own focus emulation from the start.
  const page = await pageOf(env, '/products.html');
  assert.equal(await page.evaluate(() => (window as any).__mimoVisibility()), {
    visibilityState: 'visible',
    hasFocus: true,
  });
});

s('CDP clicks reach the background tab as trusted events, fast', async ({ env, timings }) => {
  const tabId = (await inWorker(
    env,
    () =>
      (globalThis as any).chrome.tabs
        .query({})
        .then((tabs: any[]) => tabs.find((t) => (t.url ?? '').endsWith('/products.html'))?.id),
    null,
  )) as number;
  const elements = (await env.driver.send('browser_dom_index', { tabId, scope: 'document' })).result.result!
    .elements as any[];
  const buttons = elements.filter((e) => e.text === 'Add to cart');
  const page = await pageOf(env, '/products.html');
  const durations: number[] = [];
  for (let i = 0; i < CLICKS; i++) {
    const outcome = await env.driver.send('browser_click', { tabId, clickId: buttons[i % buttons.length].clickId });
    assert.is(outcome.result.status, 'success', JSON.stringify(outcome.result.error));
    assert.is(outcome.result.result!.strategy, 'cdp_mouse');
    durations.push(outcome.totalMs);
  }
  assert.is(await page.textContent('#cart-count'), String(CLICKS), 'every click arrived');
  const trusted = await page.evaluate(() =>
    (window as any).__mimoEvents.filter((e: any) => e.type === 'click').map((e: any) => e.trusted),
  );
  assert.is(trusted.length, CLICKS);
  assert.ok(trusted.every(Boolean), 'all clicks are isTrusted');
  assert.is((await tabInfo(env, tabId))?.active, false, 'still in the background');
  timings.clickP50Ms = Math.round(p50(durations.slice(1)) * 10) / 10;
  timings.clickMaxMs = Math.round(Math.max(...durations.slice(1)));
  // The trap of the notes is a ~5 s stall per mouse event; anything near it fails here.
  assert.ok(timings.clickP50Ms < 250, `click p50 ${timings.clickP50Ms} ms`);
});

s('screenshots of the background tab are real PNGs, fast', async ({ env, timings }) => {
  const tabId = (await inWorker(
    env,
    () =>
      (globalThis as any).chrome.tabs
        .query({})
        .then((tabs: any[]) => tabs.find((t) => (t.url ?? '').endsWith('/products.html'))?.id),
    null,
  )) as number;
  const durations: number[] = [];
  let last: Record<string, any> = {};
  for (let i = 0; i < SCREENSHOTS; i++) {
    const outcome = await env.driver.send('browser_screenshot', { tabId });
    assert.is(outcome.result.status, 'success', JSON.stringify(outcome.result.error));
    durations.push(outcome.totalMs);
    last = outcome.result.result!;
  }
  const file = await download(last.url);
  assert.equal([...file.bytes.slice(1, 4)], [0x50, 0x4e, 0x47]);
  assert.ok(last.width > 100 && last.height > 100);
  timings.screenshotP50Ms = Math.round(p50(durations.slice(1)) * 10) / 10;
  timings.screenshotMaxMs = Math.round(Math.max(...durations.slice(1)));
  assert.ok(timings.screenshotP50Ms < 500, `screenshot p50 ${timings.screenshotP50Ms} ms`);
  assert.ok(timings.screenshotMaxMs < 3_000, `a screenshot took ${timings.screenshotMaxMs} ms: captures stalled`);
});

s('typed text arrives in the background tab, with trusted key events, and submits', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/form.html');
  const typed = await driver.send('browser_type', { tabId, xpath: '//*[@id="message"]', text: 'Tea for two' });
  assert.is(typed.result.status, 'success', JSON.stringify(typed.result.error));
  assert.is(typed.result.result!.strategy, 'cdp_key');
  const page = await pageOf(env, '/form.html');
  assert.is(await page.inputValue('#message'), 'Tea for two');
  const keys = await page.evaluate(() =>
    (window as any).__mimoEvents.filter((e: any) => e.type === 'keydown').map((e: any) => e.trusted),
  );
  assert.is(keys.length, 'Tea for two'.length);
  assert.ok(keys.every(Boolean));
  await driver.send('browser_type', { tabId, xpath: '//*[@id="name"]', text: 'Ada', submit: true });
  const result = await pageOf(env, '/form-result.html');
  await result.waitForSelector('#result-name:has-text("Ada")', { timeout: 5_000 });
  assert.is(await result.textContent('#result-message'), 'Tea for two');
  assert.is((await tabInfo(env, tabId))?.active, false);
});

s('input keeps working after a cross-site navigation of the task tab', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/products.html');
  await driver.send('browser_click', { tabId, xpath: '//*[@id="add-tp-1"]' });
  const otherSite = env.site.url.replace('127.0.0.1', 'localhost');
  await driver.send('task_start', { url: `${otherSite}/products.html`, reuseExistingTab: true });
  await driver.send('browser_wait_for_loaded', { tabId });
  const clicked = await driver.send('browser_click', { tabId, xpath: '//*[@id="add-tp-2"]' });
  assert.is(clicked.result.result?.strategy, 'cdp_mouse');
  assert.ok(clicked.totalMs < 1_000, `click after navigation took ${clicked.totalMs} ms`);
  const page = await pageOf(env, `${otherSite}/products.html`);
  assert.is(await page.textContent('#last-added'), 'Porcelain Tea Set (trusted)');
  const shot = await driver.send('browser_screenshot', { tabId });
  assert.is(shot.result.status, 'success');
});

s.run();
