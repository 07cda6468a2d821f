// The overlay and takeover in a real Chromium: plugin_ui_state drives pluginUiMachine in the
// task tab's content script; only the overlay's Take over button takes over (issue 23: a stray
// click or key on the page gets a hint; the extension's own CDP clicks nothing at all); Resume /
// Stop on the overlay go back to the server;
// screenshots leave the overlay out; and the page bridge answers allowlisted origins only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { armWatchdog, pageOf, startE2eEnv, startTask, waitUntil, type E2eEnv } from './e2e-util.ts';

const disarm = armWatchdog(150_000, 'takeover.test');
const s = suite<{ env: E2eEnv; tabId: number; page: Page }>('overlay, takeover and page bridge in Chromium');

s.before(async (ctx) => {
  ctx.env = await startE2eEnv('playwright');
  ctx.tabId = await startTask(ctx.env, ctx.env.driver, '/products.html');
  ctx.page = await pageOf(ctx.env, '/products.html');
});
s.after(async (ctx) => {
  await ctx.env?.close();
  disarm();
});

function setUi(
  ctx: { env: E2eEnv; tabId: number },
  status: 'running' | 'takeover',
  ui: 'ongoing' | 'hidden' | 'takeover' | 'idle',
) {
  ctx.env.harness.setTask(ctx.env.driver.taskId, ctx.env.clientId, status, ui, ctx.tabId);
}

s(
  'plugin_ui_state ongoing shows the mask with the current step and Take over; between steps only Take over stays',
  async (ctx) => {
    setUi(ctx, 'running', 'ongoing');
    await ctx.page.waitForSelector('#mimo-step', { timeout: 5_000 });
    assert.match((await ctx.page.textContent('#mimo-step')) ?? '', 'Mimo is working');
    assert.ok(await ctx.page.isVisible('#mimo-take-over'));
    setUi(ctx, 'running', 'hidden');
    await ctx.page.waitForSelector('#mimo-step', { state: 'detached', timeout: 5_000 });
    assert.ok(await ctx.page.isVisible('#mimo-take-over'), 'Take over between steps');
    setUi(ctx, 'running', 'idle');
    await ctx.page.waitForSelector('mimo-overlay', { state: 'detached', timeout: 5_000 });
  },
);

s("the extension's own CDP clicks while ongoing are not a takeover", async (ctx) => {
  setUi(ctx, 'running', 'ongoing');
  await ctx.page.waitForSelector('#mimo-step', { timeout: 5_000 });
  const since = Date.now();
  for (const xpath of ['//*[@id="add-tp-1"]', '//*[@id="add-tp-2"]']) {
    const outcome = await ctx.env.driver.send('browser_click', { tabId: ctx.tabId, xpath });
    assert.is(outcome.result.result?.strategy, 'cdp_mouse');
  }
  const typed = await ctx.env.driver.send('browser_click', { tabId: ctx.tabId, xpath: '//*[@id="far-button"]' });
  assert.is(typed.result.status, 'success');
  await new Promise((resolve) => setTimeout(resolve, 400)); // a takeover report would be on its way by now
  assert.not.ok(ctx.env.harness.messages.some((m) => m.at >= since && m.message.type === 'takeover_report'));
  assert.is(ctx.env.harness.taskStatus(ctx.env.driver.taskId), 'running');
  assert.ok(await ctx.page.isVisible('#mimo-step'), 'still ongoing after the actions settled');
});

s('screenshots leave the overlay out of the picture', async (ctx) => {
  assert.ok(await ctx.page.isVisible('#mimo-step'));
  const pixel = async (png: Buffer) =>
    ctx.page.evaluate(
      async (dataUrl) => {
        const image = new Image();
        image.src = dataUrl;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const g = canvas.getContext('2d')!;
        g.drawImage(image, 0, 0);
        return Array.from(g.getImageData(1, 1, 1, 1).data.slice(0, 3));
      },
      `data:image/png;base64,${png.toString('base64')}`,
    );
  const withMask = await pixel(await ctx.page.screenshot());
  assert.ok(withMask[2]! > withMask[0]! + 60, `the mask tints the edge blue in a plain page screenshot: ${withMask}`);
  const shot = await ctx.env.driver.send('browser_screenshot', { tabId: ctx.tabId });
  const bytes = Buffer.from(await (await fetch(shot.result.result!.url as string)).arrayBuffer());
  assert.equal(await pixel(bytes), [255, 255, 255], 'the task screenshot shows the page, not the mask');
  await ctx.page.waitForSelector('#mimo-step', { timeout: 5_000 });
});

