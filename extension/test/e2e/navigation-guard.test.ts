// The browser enforces the URL policy on task tabs (issue 12), in a real Chromium with the built
// extension and the real runtime (createServer + the real URL policy, via navigation_check):
// the policy allows 127.0.0.1 (and localhost, for a cross-site frame) only; pages there try to
// leave for 127.0.0.2 (another loopback address, its own server with an access log) by script,
// link click, form submit, meta refresh, window.open and an HTTP 302. For each: the server hears
// URL_BLOCKED for the task, the tab ends on about:blank, what the runtime reads back (text, DOM
// index, screenshot) carries nothing from the blocked host, and the blocked host's access log
// never sees the page. Frames going there (in the page, or inside a cross-site frame) are refused
// as frame "sub" and the page stays. A navigation to
// another page of the allowed host still works (the guard is not a blanket block).
// The whole suite runs twice: under Playwright's persistent context, and in a plain Chromium that
// Playwright only watches (connectOverCDP without page defaults), since Playwright's own
// auto-attach pauses new tabs at start and could hide a race with the extension.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ulid } from 'ulid';
import { startRuntime, type TestRuntime } from '../../../runtime/test/util.ts';
import type { NavigationBlockedReport } from '../../../runtime/socket/navigation-check.ts';
import { createSystemResolver, createUrlPolicy, parseUrlPolicyConfig } from '../../../runtime/url-policy/index.ts';
import { buildExtension } from '../../build.ts';
import type { BrowserContext, Worker } from 'playwright-core';
import { launchRealistic, launchWithExtension } from '../harness/chromium.ts';
import { armWatchdog, configureThroughOptionsPage, waitUntil } from './e2e-util.ts';

const disarm = armWatchdog(420_000, 'navigation-guard.test');
const SECRET = 'BLOCKED-HOST-SECRET-7f3a';

interface Ctx {
  dirs: string[];
  runtime: TestRuntime;
  browser: { context: BrowserContext; extensionId: string; close(): Promise<void> };
  worker(): Promise<Worker>;
  allowed: Server;
  allowedUrl: string;
  blocked: Server;
  blockedUrl: string;
  blockedLog: string[];
  reports: NavigationBlockedReport[];
  clientId: string;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
  });
}

function allowedPages(blockedUrl: () => string, allowedUrl: () => string) {
  const page = (body: string, head = '') =>
    `<!doctype html><html><head><meta charset="utf-8"><title>allowed</title>${head}</head><body><h1>Allowed page</h1>${body}</body></html>`;
  const pages: Record<string, () => string> = {
    '/script': () =>
      page(`<script>setTimeout(() => { location.href = '${blockedUrl()}/secret-script'; }, 300);</script>`),
    '/link': () => page(`<p><a id="go" href="${blockedUrl()}/secret-link">a link to the blocked host</a></p>`),
    '/form': () =>
      page(
        `<form id="f" method="post" action="${blockedUrl()}/secret-form"><input name="q" value="x"><button id="send">Send</button></form>`,
      ),
    '/meta': () => page('', `<meta http-equiv="refresh" content="0.3;url=${blockedUrl()}/secret-meta">`),
    '/popup': () => page(`<button id="open" onclick="window.open('${blockedUrl()}/secret-popup')">Open</button>`),
    '/allowed-hop': () =>
      page(`<script>setTimeout(() => { location.href = '${allowedUrl()}/landing'; }, 300);</script>`),
    '/landing': () => page('<p id="landed">ALLOWED-LANDING</p>'),
    '/blank-link': () =>
      page(`<p><a id="out" target="_blank" href="${blockedUrl()}/secret-blank-link">opens a new tab</a></p>`),
    '/iframe': () => page(`<iframe id="frame" src="${blockedUrl()}/secret-iframe"></iframe>`),
    // A cross-site frame (the allowed server under its other name: another process) with a child
    // of the blocked host in its markup, another added a moment after it loads, and then the frame
    // itself going there.
    '/cross-frame': () =>
      page(`<iframe id="cross" src="${allowedUrl().replace('127.0.0.1', 'localhost')}/cross-inner"></iframe>`),
    '/cross-inner': () =>
      page(
        `<iframe src="${blockedUrl()}/secret-static"></iframe>` +
          `<script>setTimeout(() => { const f = document.createElement('iframe'); f.src = '${blockedUrl()}/secret-nested'; document.body.append(f); }, 300);` +
          `setTimeout(() => { location.href = '${blockedUrl()}/secret-cross-self'; }, 1500);</script>`,
      ),
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/redirect') return void res.writeHead(302, { location: `${blockedUrl()}/secret-redirect` }).end();
    const render = pages[path];
    if (!render) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(render());
  };
}

