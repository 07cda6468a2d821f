import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { READABILITY_INLINE_MAX_BYTES, READABILITY_MAX_BYTES } from '../../transport/contracts/index.ts';
import type { ActionName, ActionParamsMap } from '../../transport/contracts/index.ts';
import { ActionFailure } from '../background/action-failure.ts';
import { actionHandlers } from '../background/action-handlers.ts';
import { defaultGroupTitle } from '../background/handlers/task-start.ts';
import {
  answerPageOps,
  browserAction,
  contextFor,
  TASK_ID,
  testServices,
  withTaskTab,
  type TestServices,
} from './fakes/fake-services.ts';

// A 2x1 PNG (signature + IHDR), enough for pngSize.
const PNG_2x1 = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000010806000000', 'hex').toString('base64');

function run<K extends ActionName>(services: TestServices, name: K, params: ActionParamsMap[K], extra = {}) {
  const handler = actionHandlers[name] as (p: unknown, c: unknown) => Promise<Record<string, any>>;
  return handler(params, contextFor(services, browserAction(name, params, undefined, extra)));
}

async function failure(promise: Promise<unknown>): Promise<ActionFailure['error']> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(error, ActionFailure, `expected an ActionFailure, got ${String(error)}`);
  return (error as ActionFailure).error;
}

const start = suite('task_start / task_stop / switch_tab');

start('opens an inactive tab in a titled group and records it as the task tab', async () => {
  const services = testServices();
  const result = await run(services, 'task_start', { url: 'https://shop.example/' });
  const created = services.browser.calls.find(([name]) => name === 'tabs.create');
  assert.equal(created, ['tabs.create', { url: 'https://shop.example/', active: false }]);
  assert.equal(services.browser.calls.find(([name]) => name === 'tabGroups.update')?.[2], {
    title: defaultGroupTitle(TASK_ID),
    color: 'blue',
  });
  assert.equal(result, { tabId: 100, windowId: 1, groupId: 500, url: 'https://shop.example/' });
  assert.is((await services.taskTabs.get(TASK_ID))?.tabId, 100);
  assert.not.ok(
    services.browser.calls.some(([name, , props]) => name === 'tabs.update' && (props as any)?.active),
    'never activates',
  );
});

start('reuseExistingTab navigates the live task tab; otherwise a new tab joins the same group', async () => {
  const services = testServices();
  await run(services, 'task_start', { url: 'https://a.example/', groupTitle: 'Research' });
  const reused = await run(services, 'task_start', { url: 'https://b.example/', reuseExistingTab: true });
  assert.is(reused.tabId, 100);
  assert.equal(services.browser.calls.at(-1), ['tabs.update', 100, { url: 'https://b.example/' }]);
  const fresh = await run(services, 'task_start', { url: 'https://c.example/' });
  assert.is(fresh.tabId, 101);
  assert.is(fresh.groupId, 500, 'same group as the first tab');
  assert.equal((await services.taskTabs.get(TASK_ID))?.tabs, [101, 100]);
});

start('refuses to open the web UI as a task tab', async () => {
  const services = testServices();
  const error = await failure(run(services, 'task_start', { url: 'http://localhost:3000/tasks' }));
  assert.is(error.code, 'INVALID_TASK_TAB');
  assert.is(services.browser.calls.length, 0);
});

start('switch_tab rebinds within the task, never activating; unknown tabs get a readable error', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  services.browser.addTab({ id: 8, url: 'https://shop.example/item', title: 'Item' });
  await services.taskTabs.adoptOpenedTab({ id: 8, openerTabId: 7 });
  assert.equal(await run(services, 'browser_switch_tab', { tabId: 8 }), {
    tabId: 8,
    url: 'https://shop.example/item',
    title: 'Item',
  });
  assert.is((await services.taskTabs.get(TASK_ID))?.tabId, 8);
  const unknown = await failure(run(services, 'browser_switch_tab', { tabId: 42 }));
  assert.is(unknown.code, 'INVALID_TASK_TAB');
  assert.match(unknown.message, /the task's tabs are (8, 7|7, 8)/);
  assert.not.ok(services.browser.calls.some(([name]) => name === 'tabs.update'));
});

start('task_stop detaches, clears the overlay and forgets the task; closeTab closes it', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  await services.cdp.attach(7);
  assert.equal(await run(services, 'task_stop', { closeTab: true }), { stopped: true });
  assert.ok(services.browser.calls.some(([name, id]) => name === 'debugger.detach' && id === 7));
  assert.ok(services.browser.calls.some(([name, id]) => name === 'tabs.remove' && id === 7));
  assert.ok(services.browser.sentToTabs.some((m) => (m.message as any).kind === 'task_ended'));
  assert.is(await services.taskTabs.get(TASK_ID), undefined);
  assert.equal(await run(services, 'task_stop', {}), { stopped: true }, 'idempotent');
});

const load = suite('browser_wait_for_loaded');