s('a stray click or key on the page does not take over: the overlay points at Take over', async (ctx) => {
  const { env, page } = ctx;
  assert.ok(await page.isVisible('#mimo-step'));
  const since = Date.now();
  const box = (await page.locator('#add-tp-4').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.keyboard.press('Tab');
  await page.waitForFunction(
    () =>
      /Press Take over/.test(
        document.querySelector('mimo-overlay')?.shadowRoot?.querySelector('#mimo-hint')?.textContent ?? '',
      ),
    undefined,
    { timeout: 5_000 },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.not.ok(env.harness.messages.some((m) => m.at >= since && m.message.type === 'takeover_report'));
  assert.is(env.harness.taskStatus(env.driver.taskId), 'running');
});

s('the Take over button takes over; the overlay offers Resume and Stop', async (ctx) => {
  const { env, page } = ctx;
  assert.ok(await page.isVisible('#mimo-step'));
  const since = Date.now();
  await page.click('#mimo-take-over');
  const report = await env.harness.waitForMessage((m) => m.type === 'takeover_report', 5_000, since);
  assert.is(report.taskId, env.driver.taskId);
  assert.is(report.tabId, ctx.tabId);
  assert.is(report.reason, 'take_over_button');
  await waitUntil(() => env.harness.taskStatus(env.driver.taskId) === 'takeover');
  await page.waitForSelector('#mimo-resume', { timeout: 5_000 });
  assert.ok(await page.isVisible('#mimo-stop'));
  assert.not.ok(await page.isVisible('#mimo-step'), 'no mask while the user has control');
  await page.keyboard.press('Tab');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is(
    env.harness.messages.filter((m) => m.at >= since && m.message.type === 'takeover_report').length,
    1,
    'one report per takeover',
  );
});

s('the takeover survives a reload of the task tab', async (ctx) => {
  await ctx.page.reload();
  await ctx.page.waitForSelector('#mimo-resume', { timeout: 5_000 });
});

s('Resume on the overlay hands control back to the agent', async (ctx) => {
  const { env, page } = ctx;
  const since = Date.now();
  await page.click('#mimo-resume');
  const command = await env.harness.waitForMessage((m) => m.type === 'overlay_command', 5_000, since);
  assert.is(command.command, 'resume');
  await waitUntil(() => env.harness.taskStatus(env.driver.taskId) === 'running');
  await page.waitForSelector('#mimo-resume', { state: 'detached', timeout: 5_000 });
  await page.waitForSelector('#mimo-take-over', { timeout: 5_000 });
});

s('Stop on the overlay ends the task', async (ctx) => {
  const { env, page } = ctx;
  setUi(ctx, 'running', 'ongoing');
  await page.waitForSelector('#mimo-step', { timeout: 5_000 });
  await page.click('#mimo-take-over');
  await page.waitForSelector('#mimo-stop', { timeout: 5_000 });
  const since = Date.now();
  await page.click('#mimo-stop');
  const command = await env.harness.waitForMessage((m) => m.type === 'overlay_command', 5_000, since);
  assert.is(command.command, 'stop');
  await waitUntil(() => env.harness.taskStatus(env.driver.taskId) === 'completed');
  await page.waitForSelector('mimo-overlay', { state: 'detached', timeout: 5_000 });
});

s('a page script cannot press Resume (untrusted clicks are ignored)', async (ctx) => {
  const { env, page } = ctx;
  setUi(ctx, 'takeover', 'takeover');
  await page.waitForSelector('#mimo-resume', { timeout: 5_000 });
  const since = Date.now();
  await page.evaluate(() =>
    (document.querySelector('mimo-overlay')!.shadowRoot!.querySelector('#mimo-resume') as HTMLButtonElement).click(),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.not.ok(env.harness.messages.some((m) => m.at >= since && m.message.type === 'overlay_command'));
  setUi(ctx, 'running', 'idle');
  await page.waitForSelector('mimo-overlay', { state: 'detached', timeout: 5_000 });
});

async function askBridge(page: Page, type: string): Promise<any> {
  return page.evaluate(
    (requestType) =>
      new Promise((resolve) => {
        const requestId = `req-${Math.random().toString(36).slice(2)}`;
        const timer = setTimeout(() => resolve(null), 1_000);
        window.addEventListener('message', (event) => {
          if (event.data?.requestId === requestId && /_result$/.test(event.data.type)) {
            clearTimeout(timer);
            resolve(event.data);
          }
        });
        window.postMessage({ type: requestType, requestId }, '*');
      }),
    type,
  );
}

s('the page bridge answers the web UI origin, also with the legacy names', async ({ env }) => {
  const page = await env.context.newPage();
  try {
    await page.goto(`${env.harness.url}/`);
    const answer = await askBridge(page, 'mimo/get_plugin_client_info');
    assert.is(answer?.type, 'mimo/get_plugin_client_info_result');
    assert.equal(answer.payload, {
      ok: true,
      extensionId: env.extensionId,
      extensionName: 'Mimo',
      version: answer.payload.version,
      socketConnected: true,
      clientId: env.clientId,
    });
    const legacy = await askBridge(page, 'mimoim/get_bion_client_info');
    assert.is(legacy?.type, 'mimoim/get_bion_client_info_result');
    assert.is(legacy.payload.clientId, env.clientId);
  } finally {
    await page.close();
  }
});

s('the page bridge ignores other origins', async ({ env }) => {
  const page = await env.context.newPage();
  try {
    await page.goto(`${env.site.url}/index.html`);
    assert.is(await askBridge(page, 'mimo/get_plugin_client_info'), null);
  } finally {
    await page.close();
  }
});

s.run();