async function act(ctx: Ctx, taskId: string, actionName: string, params: Record<string, unknown>) {
  return ctx.runtime.server.tasks.run({ taskId, clientId: ctx.clientId, actionName, params, retry: false });
}

const tabUrl = async (ctx: Ctx, tabId: number): Promise<string | undefined> =>
  (await ctx.worker()).evaluate(
    (id: number) =>
      (globalThis as any).chrome.tabs.get(id).then(
        (t: any) => t.url,
        () => undefined,
      ),
    tabId,
  );

/** What the runtime can read back from a tab must carry nothing from the blocked host. */
async function assertNothingFromBlockedHost(ctx: Ctx, taskId: string, tabId: number): Promise<void> {
  await waitUntil(async () => (await tabUrl(ctx, tabId)) === 'about:blank', 10_000);
  const text = await act(ctx, taskId, 'browser_readability_extract', { tabId });
  assert.not.match(JSON.stringify(text.result ?? text.error ?? null), SECRET);
  assert.is(text.status, 'succeeded', JSON.stringify(text.error));
  // The parked about:blank can be read (issue 21): it has nothing in it.
  const index = await act(ctx, taskId, 'browser_dom_index', { tabId });
  assert.not.match(JSON.stringify(index.result ?? index.error ?? null), SECRET);
  assert.is(index.status, 'succeeded', JSON.stringify(index.error));
  assert.is((index.result as { elements: unknown[] }).elements.length, 0, 'about:blank has no elements');
  // A screenshot now can only be of about:blank (right after the swap Chromium sometimes has no
  // frame yet and refuses the capture: also fine, nothing of the blocked page either way).
  const shot = await act(ctx, taskId, 'browser_screenshot', { tabId });
  assert.ok(shot.status === 'succeeded' || shot.error?.code === 'CDP_UNAVAILABLE', JSON.stringify(shot.error));
  assert.is(await tabUrl(ctx, tabId), 'about:blank');
  const snapshot = JSON.stringify(ctx.runtime.server.snapshots.state(ctx.clientId) ?? {});
  assert.not.match(snapshot, SECRET);
}

async function startOn(ctx: Ctx, path: string): Promise<{ taskId: string; tabId: number }> {
  const taskId = ulid();
  const started = await act(ctx, taskId, 'task_start', { url: `${ctx.allowedUrl}${path}` });
  assert.is(started.status, 'succeeded', JSON.stringify(started.error));
  return { taskId, tabId: (started.result as { tabId: number }).tabId };
}

async function expectBlocked(
  ctx: Ctx,
  taskId: string,
  secretPath: string,
  stage: 'request' | 'redirect' = 'request',
): Promise<NavigationBlockedReport> {
  await waitUntil(() => ctx.reports.some((r) => r.taskId === taskId && r.url.includes(secretPath)), 10_000);
  const report = ctx.reports.find((r) => r.taskId === taskId && r.url.includes(secretPath))!;
  assert.is(report.error.code, 'URL_BLOCKED');
  assert.is(report.error.details?.reason, 'not_allowlisted');
  assert.is(report.frame, 'main');
  assert.is(report.stage, stage);
  return report;
}

