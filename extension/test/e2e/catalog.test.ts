// Every catalog action on the fixture site in a real Chromium (Playwright persistent context),
// checked against the shared result schemas and against what the page itself saw.
// The DOM index calls ask for `source: 'dom'`: they pin the DOM heuristic's contract (boxes,
// XPaths, ids written into the page, a new id range per index), which stays the fallback. The
// accessibility-tree model of scope "document" is covered by aria-model.test.ts (issue 21).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  actionResultSchemas,
  FullStateSyncSchema,
  TabEventSchema,
  validate,
} from '../../../transport/contracts/index.ts';
import type { ActionName } from '../../../transport/contracts/index.ts';
import type { ActionOutcome } from '../harness/action-driver.ts';
import {
  armWatchdog,
  download,
  inWorker,
  pageOf,
  startE2eEnv,
  startTask,
  tabInfo,
  waitUntil,
  type E2eEnv,
} from './e2e-util.ts';

const disarm = armWatchdog(150_000, 'catalog.test');
const s = suite<{ env: E2eEnv; tabId: number }>('action catalog in Chromium (Playwright persistent context)');

function ok<K extends ActionName>(name: K, outcome: ActionOutcome): Record<string, any> {
  assert.equal(outcome.ack, { ok: true }, `${name} ack`);
  assert.is(outcome.result.status, 'success', `${name}: ${JSON.stringify(outcome.result.error)}`);
  const checked = validate(actionResultSchemas[name], outcome.result.result);
  assert.ok(checked.ok, `${name} result breaks the contract: ${checked.ok ? '' : checked.error.message}`);
  return outcome.result.result as Record<string, any>;
}

s.before(async (ctx) => {
  ctx.env = await startE2eEnv('playwright');
});
s.after(async (ctx) => {
  await ctx.env?.close();
  disarm();
});

s('registers over HTTP, activates and syncs the snapshot on connect', async ({ env }) => {
  const activate = await env.harness.waitForMessage((m) => m.type === 'activate_extension');
  assert.is(activate.clientId, env.clientId);
  assert.is(activate.extensionId, env.extensionId);
  const sync = await env.harness.waitForMessage((m) => m.type === 'full_state_sync');
  const checked = validate(FullStateSyncSchema, sync);
  assert.ok(checked.ok, checked.ok ? '' : checked.error.message);
  assert.ok((sync.tabs as unknown[]).length >= 1);
  await waitUntil(() => env.harness.registrations.length > 0);
  assert.is(env.harness.registrations[0]!.clientId, env.clientId);
  assert.is(env.harness.registrations[0]!.extensionId, env.extensionId);
});

s('task_start opens an inactive tab in a group titled for the task', async (ctx) => {
  const { env } = ctx;
  const since = Date.now();
  const result = ok(
    'task_start',
    await env.driver.send('task_start', { url: `${env.site.url}/products.html`, groupTitle: 'Teapot research' }),
  );
  ctx.tabId = result.tabId;
  assert.type(result.groupId, 'number');
  const info = await tabInfo(env, result.tabId);
  assert.is(info?.active, false);
  assert.is(info?.groupId, result.groupId);
  const title = await inWorker(
    env,
    (groupId: number) => (globalThis as any).chrome.tabGroups.get(groupId).then((g: any) => g.title),
    result.groupId,
  );
  assert.is(title, 'Teapot research');
  const created = await env.harness.waitForMessage(
    (m) => m.type === 'tab_event' && m.eventType === 'tab_created' && m.tabId === result.tabId,
    5_000,
    since,
  );
  assert.ok(validate(TabEventSchema, created).ok);
  ok('browser_wait_for_loaded', await env.driver.send('browser_wait_for_loaded', { tabId: result.tabId }));
});

s('browser_wait_for_loaded waits for a slow load event; NAVIGATION_TIMEOUT when it does not come', async ({ env }) => {
  const driver = env.newDriver();
  const started = ok('task_start', await driver.send('task_start', { url: `${env.site.url}/slow.html?ms=1200` }));
  const waited = await driver.send('browser_wait_for_loaded', { tabId: started.tabId });
  ok('browser_wait_for_loaded', waited);
  assert.ok(waited.totalMs >= 800, `returned after ${waited.totalMs} ms, before the slow image`);
  ok(
    'task_start',
    await driver.send('task_start', { url: `${env.site.url}/slow.html?ms=8000`, reuseExistingTab: true }),
  );
  const timedOut = await driver.send('browser_wait_for_loaded', { tabId: started.tabId, timeoutMs: 300 });
  assert.is(timedOut.result.status, 'error');
  assert.is(timedOut.result.error?.code, 'NAVIGATION_TIMEOUT');
  ok('task_stop', await driver.send('task_stop', { closeTab: true }));
});

