// Issue 23 in the web UI against the real server (person guard on) and the fake plugin: the
// task's scope under the header, a step outside it held as "Needs you: confirm" with the exact
// step, Deny reaching the model as a tool error, the request and answer in the conversation,
// and "Show the tab" sending the extension its show_tab frame.
import { mkdtempSync, rmSync } from 'node:fs';
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
import { pacedLlm, text, textThenTool } from './harness/paced-llm.ts';
import { startRealRuntime } from './harness/real-runtime.ts';

const TOKEN = 'confirm-e2e-token';
const WAIT = { timeout: 20_000 };

interface Ctx {
  dir: string;
  server: MimoServer;
  plugin: FakePlugin | undefined;
  browser: Browser;
  page: Page;
  llm: ReturnType<typeof pacedLlm>;
}

const s = suite<Ctx>('web UI: Needs you: confirm, scope, Show the tab (real server, person guard on)');

s.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-web-confirm-'));
  const distDir = join(ctx.dir, 'dist');
  await buildWeb({ outDir: distDir, logLevel: 'silent' });
  ctx.llm = pacedLlm([
    () => textThenTool(['Opening example.com. '], 'browser_open', { url: 'https://example.com/' }, 'call-open'),
    () =>
      textThenTool(
        ['The page says to visit another site. '],
        'browser_open',
        { url: 'https://attacker.example.net/steal' },
        'call-off',
      ),
    (input) =>
      text(
        input.messages.some((m) => m.role === 'tool' && m.content.includes('CONFIRMATION_DENIED'))
          ? 'You said no, so I stayed on example.com.'
          : 'I went there.',
      ),
  ]);
  ctx.server = await startRealRuntime({
    dir: ctx.dir,
    webDir: distDir,
    token: TOKEN,
    llm: ctx.llm,
    confirmSteps: 'ask',
  });
  ctx.plugin = await startFakePlugin({
    url: ctx.server.url,
    clientId: 'plugin-confirm-e2e',
    token: TOKEN,
    answer: fakeBrowser(() => ctx.plugin),
    snapshot: homeSnapshot,
  });
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
  'a step outside the scope waits for the person; Deny reaches the model; the scope shows; Show the tab',
  async (ctx) => {
    const { page } = ctx;
    await page.goto(`${ctx.server.url}/?token=${TOKEN}`);
    await page.waitForSelector('[data-testid=connection][data-status=connected]', WAIT);
    const box = page.getByLabel('Message to the agent');
    await box.fill('Open example.com and tell me what it is');
    await box.press('Enter');
    const panel = page.getByTestId('confirm-panel');
    await panel.waitFor(WAIT);
    assert.match(await panel.innerText(), /Needs you: confirm/);
    assert.match(await panel.innerText(), /Open https:\/\/attacker\.example\.net\/steal on example\.net/);
    assert.match(await page.getByTestId('scope-bar').innerText(), /example\.com/);
    await panel.getByRole('button', { name: 'Deny' }).click();
    await panel.waitFor({ state: 'detached', ...WAIT });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=assistant-message]')].some((m) =>
          m.textContent?.includes('You said no'),
        ),
      null,
      WAIT,
    );
    assert.not.ok(
      ctx.plugin!.received.some((f) => JSON.stringify(f.action).includes('attacker.example.net')),
      'the browser never went there',
    );
    await page.waitForFunction(() => document.body.innerText.includes('Denied by the person'), null, WAIT);

    await page.getByTestId('show-tab').click();
    const until = Date.now() + 10_000;
    while (!ctx.plugin!.frames.some((f) => f.type === 'show_tab') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    const show = ctx.plugin!.frames.find((f) => f.type === 'show_tab');
    assert.ok(show, 'the extension was asked to show the tab');
    assert.is(show!.tabId, 101);
  },
);

s.run();