function guardSuite(mode: 'playwright' | 'realistic') {
  const s = suite<Ctx>(`navigation guard (${mode}): a blocked host is never loaded in a task tab`);

  s.before(async (ctx) => {
    ctx.dirs = [];
    ctx.blockedLog = [];
    ctx.reports = [];
    ctx.blocked = createHttpServer((req, res) => {
      ctx.blockedLog.push(`${req.method} ${req.url}`);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>${SECRET}</title><h1>${SECRET}</h1>`);
    });
    ctx.blockedUrl = await listen(ctx.blocked, '127.0.0.2');
    ctx.allowed = createHttpServer(
      allowedPages(
        () => ctx.blockedUrl,
        () => ctx.allowedUrl,
      ),
    );
    ctx.allowedUrl = await listen(ctx.allowed, '127.0.0.1');

    const parsed = parseUrlPolicyConfig({
      open: { allow_hosts: ['127.0.0.1', 'localhost'], allow_private_networks: ['loopback'] },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const policy = createUrlPolicy({ config: parsed.config, resolve: createSystemResolver() });
    ctx.runtime = await startRuntime({
      checkNavigation: (url) => policy.check(url),
      onNavigationBlocked: (report) => ctx.reports.push(report),
    });

    const extDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-'));
    ctx.dirs.push(extDir);
    await buildExtension({ outDir: extDir });
    if (mode === 'playwright') {
      const launched = await launchWithExtension(extDir);
      ctx.browser = launched;
      ctx.worker = async () => launched.serviceWorker;
    } else {
      const launched = await launchRealistic(extDir);
      const find = async () =>
        launched.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
        (await launched.context.waitForEvent('serviceworker', { timeout: 15_000 }));
      const worker = await find();
      ctx.browser = {
        context: launched.context,
        extensionId: new URL(worker.url()).host,
        close: () => launched.close(),
      };
      ctx.worker = find;
    }
    await configureThroughOptionsPage(ctx.browser.context, ctx.browser.extensionId, ctx.runtime.server.url, '');
    await waitUntil(() => ctx.runtime.server.registry.list().some((x: any) => x.socketConnected), 15_000);
    ctx.clientId = ctx.runtime.server.registry.list().find((x: any) => x.socketConnected)!.clientId;
    // The blocked host is up and serving (so "no request in its log" means something).
    const probe = await fetch(`${ctx.blockedUrl}/health`);
    assert.is(probe.status, 200);
  });

  s.after(async (ctx) => {
    await ctx.browser?.close();
    await ctx.runtime?.close();
    await new Promise((resolve) => ctx.allowed?.close(resolve));
    await new Promise((resolve) => ctx.blocked?.close(resolve));
    for (const dir of ctx.dirs ?? []) await rm(dir, { recursive: true, force: true });
    if (mode === 'realistic') disarm();
  });

  s('control: a navigation to another page of the allowed host loads and can be read', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/allowed-hop');
    await waitUntil(async () => (await tabUrl(ctx, tabId)) === `${ctx.allowedUrl}/landing`, 10_000);
    await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
    const text = await act(ctx, taskId, 'browser_readability_extract', { tabId });
    assert.match(JSON.stringify(text.result), 'ALLOWED-LANDING');
    assert.not.ok(ctx.reports.some((r) => r.taskId === taskId));
  });

  s('script navigation (location.href = blocked) is refused before the request', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/script');
    await expectBlocked(ctx, taskId, '/secret-script');
    await assertNothingFromBlockedHost(ctx, taskId, tabId);
  });

  s('a link click (a real CDP click by browser_click) is refused', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/link');
    await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
    const clicked = await act(ctx, taskId, 'browser_click', { tabId, xpath: '//a[@id="go"]' });
    // The click's result says what happened (issue 21): URL_BLOCKED with the policy's reason.
    assert.is(clicked.error?.code, 'URL_BLOCKED', JSON.stringify(clicked.error ?? clicked.result));
    assert.is((clicked.error?.details as { reason?: string } | undefined)?.reason, 'not_allowlisted');
    await expectBlocked(ctx, taskId, '/secret-link');
    await assertNothingFromBlockedHost(ctx, taskId, tabId);
  });

  s('a form submit (POST) is refused', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/form');
    await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
    const clicked = await act(ctx, taskId, 'browser_click', { tabId, xpath: '//button[@id="send"]' });
    assert.is(clicked.error?.code, 'URL_BLOCKED', JSON.stringify(clicked.error ?? clicked.result));
    await expectBlocked(ctx, taskId, '/secret-form');
    await assertNothingFromBlockedHost(ctx, taskId, tabId);
  });

  s('a meta refresh is refused', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/meta');
    await expectBlocked(ctx, taskId, '/secret-meta');
    await assertNothingFromBlockedHost(ctx, taskId, tabId);
  });

  s('an HTTP 302 to the blocked host is refused at the redirect hop', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/redirect');
    await expectBlocked(ctx, taskId, '/secret-redirect', 'redirect');
    await assertNothingFromBlockedHost(ctx, taskId, tabId);
  });

  s("window.open from the task tab: the new tab's first navigation is refused", async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/popup');
    await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
    const before: number[] = await (
      await ctx.worker()
    ).evaluate(() => (globalThis as any).chrome.tabs.query({}).then((tabs: any[]) => tabs.map((t) => t.id)));
    const clicked = await act(ctx, taskId, 'browser_click', { tabId, xpath: '//button[@id="open"]' });
    assert.is(clicked.status, 'succeeded', JSON.stringify(clicked.error));
    const report = await expectBlocked(ctx, taskId, '/secret-popup');
    assert.is.not(report.tabId, tabId, 'the check came from the new tab');
    assert.not.ok(before.includes(report.tabId));
    await waitUntil(async () => (await tabUrl(ctx, report.tabId)) === 'about:blank', 10_000);
    // The opener stays on its allowed page.
    assert.is(await tabUrl(ctx, tabId), `${ctx.allowedUrl}/popup`);
  });

  s('a target=_blank link clicked by browser_click: the new tab never loads the blocked page', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/blank-link');
    await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
    const clicked = await act(ctx, taskId, 'browser_click', { tabId, xpath: '//a[@id="out"]' });
    assert.is(clicked.status, 'succeeded', JSON.stringify(clicked.error));
    const report = await expectBlocked(ctx, taskId, '/secret-blank-link');
    assert.is.not(report.tabId, tabId);
    await waitUntil(async () => (await tabUrl(ctx, report.tabId)) === 'about:blank', 10_000);
  });

  s('an iframe of the blocked host is refused (frame "sub"); the page itself stays', async (ctx) => {
    const { taskId, tabId } = await startOn(ctx, '/iframe');
    await waitUntil(() => ctx.reports.some((r) => r.taskId === taskId && r.url.includes('/secret-iframe')), 10_000);
    const report = ctx.reports.find((r) => r.taskId === taskId && r.url.includes('/secret-iframe'))!;
    assert.is(report.frame, 'sub');
    await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
    assert.is(await tabUrl(ctx, tabId), `${ctx.allowedUrl}/iframe`);
    const html = await act(ctx, taskId, 'browser_readability_extract', { tabId });
    assert.not.match(JSON.stringify(html.result ?? html.error ?? null), SECRET);
  });

  s(
    'inside a cross-site frame: its child and its own navigation to the blocked host are refused (frame "sub")',
    async (ctx) => {
      const { taskId, tabId } = await startOn(ctx, '/cross-frame');
      for (const secret of ['/secret-static', '/secret-nested', '/secret-cross-self']) {
        await waitUntil(() => ctx.reports.some((r) => r.taskId === taskId && r.url.includes(secret)), 10_000);
        const report = ctx.reports.find((r) => r.taskId === taskId && r.url.includes(secret))!;
        assert.is(report.frame, 'sub', secret);
        assert.is(report.error.details?.reason, 'not_allowlisted');
      }
      assert.not.ok(
        ctx.blockedLog.some((line) => /\/secret-(static|nested|cross-self)/.test(line)),
        `the blocked host heard nothing: ${JSON.stringify(ctx.blockedLog)}`,
      );
      assert.is(await tabUrl(ctx, tabId), `${ctx.allowedUrl}/cross-frame`, 'the page itself stays');
    },
  );

  s(
    'cost of the guard: time to first byte of an allowed page, task tab (paused + checked) vs a plain tab',
    async (ctx) => {
      const ROUNDS = 12;
      const ttfb = (page: import('playwright-core').Page) =>
        page.evaluate(
          () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart,
        );
      const { taskId, tabId } = await startOn(ctx, '/landing?warm=1');
      await act(ctx, taskId, 'browser_wait_for_loaded', { tabId });
      const plain = await ctx.browser.context.newPage();
      const guarded: number[] = [];
      const unguarded: number[] = [];
      try {
        for (let i = 0; i < ROUNDS; i += 1) {
          const url = `${ctx.allowedUrl}/landing?round=${i}`;
          const moved = await act(ctx, taskId, 'task_start', { url, reuseExistingTab: true });
          assert.is(moved.status, 'succeeded', JSON.stringify(moved.error));
          await waitUntil(() => ctx.browser.context.pages().some((p) => p.url() === url), 10_000);
          const taskPage = ctx.browser.context.pages().find((p) => p.url() === url)!;
          await taskPage.waitForLoadState('load');
          guarded.push(await ttfb(taskPage));
          await plain.goto(`${url}&plain=1`);
          unguarded.push(await ttfb(plain));
        }
      } finally {
        await plain.close();
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      console.log(
        `  TTFB median over ${ROUNDS}: task tab ${median(guarded).toFixed(1)} ms, plain tab ${median(unguarded).toFixed(1)} ms (ratio ${(median(guarded) / median(unguarded)).toFixed(2)})`,
      );
      assert.ok(guarded.every((t) => t > 0) && unguarded.every((t) => t > 0));
    },
  );

  s('the blocked host never received a request for any of those pages', async (ctx) => {
    assert.equal(
      ctx.blockedLog.filter((line) => !line.endsWith('/health')),
      [],
      ctx.blockedLog.join('\n'),
    );
    assert.ok(ctx.runtime.logs.some((entry) => entry.event === 'navigation_blocked'));
  });
  return s;
}

guardSuite('playwright').run();
guardSuite('realistic').run();