s('browser_debugger_attach attaches chrome.debugger', async ({ env, tabId }) => {
  ok('browser_debugger_attach', await env.driver.send('browser_debugger_attach', { tabId }));
});

s('browser_screenshot uploads a real PNG of the background tab', async ({ env, tabId }) => {
  const result = ok('browser_screenshot', await env.driver.send('browser_screenshot', { tabId }));
  const file = await download(result.url);
  assert.is(file.status, 200);
  assert.is(file.type, 'image/png');
  assert.equal([...file.bytes.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(file.bytes.buffer, file.bytes.byteOffset);
  assert.is(view.getUint32(16), result.width);
  assert.is(view.getUint32(20), result.height);
  assert.ok(result.width > 100 && result.height > 100);
  const full = ok('browser_screenshot', await env.driver.send('browser_screenshot', { tabId, fullPage: true }));
  assert.ok(full.height > result.height, `full page ${full.height} px vs viewport ${result.height} px`);
});

s('browser_dom_index numbers the interactive elements and records them in the page', async ({ env, tabId }) => {
  const result = ok(
    'browser_dom_index',
    await env.driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' }),
  );
  const buttons = result.elements.filter((e: any) => e.text === 'Add to cart');
  assert.is(buttons.length, 5);
  assert.ok(buttons.every((b: any) => b.tag === 'button' && b.bbox.w > 0 && typeof b.xpath === 'string'));
  const page = await pageOf(env, '/products.html');
  const attr = await page.evaluate(
    (id) => document.querySelector(`[data-mimo_click_id="${id}"]`)?.id,
    buttons[0].clickId,
  );
  assert.is(attr, 'add-tp-1');
  const viewport = ok('browser_dom_index', await env.driver.send('browser_dom_index', { tabId }));
  assert.ok(
    !viewport.elements.some((e: any) => e.text === 'Far below the fold'),
    'viewport scope leaves out elements below the fold',
  );
  const custom = ok(
    'browser_dom_index',
    await env.driver.send('browser_dom_index', { tabId, scope: 'document', assignAttr: 'data-agent-id' }),
  );
  const customId = await page.evaluate(
    (id) => document.querySelector(`[data-agent-id="${id}"]`)?.textContent,
    custom.elements[0].clickId,
  );
  assert.is(customId, custom.elements[0].text);
  assert.is(
    await page.evaluate(() => document.querySelectorAll('[data-mimo_click_id]').length),
    0,
    'the old attribute is cleared',
  );
});

s('browser_xpath_scan lists product names and prices with XPaths', async ({ env, tabId }) => {
  const indexed = ok(
    'browser_dom_index',
    await env.driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' }),
  );
  const result = ok('browser_xpath_scan', await env.driver.send('browser_xpath_scan', { tabId, scope: 'document' }));
  const price = result.elements.find((e: any) => e.text === '$120.50');
  assert.ok(price, 'price cell scanned');
  assert.is(price.tag, 'td');
  const page = await pageOf(env, '/products.html');
  const resolved = await page.evaluate(
    (xpath) =>
      document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue?.textContent,
    price.xpath,
  );
  assert.is(resolved, '$120.50');
  const button = result.elements.find((e: any) => e.tag === 'button' && e.text === 'Add to cart');
  assert.is(button.clickId, indexed.elements.find((e: any) => e.text === 'Add to cart').clickId);
});

s('browser_click is a trusted CDP click, by clickId or xpath, also below the fold', async ({ env, tabId }) => {
  const page = await pageOf(env, '/products.html');
  const indexed = ok(
    'browser_dom_index',
    await env.driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' }),
  );
  const second = indexed.elements.filter((e: any) => e.text === 'Add to cart')[1];
  const click = ok('browser_click', await env.driver.send('browser_click', { tabId, clickId: second.clickId }));
  assert.is(click.strategy, 'cdp_mouse');
  assert.is(await page.textContent('#last-added'), 'Porcelain Tea Set (trusted)');
  ok('browser_click', await env.driver.send('browser_click', { tabId, xpath: '//*[@id="far-button"]' }));
  assert.is(await page.textContent('#far-result'), 'clicked (trusted)');
  assert.is(await page.textContent('#cart-count'), '1');
});

s('browser_type types into the form like a keyboard and submits it', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/form.html');
  const typed = ok(
    'browser_type',
    await driver.send('browser_type', { tabId, xpath: '//*[@id="name"]', text: 'Ada Lovelace' }),
  );
  assert.is(typed.strategy, 'cdp_key');
  const page = await pageOf(env, '/form.html');
  assert.is(await page.inputValue('#name'), 'Ada Lovelace');
  const keys = await page.evaluate(
    () => (window as any).__mimoEvents.filter((e: any) => e.type === 'keydown' && e.trusted).length,
  );
  assert.is(keys, 'Ada Lovelace'.length, 'one trusted keydown per character');
  const indexed = ok(
    'browser_dom_index',
    await driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' }),
  );
  const email = indexed.elements.find((e: any) => e.text === 'you@example.com');
  // The index describes fields for a planner: type, name, label, placeholder.
  assert.is(email.type, 'email');
  assert.is(email.placeholder, 'you@example.com');
  const name = indexed.elements.find((e: any) => e.name === 'name');
  assert.ok(name?.label, `the name field has its label: ${JSON.stringify(name)}`);
  ok('browser_type', await driver.send('browser_type', { tabId, clickId: email.clickId, text: 'ada@example.com' }));
  ok(
    'browser_type',
    await driver.send('browser_type', { tabId, xpath: '//*[@id="name"]', text: 'Ada King', submit: true }),
  );
  ok('browser_wait_for_loaded', await driver.send('browser_wait_for_loaded', { tabId }));
  const result = await pageOf(env, '/form-result.html');
  assert.is(await result.textContent('#result-name'), 'Ada King', 'typing replaced the earlier value');
  assert.is(await result.textContent('#result-email'), 'ada@example.com');
  ok('task_stop', await driver.send('task_stop', { closeTab: true }));
});

s('a typed password never leaves the page: the dom index describes the field without its value', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/login.html');
  ok(
    'browser_type',
    await driver.send('browser_type', { tabId, xpath: '//*[@id="password"]', text: 'hunter2-secret' }),
  );
  assert.is(await (await pageOf(env, '/login.html')).inputValue('#password'), 'hunter2-secret');
  const indexed = ok(
    'browser_dom_index',
    await driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' }),
  );
  const field = indexed.elements.find((e: any) => e.type === 'password');
  assert.equal([field.text, field.placeholder, field.label], ['Your password', 'Your password', 'Password']);
  assert.not.ok(JSON.stringify(indexed).includes('hunter2'), 'the password is not in the index');
  const scanned = ok('browser_xpath_scan', await driver.send('browser_xpath_scan', { tabId, scope: 'document' }));
  assert.not.ok(JSON.stringify(scanned).includes('hunter2'), 'nor in the xpath scan');
  ok('task_stop', await driver.send('task_stop', { closeTab: true }));
});

