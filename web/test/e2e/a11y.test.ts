// Accessible and fast, checked in a real Chromium: axe-core (WCAG 2.2 AA + best practice) finds no
// serious or critical violation in the web UI (light and dark, 1280 and 390 px, with steps,
// errors, the sidebar and the machine view on screen) nor in the extension's options page; the
// skip link reaches the composer; arrow keys move between the side panel's tabs; the JS is served
// precompressed and immutable; the favicon is a real icon.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildExtension } from '../../../extension/build.ts';
import { launchWithExtension } from '../../../extension/test/harness/chromium.ts';
import type { MimoServer } from '../../../runtime/server.ts';
import { startFakePlugin, type FakePlugin } from '../../../runtime/test-util/fake-plugin.ts';
import { buildWeb } from '../../build.ts';
import { seriousViolations } from './axe.ts';
import { launchChromium } from './browser.ts';
import { fakeBrowser, homeSnapshot } from './harness/fake-browser.ts';
import { intentLlm } from './harness/intent-llm.ts';
import { startRealRuntime } from './harness/real-runtime.ts';

const root = new URL('../../../', import.meta.url).pathname;
const shots = join(root, 'test-output/web/a11y');
const TOKEN = 'a11y-e2e-token';
const WAIT = { timeout: 20_000 };

interface Ctx {
  dir: string;
  server: MimoServer;
  plugin: FakePlugin;
  browser: Browser;
  page: Page;
}

const a11y = suite<Ctx>('accessibility and delivery (chromium, axe-core)');

async function send(page: Page, text: string) {
  await page.getByRole('button', { name: '+ New task' }).click();
  const box = page.getByLabel('Message to the agent');
  await box.fill(text);
  await box.press('Enter');
}

a11y.before(async (ctx) => {
  mkdirSync(shots, { recursive: true });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-a11y-'));
  const distDir = join(ctx.dir, 'dist');
  await buildWeb({ outDir: distDir, logLevel: 'silent' });
  ctx.server = await startRealRuntime({ dir: ctx.dir, webDir: distDir, token: TOKEN, llm: intentLlm(10) });
  ctx.plugin = await startFakePlugin({
    url: ctx.server.url,
    clientId: 'plugin-a11y',
    token: TOKEN,
    snapshot: homeSnapshot,
    answer: fakeBrowser(() => ctx.plugin),
  });
  ctx.browser = await launchChromium();
  ctx.page = await (await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
});

a11y.after(async (ctx) => {
  await ctx.browser?.close();
  ctx.plugin?.close();
  await ctx.server?.close();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

a11y('the JS comes precompressed and immutable; the favicon is an icon', async (ctx) => {
  const { page } = ctx;
  const scripts: { url: string; encoding: string | undefined; cache: string | undefined }[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('.js'))
      scripts.push({ url: r.url(), encoding: r.headers()['content-encoding'], cache: r.headers()['cache-control'] });
  });
  await page.goto(`${ctx.server.url}/?token=${TOKEN}`);
  await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
  assert.ok(scripts.length > 0);
  for (const s of scripts) {
    assert.is(s.encoding, 'br', `${s.url} is sent as brotli`);
    assert.is(s.cache, 'public, max-age=31536000, immutable');
  }
  const icon = await page.evaluate(async () => {
    const href = document.querySelector<HTMLLinkElement>('link[rel=icon]')?.href ?? '';
    const r = await fetch(href);
    return { status: r.status, type: r.headers.get('content-type') };
  });
  assert.is(icon.status, 200);
  // serveStatic names the charset of text types (SVG is XML text): the media type is what counts.
  assert.match(icon.type ?? '', /^image\/svg\+xml(;\s*charset=utf-8)?$/);
});

a11y('skip link to the composer; arrow keys in the side panel tabs', async (ctx) => {
  const { page } = ctx;
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the message box');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'message', null, WAIT);
  await page.getByRole('tab', { name: 'Browser' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    () =>
      document.activeElement?.id === 'tab-machines' && document.activeElement.getAttribute('aria-selected') === 'true',
    null,
    WAIT,
  );
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'tab-browser', null, WAIT);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.activeElement?.id === 'tab-machines', null, WAIT);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.activeElement?.id === 'tab-browser', null, WAIT);
});

a11y('web UI: no serious or critical axe violation, light and dark, 1280 and 390 px', async (ctx) => {
  const { page } = ctx;
  await send(page, 'fail now');
  await page.waitForSelector('.task-header [data-testid=status-badge][data-state=failed]', WAIT);
  await send(page, 'Open file:///etc/passwd');
  await page.waitForSelector('[data-testid=error-detail][data-code=URL_BLOCKED]', WAIT);
  await send(page, 'Click the first link on https://example.com/');
  await page.waitForSelector('.task-header [data-testid=status-badge][data-state=done]', WAIT);
  await page.locator('[data-testid=step-details] summary').first().click();
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('tab', { name: 'Browser' }).click();
    problems.push(...(await seriousViolations(page, `${scheme} 1280 browser`)));
    await page.getByRole('tab', { name: 'Machines' }).click();
    await page.waitForSelector('[data-machine=task]', WAIT);
    problems.push(...(await seriousViolations(page, `${scheme} 1280 machines`)));
    await page.screenshot({ path: join(shots, `machines-1280-${scheme}.png`) });
    await page.locator('.thumb').first().click();
    await page.waitForSelector('.viewer img', WAIT);
    problems.push(...(await seriousViolations(page, `${scheme} 1280 image viewer`)));
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    for (const pane of ['Tasks', 'Chat', 'Browser'] as const) {
      await page.getByRole('button', { name: pane, exact: true }).click();
      problems.push(...(await seriousViolations(page, `${scheme} 390 ${pane}`)));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(problems, [], problems.join('\n'));
});

a11y('extension options page: landmarks, dark mode, no serious or critical axe violation', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'mimo-ext-a11y-'));
  await buildExtension({ outDir });
  const launched = await launchWithExtension(outDir);
  try {
    const page = await launched.context.newPage();
    await page.goto(`chrome-extension://${launched.extensionId}/options.html`);
    await page.waitForSelector('#status', WAIT);
    assert.is(await page.locator('main').count(), 1, 'a main landmark');
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      problems.push(...(await seriousViolations(page, `options ${scheme}`)));
      await page.screenshot({ path: join(shots, `options-${scheme}.png`) });
    }
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.is(background, 'rgb(17, 24, 39)', 'dark mode has a dark background');
    assert.equal(problems, [], problems.join('\n'));
  } finally {
    await launched.close();
    rmSync(outDir, { recursive: true, force: true });
  }
});

a11y.run();
