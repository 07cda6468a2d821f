// Safety rules and failure paths in a real Chromium: schema validation, INVALID_TASK_TAB,
// TASK_TAB_CLOSED, the web UI origin, stale refs (INVALID_TARGET), and CDP refused -> DOM
// fallback with warnings (CDP_UNAVAILABLE when CDP was asked for explicitly).
// The stale-ref case uses the DOM heuristic (`source: 'dom'`, a new id range per index); the
// accessibility-tree model keeps a live node's id (aria-model.test.ts, ax-model.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROTOCOL_VERSION } from '../../../transport/contracts/index.ts';
import type { ActionOutcome } from '../harness/action-driver.ts';
import { armWatchdog, inWorker, pageOf, startE2eEnv, startTask, tabInfo, waitUntil, type E2eEnv } from './e2e-util.ts';

const disarm = armWatchdog(150_000, 'safety.test');
const s = suite<{ env: E2eEnv }>('safety rules and fallbacks in Chromium');

function error(outcome: ActionOutcome): { code: string; message: string; details?: Record<string, any> } {
  assert.equal(outcome.ack, { ok: true });
  assert.is(outcome.result.status, 'error', JSON.stringify(outcome.result));
  return outcome.result.error!;
}

async function tabIdOf(env: E2eEnv, urlPart: string): Promise<number> {
  return inWorker(
    env,
    (part: string) =>
      (globalThis as any).chrome.tabs
        .query({})
        .then((tabs: any[]) => tabs.find((t) => (t.url ?? '').includes(part))?.id),
    urlPart,
  );
}

s.before(async (ctx) => {
  ctx.env = await startE2eEnv('playwright');
});
s.after(async (ctx) => {
  await ctx.env?.close();
  disarm();
});

s(
  'bad params get SCHEMA_VALIDATION_FAILED with the field; unidentifiable messages are refused in the ack',
  async ({ env }) => {
    const base = {
      v: PROTOCOL_VERSION,
      type: 'browser_action',
      taskId: env.driver.taskId,
      clientId: env.clientId,
      timestamp: Date.now(),
    };
    const bad = await env.driver.sendRaw(
      { ...base, id: 'act-bad-params', action: { browser_click: { tabId: 'seven' } } },
      { resultFor: 'act-bad-params' },
    );
    assert.equal(bad.ack, { ok: true });
    assert.is(bad.result?.status, 'error');
    assert.is(bad.result?.error?.code, 'SCHEMA_VALIDATION_FAILED');
    assert.ok((bad.result?.error?.details?.fieldErrors as any[]).some((f) => f.field === 'action.browser_click.tabId'));
    const unknownAction = await env.driver.sendRaw(
      { ...base, id: 'act-unknown', action: { browser_fly: {} } },
      { resultFor: 'act-unknown' },
    );
    assert.is(unknownAction.result?.error?.code, 'SCHEMA_VALIDATION_FAILED');
    const anonymous = await env.driver.sendRaw({ type: 'browser_action', action: { task_start: {} } });
    assert.is(anonymous.ack.ok, false);
    assert.is(anonymous.ack.error?.code, 'SCHEMA_VALIDATION_FAILED');
    const strange = await env.driver.sendRaw({ type: 'not_a_message' });
    assert.is(strange.ack.ok, false);
  },
);

s('actions only run on the task tab: another tab or no task tab is INVALID_TASK_TAB', async ({ env }) => {
  const driver = env.newDriver();
  const none = error(await driver.send('browser_screenshot', { tabId: 1 }));
  assert.is(none.code, 'INVALID_TASK_TAB');
  assert.is(none.details?.reason, 'no_task_tab');
  const userPage = await env.context.newPage();
  await userPage.goto(`${env.site.url}/index.html?user`);
  const userTabId = await tabIdOf(env, '/index.html?user');
  const taskTabId = await startTask(env, driver, '/products.html');
  const other = error(await driver.send('browser_click', { tabId: userTabId, xpath: '//*[@id="link-article"]' }));
  assert.is(other.code, 'INVALID_TASK_TAB');
  assert.is(other.details?.taskTabId, taskTabId);
  assert.is(userPage.url(), `${env.site.url}/index.html?user`, 'the user tab was not touched');
  await userPage.close();
  const stopped = await driver.send('task_stop', { closeTab: true });
  assert.is(stopped.result.status, 'success');
});

