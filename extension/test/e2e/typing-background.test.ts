// Long text typed into a background task tab while the person types in their own tab (issue 22),
// headed Chromium on Xvfb with real X keystrokes (xdotool), as in background-focus.test.ts.
// Pass: a 2,000-character text (with line breaks) lands in the task's textarea exactly, well within
// the T_exec the server gives it (typingExecTimeoutMs); a 220-character line and a short word land
// exactly too, the short one key by key; Enter inside a textarea submits nothing and is reported so
// (`submitted: false`), Enter in a form input is `submitted: true`; none of
// the person's keys reach the agent's fields and none of the agent's reach the person's notes.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { typingExecTimeoutMs } from '../../../spec/action-timeouts.ts';
import { DEFAULT_EXTENSION_ID } from '../../../transport/contracts/index.ts';
import { buildExtension } from '../../build.ts';
import { SETTINGS_KEY } from '../../shared/settings.ts';
import { createActionDriver, type ActionDriver } from '../harness/action-driver.ts';
import { launchHeaded, type HeadedBrowser } from '../harness/headed-browser.ts';
import { startHeadedDisplay, type HeadedDisplay } from '../harness/headed-display.ts';
import { startHarness, type Harness } from '../harness/harness-server.ts';
import { armWatchdog, waitUntil } from './e2e-util.ts';
import { serveInterruptionPages, type InterruptionPages } from './interruption-pages.ts';

const disarm = armWatchdog(110_000, 'typing-background.test');
const KEY_CHUNK = 'abcdefghij0123456789';

const form = `<!doctype html><html><head><meta charset="utf-8"><title>Long form</title></head><body>
<form id="f" action="/submitted" method="get">
  <textarea id="long" name="long" rows="10" cols="80"></textarea>
  <input id="line" name="line" size="80">
  <input id="short" name="short">
  <button type="submit">Send</button>
</form>
<script>
  window.__form = { submits: 0, keys: {}, inputs: {} };
  document.getElementById('f').addEventListener('submit', (e) => { e.preventDefault(); window.__form.submits++; });
  for (const id of ['long', 'line', 'short']) {
    const el = document.getElementById(id);
    window.__form.keys[id] = 0;
    window.__form.inputs[id] = 0;
    el.addEventListener('keyup', () => window.__form.keys[id]++);
    el.addEventListener('input', () => window.__form.inputs[id]++);
  }
</script></body></html>`;

interface Ctx {
  display: HeadedDisplay;
  pages: InterruptionPages;
  formServer: Server;
  formUrl: string;
  harness: Harness;
  browser: HeadedBrowser;
  outDir: string;
  driver: ActionDriver;
  personTabId: number;
}

const s = suite<Ctx>('headed: long text typed into a background tab while the person types (issue 22)');

s.before(async (ctx) => {
  ctx.display = await startHeadedDisplay();
  ctx.pages = await serveInterruptionPages();
  ctx.formServer = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(form);
  });
  await new Promise<void>((resolve) => ctx.formServer.listen(0, '127.0.0.1', resolve));
  ctx.formUrl = `http://127.0.0.1:${(ctx.formServer.address() as AddressInfo).port}/form.html`;
  ctx.outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-'));
  await buildExtension({ outDir: ctx.outDir });
  ctx.harness = await startHarness();
  const personUrl = `${ctx.pages.url}/person.html`;
  ctx.browser = await launchHeaded(ctx.outDir, {
    display: ctx.display.display,
    extensionId: DEFAULT_EXTENSION_ID,
    startUrl: personUrl,
  });
  const settings = { serverUrl: ctx.harness.url, token: ctx.harness.token, webUiPatterns: [], useCdp: true };
  await ctx.browser.inWorker(
    `chrome.storage.local.set(${JSON.stringify({ [SETTINGS_KEY]: settings })}).then(() => true)`,
  );
  const clientId = await ctx.harness.waitForPlugin(15_000);
  ctx.driver = createActionDriver(ctx.harness, clientId);
  ctx.personTabId = await ctx.browser.inWorker<number>(
    `chrome.tabs.query({ active: true }).then((tabs) => tabs[0].id)`,
  );
  // As in background-focus.test.ts: the start-up tab's navigation is sometimes dropped; open it again.
  const loaded = () =>
    ctx.browser.inWorker<boolean>(
      `chrome.tabs.get(${ctx.personTabId}).then((t) => t.url === ${JSON.stringify(personUrl)} && t.status === 'complete')`,
    );
  await waitUntil(loaded, 3_000).catch(async () => {
    await ctx.browser.inWorker(
      `chrome.tabs.update(${ctx.personTabId}, { url: ${JSON.stringify(personUrl)} }).then(() => true)`,
    );
    await waitUntil(loaded, 10_000);
  });
});

s.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.harness?.close();
  await ctx.pages?.close();
  await new Promise<void>((resolve) =>
    ctx.formServer ? (ctx.formServer.closeAllConnections(), ctx.formServer.close(() => resolve())) : resolve(),
  );
  await ctx.display?.close();
  if (ctx.outDir) await rm(ctx.outDir, { recursive: true, force: true });
  disarm();
});

const inTab = <T>(ctx: Ctx, tabId: number, world: 'MAIN' | 'ISOLATED', body: string) =>
  ctx.browser.inWorker<T>(
    `chrome.scripting.executeScript({ target: { tabId: ${tabId} }, world: '${world}', func: () => (${body}) }).then((r) => r[0].result)`,
  );