load('resolves on status complete, NAVIGATION_TIMEOUT after timeoutMs, TASK_TAB_CLOSED on close', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  services.browser.tabsById.get(7)!.status = 'loading';
  const done = run(services, 'browser_wait_for_loaded', { tabId: 7 });
  await new Promise((resolve) => setImmediate(resolve));
  services.browser.events.tabUpdated.fire(
    7,
    { status: 'complete' },
    { ...services.browser.tabsById.get(7)!, status: 'complete' },
  );
  assert.equal(await done, { status: 'complete' });

  const slow = run(services, 'browser_wait_for_loaded', { tabId: 7, timeoutMs: 300 });
  await new Promise((resolve) => setImmediate(resolve));
  services.timers.advance(299);
  services.timers.advance(1);
  assert.is((await failure(slow)).code, 'NAVIGATION_TIMEOUT');

  const closing = run(services, 'browser_wait_for_loaded', { tabId: 7 });
  await new Promise((resolve) => setImmediate(resolve));
  services.browser.events.tabRemoved.fire(7, { windowId: 1, isWindowClosing: false });
  assert.is((await failure(closing)).code, 'TASK_TAB_CLOSED');
  assert.is(services.timers.pending(), 0, 'no timer left behind');
});

const input = suite('browser_click / browser_type');

function pageWithButton(services: TestServices, page: { submits?: boolean } = {}) {
  const ops: string[] = [];
  answerPageOps(services.browser, (op, args) => {
    if (op === 'submitWatch') return { ok: true, seen: !args.arm && page.submits !== false };
    ops.push(op);
    if (op === 'locate') return { ok: true, x: 40, y: 20, tag: 'button', opensNewTab: false, mac: false };
    if (op === 'domClick') return { ok: true, tag: 'button' };
    if (op === 'focusForTyping') return { ok: true, tag: 'input' };
    if (op === 'domInput') return { ok: true, tag: 'input', submitted: args.submit };
    return undefined;
  });
  return ops;
}

input('CDP click: pressed + released at the centre the page reported', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  pageWithButton(services);
  // The fake tab keeps its URL: the click reports that it did not navigate.
  assert.equal(await run(services, 'browser_click', { tabId: 7, xpath: '//button' }), {
    clicked: true,
    strategy: 'cdp_mouse',
    navigated: false,
  });
  const mouse = services.browser.cdpCommands
    .filter((c) => c.method === 'Input.dispatchMouseEvent')
    .map((c) => c.params);
  assert.equal(mouse, [
    { type: 'mousePressed', buttons: 1, x: 40, y: 20, button: 'left', clickCount: 1, modifiers: 0 },
    { type: 'mouseReleased', buttons: 0, x: 40, y: 20, button: 'left', clickCount: 1, modifiers: 0 },
  ]);
});

input('CDP refused: dom_click with a warning; explicit cdp_mouse is CDP_UNAVAILABLE', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  const ops = pageWithButton(services);
  services.browser.attachError = new Error('Cannot attach to this target.');
  const result = await run(services, 'browser_click', { tabId: 7, xpath: '//button' });
  assert.is(result.strategy, 'dom_click');
  assert.match(result.warnings[0], 'cdp_mouse unavailable');
  assert.ok(ops.includes('domClick'));
  const explicit = await failure(
    run(services, 'browser_click', { tabId: 7, xpath: '//button', strategy: 'cdp_mouse' }),
  );
  assert.is(explicit.code, 'CDP_UNAVAILABLE');
  assert.is(explicit.retryable, true);
});

input('a clickId from an older index never reaches the page', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  const ops = pageWithButton(services);
  await services.refs.record(7, { docToken: 'd', attr: 'data-mimo_click_id', firstId: 10, lastId: 20 });
  const stale = await failure(run(services, 'browser_click', { tabId: 7, clickId: 3 }));
  assert.is(stale.code, 'INVALID_TARGET');
  assert.is(stale.details?.reason, 'stale');
  assert.equal(ops, []);
});

input('a page-side target failure is INVALID_TARGET with its reason', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  answerPageOps(services.browser, () => ({ ok: false, reason: 'stale', message: 'the tab navigated' }));
  await services.refs.record(7, { docToken: 'd', attr: 'data-mimo_click_id', firstId: 1, lastId: 5 });
  const error = await failure(run(services, 'browser_click', { tabId: 7, clickId: 2 }));
  assert.equal([error.code, error.details?.reason, error.message], ['INVALID_TARGET', 'stale', 'the tab navigated']);
});

input('typing sends one keyDown/keyUp pair per character and Enter to submit; dom_input as fallback', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  pageWithButton(services);
  assert.equal(await run(services, 'browser_type', { tabId: 7, xpath: '//input', text: 'Hi', submit: true }), {
    typed: true,
    strategy: 'cdp_key',
    submitted: true,
    navigated: false,
  });
  const keys = services.browser.cdpCommands
    .filter((c) => c.method === 'Input.dispatchKeyEvent')
    .map((c) => `${c.params.type}:${c.params.key}`);
  assert.equal(keys, ['keyDown:H', 'keyUp:H', 'keyDown:i', 'keyUp:i', 'keyDown:Enter', 'keyUp:Enter']);
  services.settingsValue = { ...services.settingsValue, useCdp: false };
  await services.cdp.detach(7);
  const fallback = await run(services, 'browser_type', { tabId: 7, xpath: '//input', text: 'x', submit: true });
  assert.is(fallback.strategy, 'dom_input');
  assert.match(fallback.warnings[0], 'turned off');
});