s('a task tab the user closed is TASK_TAB_CLOSED', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/article.html');
  const page = await pageOf(env, '/article.html');
  await page.close();
  const closed = error(await driver.send('browser_screenshot', { tabId }));
  assert.is(closed.code, 'TASK_TAB_CLOSED');
  assert.is(error(await driver.send('browser_dom_index', { tabId })).code, 'TASK_TAB_CLOSED');
  const restarted = await driver.send('task_start', { url: `${env.site.url}/article.html` });
  assert.is(restarted.result.status, 'success', 'a new task_start gives the task a new tab');
  await driver.send('task_stop', { closeTab: true });
});

s('the web UI is never a task tab', async ({ env }) => {
  const driver = env.newDriver();
  const refused = error(await driver.send('task_start', { url: `${env.harness.url}/` }));
  assert.is(refused.code, 'INVALID_TASK_TAB');
  assert.is(refused.details?.reason, 'web_ui_tab');
  const tabId = await startTask(env, driver, '/products.html');
  await inWorker(env, ([id, url]: [number, string]) => (globalThis as any).chrome.tabs.update(id, { url }), [
    tabId,
    `${env.harness.url}/`,
  ] as [number, string]);
  await driver.send('browser_wait_for_loaded', { tabId });
  const onWebUi = error(await driver.send('browser_dom_index', { tabId }));
  assert.is(onWebUi.code, 'INVALID_TASK_TAB');
  assert.is(onWebUi.details?.reason, 'web_ui_tab');
  const webUi = await pageOf(env, env.harness.url);
  assert.is(await webUi.evaluate(() => document.querySelectorAll('[data-mimo_click_id]').length), 0);
  await driver.send('task_stop', { closeTab: true });
});

