// The service worker is stopped (as Chrome does to an idle MV3 worker) and woken again by a tab
// event: it reconnects with the same clientId, registers, activates and re-syncs its snapshot,
// and still knows its task tab.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FullStateSyncSchema, validate } from '../../../transport/contracts/index.ts';
import { armWatchdog, startE2eEnv, startTask, waitUntil, type E2eEnv } from './e2e-util.ts';

const disarm = armWatchdog(120_000, 'reconnect.test');
const s = suite<{ env: E2eEnv }>('service-worker restart in a plain Chromium');

s.before(async (ctx) => {
  ctx.env = await startE2eEnv('realistic');
});
s.after(async (ctx) => {
  await ctx.env?.close();
  disarm();
});

s('a stopped service worker reconnects, re-registers and re-syncs when a tab event wakes it', async ({ env }) => {
  const tabId = await startTask(env, env.driver, '/products.html');
  const registrationsBefore = env.harness.registrations.length;
  const connectsBefore = env.harness.connections.filter((c) => c.event === 'connect').length;

  const page = env.context.pages()[0]!;
  const cdp = await env.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  const stoppedAt = Date.now();
  await cdp.send('ServiceWorker.stopAllWorkers');
  await waitUntil(() => env.harness.connections.some((c) => c.event === 'disconnect' && c.at >= stoppedAt), 10_000);
  await cdp.detach();

  const wakeAt = Date.now();
  const user = await env.context.newPage();
  await user.goto(`${env.site.url}/article.html?woken`);
  await waitUntil(() => env.harness.connections.filter((c) => c.event === 'connect').length > connectsBefore, 15_000);
  assert.is(env.harness.connections.at(-1)!.clientId, env.clientId, 'the same clientId after the restart');

  const activate = await env.harness.waitForMessage((m) => m.type === 'activate_extension', 5_000, wakeAt);
  assert.is(activate.clientId, env.clientId);
  const sync = await env.harness.waitForMessage((m) => m.type === 'full_state_sync', 5_000, wakeAt);
  assert.ok(validate(FullStateSyncSchema, sync).ok);
  assert.ok(
    (sync.tabs as any[]).some((t) => t.tabId === tabId),
    'the snapshot has the task tab',
  );
  await waitUntil(() => env.harness.registrations.length > registrationsBefore);

  const after = await env.driver.send('browser_screenshot', { tabId });
  assert.is(after.result.status, 'success', `the task tab is still known: ${JSON.stringify(after.result.error)}`);
  const click = await env.driver.send('browser_click', { tabId, xpath: '//*[@id="add-tp-1"]' });
  assert.is(click.result.result?.strategy, 'cdp_mouse', 'CDP attaches again in the new worker');
  await user.close();
});

s('tab events reach the server after the restart', async ({ env }) => {
  const since = Date.now();
  const page = await env.context.newPage();
  await page.goto(`${env.site.url}/index.html?after-restart`);
  const updated = await env.harness.waitForMessage(
    (m) =>
      m.type === 'tab_event' && m.eventType === 'tab_updated' && String((m.tab as any)?.url).includes('after-restart'),
    5_000,
    since,
  );
  assert.ok(updated);
  await page.close();
});

s.run();