s('2,000 characters in a background tab, fast and exact, while the person types in theirs', async (ctx) => {
  const { display, driver } = ctx;
  const window = await display.xdotool(['search', '--sync', '--onlyvisible', '--class', 'chromium']);
  await display.xdotool(['windowactivate', '--sync', window.split('\n').pop()!]);
  await display.xdotool(['mousemove', '--sync', '600', '500', 'click', '1']);
  await waitUntil(
    async () =>
      (await inTab<string>(ctx, ctx.personTabId, 'MAIN', `document.activeElement && document.activeElement.id`)) ===
      'notes',
    5_000,
  );

  let typed = '';
  let agentDone = false;
  const typing = (async () => {
    while (!agentDone) {
      await display.xdotool(['type', '--delay', '12', KEY_CHUNK]);
      typed += KEY_CHUNK;
    }
  })();

  const act = async (name: Parameters<ActionDriver['send']>[0], params: Record<string, unknown>) => {
    const outcome = await driver.send(name, params as never, { timeoutMs: 60_000 });
    assert.is(outcome.result.status, 'success', `${name}: ${JSON.stringify(outcome.result.error)}`);
    return outcome;
  };
  const figures: Record<string, number> = {};
  let long = '';
  let line = '';
  try {
    const started = await act('task_start', { url: ctx.formUrl });
    const tabId = started.result.result!.tabId as number;
    await act('browser_wait_for_loaded', { tabId });
    const active = await ctx.browser.inWorker<boolean>(`chrome.tabs.get(${tabId}).then((t) => t.active)`);
    assert.is(active, false, 'the task tab is a background tab');

    const sentence = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. ';
    long = `${sentence.repeat(11)}\n\n${sentence.repeat(13)}`.slice(0, 2_000);
    assert.is(long.length, 2_000);
    const longTyped = await act('browser_type', { tabId, xpath: '//*[@id="long"]', text: long });
    figures.longMs = Math.round(longTyped.totalMs);
    line = sentence.repeat(3).slice(0, 220);
    const lineTyped = await act('browser_type', { tabId, xpath: '//*[@id="line"]', text: line });
    figures.lineMs = Math.round(lineTyped.totalMs);
    const shortTyped = await act('browser_type', { tabId, xpath: '//*[@id="short"]', text: 'hello' });
    figures.shortMs = Math.round(shortTyped.totalMs);

    const page = await inTab<{
      long: string;
      line: string;
      short: string;
      submits: number;
      keys: Record<string, number>;
      inputs: Record<string, number>;
    }>(
      ctx,
      tabId,
      'MAIN',
      `({ long: document.getElementById('long').value, line: document.getElementById('line').value, short: document.getElementById('short').value, submits: window.__form.submits, keys: window.__form.keys, inputs: window.__form.inputs })`,
    );
    assert.is(page.long, long, "the 2,000 characters, line breaks included, and nothing of the person's");
    assert.is(page.line, line, 'the 220-character line, exactly');
    assert.is(page.short, 'hello');
    assert.is(page.submits, 0, 'Enter inside a textarea is a line break, not a submit');
    assert.is(page.keys.short, 5, 'a short text is typed key by key');
    assert.ok(
      page.keys.long! >= 1 && page.keys.long! <= 5,
      `keys only where needed in the long text: ${page.keys.long}`,
    );
    assert.ok(page.inputs.long! >= 1 && page.inputs.line! >= 1, 'the page heard input events');
    assert.ok(
      figures.longMs! < typingExecTimeoutMs(2_000),
      `2,000 characters in ${figures.longMs} ms, within T_exec ${typingExecTimeoutMs(2_000)} ms`,
    );
    assert.ok(figures.lineMs! < typingExecTimeoutMs(220), `220 characters in ${figures.lineMs} ms`);

    // Enter to submit: "submitted" only when the page saw a form submit (a textarea's Enter is a line break).
    const inTextarea = await act('browser_type', {
      tabId,
      xpath: '//*[@id="long"]',
      text: 'one more line',
      submit: true,
    });
    assert.is(inTextarea.result.result!.submitted, false, 'Enter in a textarea submits nothing');
    const inInput = await act('browser_type', { tabId, xpath: '//*[@id="short"]', text: 'go', submit: true });
    assert.is(inInput.result.result!.submitted, true, "Enter in a form's input submits it");
    const submits = await inTab<number>(ctx, tabId, 'MAIN', `window.__form.submits`);
    assert.is(submits, 1, 'one submit, from the input');
  } finally {
    agentDone = true;
    await typing;
  }
  await waitUntil(
    async () =>
      (await inTab<string>(ctx, ctx.personTabId, 'MAIN', `document.getElementById('notes').value`)).length >=
      typed.length,
    3_000,
  ).catch(() => {});
  const notes = await inTab<string>(ctx, ctx.personTabId, 'MAIN', `document.getElementById('notes').value`);
  console.log(
    `[typing-background] ${JSON.stringify({ ...figures, personKeysTyped: typed.length, personKeysReceived: notes.length })}`,
  );
  assert.is(notes, typed, "the person's notes hold exactly their own keys: none lost, none of the agent's");
  assert.ok(typed.length >= 20, `the person typed ${typed.length} keys meanwhile`);
});

s.run();