s('a clickId from an older index, a removed element or a previous page is INVALID_TARGET (stale)', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/dynamic.html');
  const page = await pageOf(env, '/dynamic.html');
  const first = (await driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' })).result.result!
    .elements as any[];
  const item1 = first.find((e) => e.text === 'Item 1');
  const replace = first.find((e) => e.text === 'Replace the list');
  assert.is((await driver.send('browser_click', { tabId, clickId: replace.clickId })).result.status, 'success');
  const removed = error(await driver.send('browser_click', { tabId, clickId: item1.clickId }));
  assert.is(removed.code, 'INVALID_TARGET');
  assert.is(removed.details?.reason, 'stale');
  assert.is(await page.textContent('#picked'), 'nothing');

  const second = (await driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' })).result.result!
    .elements as any[];
  const loadMore = first.find((e) => e.text === 'Load more');
  assert.ok(
    second.every((e) => e.clickId > Math.max(...first.map((f) => f.clickId))),
    'a new index uses new ids',
  );
  const older = error(await driver.send('browser_click', { tabId, clickId: loadMore.clickId }));
  assert.is(older.details?.reason, 'stale', 'the element still exists, but its id is from the older index');
  assert.is(await page.locator('#items li').count(), 2, 'nothing was clicked');
  const never = error(await driver.send('browser_click', { tabId, clickId: 100_000 }));
  assert.is(never.details?.reason, 'not_found');

  await driver.send('task_start', { url: `${env.site.url}/dynamic.html?again`, reuseExistingTab: true });
  await driver.send('browser_wait_for_loaded', { tabId });
  const current = second.find((e) => e.text === 'Load more');
  const navigated = error(await driver.send('browser_click', { tabId, clickId: current.clickId }));
  assert.is(navigated.code, 'INVALID_TARGET');
  assert.match(navigated.message, /index/);
  await driver.send('task_stop', { closeTab: true });
});

s(
  'CDP refused: clicks and typing fall back to the DOM with warnings; explicit CDP is CDP_UNAVAILABLE',
  async ({ env }) => {
    const driver = env.newDriver();
    const tabId = await startTask(env, driver, '/form.html');
    await driver.send('browser_debugger_attach', { tabId });
    await inWorker(
      env,
      async (id: number) => {
        const g = globalThis as any;
        for (const api of new Set([g.chrome.debugger, g.browser?.debugger].filter(Boolean))) {
          api.__realAttach ??= api.attach;
          api.attach = () => Promise.reject(new Error('Cannot attach: refused by the test'));
        }
        await g.chrome.debugger.detach({ tabId: id }).catch(() => {});
      },
      tabId,
    );
    try {
      const page = await pageOf(env, '/form.html');
      const typed = await driver.send('browser_type', { tabId, xpath: '//*[@id="name"]', text: 'Grace Hopper' });
      assert.is(typed.result.status, 'success', JSON.stringify(typed.result.error));
      assert.is(typed.result.result!.strategy, 'dom_input');
      assert.match((typed.result.result!.warnings as string[])[0]!, 'cdp_key unavailable');
      assert.is(await page.inputValue('#name'), 'Grace Hopper');
      const clicked = await driver.send('browser_click', { tabId, xpath: '//*[@id="message"]' });
      assert.is(clicked.result.result!.strategy, 'dom_click');
      assert.match((clicked.result.result!.warnings as string[])[0]!, 'cdp_mouse unavailable');
      const untrusted = await page.evaluate(() =>
        (window as any).__mimoEvents
          .filter((e: any) => e.type === 'click' && e.target === '#message')
          .map((e: any) => e.trusted),
      );
      assert.equal(untrusted, [false], 'a DOM click, as the warning says');
      assert.is(
        error(await driver.send('browser_click', { tabId, xpath: '//*[@id="send"]', strategy: 'cdp_mouse' })).code,
        'CDP_UNAVAILABLE',
      );
      assert.is(
        error(await driver.send('browser_type', { tabId, xpath: '//*[@id="email"]', text: 'x', strategy: 'cdp_key' }))
          .code,
        'CDP_UNAVAILABLE',
      );
      assert.is(error(await driver.send('browser_debugger_attach', { tabId })).code, 'CDP_UNAVAILABLE');
      assert.is(
        error(await driver.send('browser_screenshot', { tabId })).code,
        'CDP_UNAVAILABLE',
        'a background tab cannot be captured without CDP',
      );
      const submitted = await driver.send('browser_type', {
        tabId,
        xpath: '//*[@id="email"]',
        text: 'grace@example.com',
        submit: true,
      });
      assert.is(submitted.result.result!.strategy, 'dom_input');
      // The submit navigates; the new URL shows up once the navigation starts.
      await waitUntil(async () => ((await tabInfo(env, tabId))?.url ?? '').includes('email=grace%40example.com'));
    } finally {
      await inWorker(
        env,
        () => {
          const g = globalThis as any;
          for (const api of new Set([g.chrome.debugger, g.browser?.debugger].filter(Boolean)))
            if (api.__realAttach) api.attach = api.__realAttach;
        },
        null,
      );
    }
    const back = await driver.send('browser_click', { tabId, xpath: '//a' });
    assert.is(back.result.result?.strategy, 'cdp_mouse', 'CDP is used again once attach works');
    await driver.send('task_stop', { closeTab: true });
  },
);

s('CDP turned off in the options: DOM strategies with a warning', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/products.html');
  const setCdp = async (useCdp: boolean) => {
    const since = Date.now();
    await inWorker(
      env,
      ([url, token, use]: [string, string, boolean]) =>
        (globalThis as any).chrome.storage.local.set({
          'mimo.settings': { serverUrl: url, token, webUiPatterns: [], useCdp: use },
        }),
      [env.harness.url, env.harness.token, useCdp] as [string, string, boolean],
    );
    // New settings reconnect the socket.
    await env.harness.waitForMessage((m) => m.type === 'activate_extension', 5_000, since);
  };
  await setCdp(false);
  try {
    const clicked = await driver.send('browser_click', { tabId, xpath: '//*[@id="add-tp-1"]' });
    assert.is(clicked.result.result?.strategy, 'dom_click');
    assert.match((clicked.result.result!.warnings as string[])[0]!, 'turned off');
  } finally {
    await setCdp(true);
  }
  await driver.send('task_stop', { closeTab: true });
});

s.run();