input(
  "Enter that the page did not take as a submit (a textarea's line break): submitted false, said in a warning",
  async () => {
    const services = testServices();
    await withTaskTab(services, 7);
    pageWithButton(services, { submits: false });
    const result = await run(services, 'browser_type', { tabId: 7, xpath: '//textarea', text: 'Hi', submit: true });
    assert.equal([result.submitted, result.navigated], [false, false]);
    assert.ok(
      result.warnings.some((w: string) => /nothing was submitted/.test(w)),
      JSON.stringify(result.warnings),
    );
  },
);

const capture = suite('browser_screenshot / readability / get_html');

capture('screenshot: CDP capture of the background tab, uploaded as PNG to the presigned URL', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  services.browser.onCommand = (_tab, method) => (method === 'Page.captureScreenshot' ? { data: PNG_2x1 } : {});
  const result = await run(
    services,
    'browser_screenshot',
    { tabId: 7 },
    { screenshotPresignedUrl: 'http://server/api/artifacts/art-1/upload?token=t' },
  );
  assert.equal({ width: result.width, height: result.height }, { width: 2, height: 1 });
  assert.is(services.artifacts.uploads[0]!.contentType, 'image/png');
  assert.is(services.artifacts.uploads[0]!.kind, 'screenshot');
  const capture = services.browser.cdpCommands.find((c) => c.method === 'Page.captureScreenshot')!;
  assert.is(capture.params.format, 'png');
});

capture('screenshot without CDP of a background tab is CDP_UNAVAILABLE', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  services.browser.attachError = new Error('refused');
  assert.is((await failure(run(services, 'browser_screenshot', { tabId: 7 }))).code, 'CDP_UNAVAILABLE');
});

capture(
  'readability: inline below 256 KB, artifact + truncated at or above, READABILITY_TOO_LARGE above 2 MB',
  async () => {
    const services = testServices();
    await withTaskTab(services, 7);
    let markdown = '# Title\n\nBody';
    answerPageOps(services.browser, () => ({
      ok: true,
      title: 'T',
      text: markdown.replace('# ', ''),
      markdown,
      fallback: false,
    }));
    const small = await run(services, 'browser_readability_extract', { tabId: 7 });
    assert.equal(small, {
      title: 'T',
      contentLengthBytes: 13,
      text: 'Title\n\nBody',
      markdown: '# Title\n\nBody',
      truncated: false,
    });
    markdown = 'é'.repeat(READABILITY_INLINE_MAX_BYTES / 2);
    const large = await run(services, 'browser_readability_extract', { tabId: 7 });
    assert.is(large.truncated, true);
    assert.is(large.contentLengthBytes, READABILITY_INLINE_MAX_BYTES);
    assert.type(large.artifactId, 'string');
    assert.is(large.text, undefined);
    assert.is(services.artifacts.uploads[0]!.kind, 'readability');
    markdown = 'x'.repeat(READABILITY_MAX_BYTES + 1);
    assert.is(
      (await failure(run(services, 'browser_readability_extract', { tabId: 7 }))).code,
      'READABILITY_TOO_LARGE',
    );
  },
);

capture('get_html uploads what the page returned; a failed upload is ARTIFACT_UPLOAD_FAILED', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  answerPageOps(services.browser, () => ({ ok: true, html: '<p>hi</p>', url: 'https://shop.example/' }));
  const result = await run(services, 'browser_get_html', { tabId: 7 });
  assert.match(result.url, result.artifactId);
  assert.is(services.artifacts.uploads[0]!.bytes, '<p>hi</p>');
  services.artifacts.failWith = new ActionFailure('ARTIFACT_UPLOAD_FAILED', 'disk full');
  assert.is((await failure(run(services, 'browser_get_html', { tabId: 7 }))).code, 'ARTIFACT_UPLOAD_FAILED');
});

capture('dom_index hands out ids after the previous generation and records the new one', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  const seen: any[] = [];
  answerPageOps(services.browser, (_op, args) => {
    seen.push(args);
    return {
      ok: true,
      elements: [{ clickId: args.firstId, tag: 'a' }],
      docToken: 'doc',
      lastId: args.firstId,
      truncated: false,
    };
  });
  await run(services, 'browser_dom_index', { tabId: 7 });
  await run(services, 'browser_dom_index', { tabId: 7, scope: 'document', assignAttr: 'data-x' });
  assert.equal(
    seen.map((a) => [a.firstId, a.scope, a.attr]),
    [
      [1, 'viewport', 'data-mimo_click_id'],
      [2, 'document', 'data-x'],
    ],
  );
  assert.equal(await services.refs.current(7), { docToken: 'doc', attr: 'data-x', firstId: 2, lastId: 2 });
});

start.run();
load.run();
input.run();
capture.run();