s('browser_readability_extract returns the article as text and Markdown', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/article.html');
  const result = ok('browser_readability_extract', await driver.send('browser_readability_extract', { tabId }));
  assert.is(result.title, 'A Short History of the Teapot');
  assert.match(result.text, 'Meissen in 1708');
  assert.match(result.markdown, '## Yixing clay');
  assert.match(result.markdown, '- Meissen, Saxony');
  assert.not.match(result.text, 'Fixture site footer');
  assert.is(result.truncated, false);
  assert.is(result.contentLengthBytes, new TextEncoder().encode(result.markdown).byteLength);
  ok('task_stop', await driver.send('task_stop', { closeTab: true }));
});

s('browser_get_html uploads the page HTML as an artifact', async ({ env, tabId }) => {
  const result = ok('browser_get_html', await env.driver.send('browser_get_html', { tabId }));
  const file = await download(result.url);
  assert.is(file.status, 200);
  const html = new TextDecoder().decode(file.bytes);
  assert.match(html, '<table id="products">');
  assert.match(html, 'Bamboo Tea Whisk');
  const part = ok(
    'browser_get_html',
    await env.driver.send('browser_get_html', { tabId, xpath: '//*[@id="cart-count"]' }),
  );
  assert.is(new TextDecoder().decode((await download(part.url)).bytes), '<span id="cart-count">1</span>');
});

s('a target=_blank link opens a tab of the task that browser_switch_tab can bind', async ({ env }) => {
  const driver = env.newDriver();
  const tabId = await startTask(env, driver, '/new-tab.html');
  const since = Date.now();
  const links = ok(
    'browser_dom_index',
    await driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' }),
  );
  const link = links.elements.find((e: any) => e.target === '_blank');
  assert.ok(link?.href?.endsWith('/article.html'), `the new-tab link carries href and target: ${JSON.stringify(link)}`);
  ok('browser_click', await driver.send('browser_click', { tabId, xpath: '//*[@id="open-article"]' }));
  const created = await env.harness.waitForMessage(
    (m) => m.type === 'tab_event' && m.eventType === 'tab_created',
    5_000,
    since,
  );
  assert.is((created.tab as any).active, false, 'the link opened in a background tab');
  const newTabId = created.tabId as number;
  await waitUntil(async () => (await tabInfo(env, newTabId))?.url?.endsWith('/article.html') ?? false);
  // The new tab's first request is held by the URL policy's new-tab gate and sent again once the
  // tab is guarded (navigation-guard.ts): wait for the page itself, not only its URL.
  await (await pageOf(env, '/article.html')).waitForSelector('article', { timeout: 5_000 });
  const switched = ok('browser_switch_tab', await driver.send('browser_switch_tab', { tabId: newTabId }));
  assert.is(switched.tabId, newTabId);
  assert.ok(switched.url.endsWith('/article.html'));
  assert.is((await tabInfo(env, newTabId))?.active, false, 'switching never activates the tab');
  ok('browser_readability_extract', await driver.send('browser_readability_extract', { tabId: newTabId }));
  const old = await driver.send('browser_screenshot', { tabId });
  assert.is(old.result.error?.code, 'INVALID_TASK_TAB', 'the old tab is no longer the task tab');
  const unknown = await driver.send('browser_switch_tab', { tabId: 999_999 });
  assert.is(unknown.result.error?.code, 'INVALID_TASK_TAB');
  assert.match(unknown.result.error!.message, `the task's tabs are`);
  ok('browser_switch_tab', await driver.send('browser_switch_tab', { tabId }));
  ok('task_stop', await driver.send('task_stop', {}));
});

s('a repeated actionId gets the first result and acts once', async ({ env, tabId }) => {
  const page = await pageOf(env, '/products.html');
  const before = Number(await page.textContent('#cart-count'));
  const first = await env.driver.send(
    'browser_click',
    { tabId, xpath: '//*[@id="add-tp-3"]' },
    { actionId: 'act-dedupe-1' },
  );
  const again = await env.driver.send(
    'browser_click',
    { tabId, xpath: '//*[@id="add-tp-3"]' },
    { actionId: 'act-dedupe-1' },
  );
  assert.is(first.result.status, 'success');
  assert.equal(again.result, first.result);
  assert.is(Number(await page.textContent('#cart-count')), before + 1);
});

s('the task tab was never activated', async ({ env, tabId }) => {
  assert.is((await tabInfo(env, tabId))?.active, false);
  const activated = env.harness.messages.filter(
    (m) => m.message.type === 'tab_event' && m.message.eventType === 'tab_activated',
  );
  const taskTabs = new Set(
    env.harness.messages
      .filter((m) => m.message.type === 'tab_event' && m.message.eventType === 'tab_created')
      .map((m) => m.message.tabId),
  );
  assert.ok(
    !activated.some((m) => taskTabs.has(m.message.tabId)),
    'no tab_activated for a tab opened during the tests',
  );
});

s('task_stop closes the task tab on request', async ({ env, tabId }) => {
  ok('task_stop', await env.driver.send('task_stop', { closeTab: true }));
  await waitUntil(async () => (await tabInfo(env, tabId)) === null);
  ok('task_stop', await env.driver.send('task_stop', {}));
});

s.run();
