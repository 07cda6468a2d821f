// Shared helpers of the end-to-end tests: one environment per test file (fixture site, harness
// server, freshly built extension, Chromium in one of the two modes), configured through the
// real options page, plus small readers for the browser's own view of tabs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { buildExtension } from '../../build.ts';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import { createActionDriver, type ActionDriver } from '../harness/action-driver.ts';
import { launchRealistic, launchWithExtension } from '../harness/chromium.ts';
import { startHarness, type Harness } from '../harness/harness-server.ts';

export interface E2eEnv {
  mode: 'playwright' | 'realistic';
  site: FixtureSite;
  harness: Harness;
  context: BrowserContext;
  serviceWorker(): Promise<Worker>;
  extensionId: string;
  clientId: string;
  driver: ActionDriver;
  /** A driver for another task on the same plugin. */
  newDriver(): ActionDriver;
  close(): Promise<void>;
}

/**
 * Evaluates `fn` in the extension's service worker (through CDP, so the extension's CSP does not
 * apply). `fn` is serialised: it reaches the extension API as `(globalThis as any).chrome`.
 */
export async function inWorker<T, A>(env: E2eEnv, fn: (arg: A) => Promise<T> | T, arg: A): Promise<T> {
  const worker = await env.serviceWorker();
  return (worker.evaluate as (f: unknown, a: unknown) => Promise<T>).call(worker, fn, arg);
}

/** The options page's idle timings (seconds after a task's last action). */
export interface IdleSeconds {
  debugger: number;
  groupCollapse: number;
}

export async function configureThroughOptionsPage(
  context: BrowserContext,
  extensionId: string,
  serverUrl: string,
  token: string,
  idle?: IdleSeconds,
): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    await page.fill('#serverUrl', serverUrl);
    await page.fill('#token', token);
    if (idle) {
      await page.fill('#debuggerIdleSeconds', String(idle.debugger));
      await page.fill('#groupCollapseSeconds', String(idle.groupCollapse));
    }
    await page.click('button[type=submit]');
    await page.waitForSelector('#saved:has-text("Saved.")', { timeout: 5_000 });
  } finally {
    await page.close();
  }
}

export async function startE2eEnv(
  mode: E2eEnv['mode'],
  options: { pingInterval?: number; idle?: IdleSeconds } = {},
): Promise<E2eEnv> {
  const outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-'));
  const cleanups: Array<() => Promise<unknown>> = [() => rm(outDir, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    await buildExtension({ outDir });
    const site = await serveFixtureSite();
    cleanups.push(() => site.close());
    const harness = await startHarness(
      options.pingInterval === undefined ? {} : { pingInterval: options.pingInterval },
    );
    cleanups.push(() => harness.close());

    let context: BrowserContext;
    let extensionId: string;
    if (mode === 'playwright') {
      const launched = await launchWithExtension(outDir);
      cleanups.push(() => launched.close());
      context = launched.context;
      extensionId = launched.extensionId;
    } else {
      const launched = await launchRealistic(outDir);
      cleanups.push(() => launched.close());
      context = launched.context;
      const worker =
        context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
        (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
      extensionId = new URL(worker.url()).host;
    }
    const serviceWorker = async (): Promise<Worker> =>
      context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${extensionId}/`)) ??
      (await context.waitForEvent('serviceworker', { timeout: 15_000 }));

    await configureThroughOptionsPage(context, extensionId, harness.url, harness.token, options.idle);
    const clientId = await harness.waitForPlugin(15_000);
    const driver = createActionDriver(harness, clientId);
    return {
      mode,
      site,
      harness,
      context,
      serviceWorker,
      extensionId,
      clientId,
      driver,
      newDriver: () => createActionDriver(harness, clientId),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function tabInfo(
  env: E2eEnv,
  tabId: number,
): Promise<{ active: boolean; url?: string; groupId: number; title?: string } | null> {
  return inWorker(
    env,
    (id: number) =>
      (globalThis as any).chrome.tabs.get(id).then(
        (t: any) => ({ active: t.active, url: t.url, groupId: t.groupId, title: t.title }),
        () => null,
      ),
    tabId,
  );
}

/** The Playwright page of a tab the extension opened, found by URL. */
export async function pageOf(env: E2eEnv, urlPart: string, timeoutMs = 5_000): Promise<Page> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = env.context.pages().find((p) => p.url().includes(urlPart));
    if (page) return page;
    if (Date.now() > deadline)
      throw new Error(
        `no page with ${urlPart} among ${env.context
          .pages()
          .map((p) => p.url())
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Starts a task on `path` of the fixture site (or of `site`) and waits for it to load; returns the tab id. */
export async function startTask(
  env: E2eEnv,
  driver: ActionDriver,
  path: string,
  site: { url: string } = env.site,
): Promise<number> {
  const started = await driver.send('task_start', { url: site.url + path });
  if (started.result.status !== 'success') throw new Error(`task_start failed: ${JSON.stringify(started.result)}`);
  const tabId = started.result.result!.tabId as number;
  const loaded = await driver.send('browser_wait_for_loaded', { tabId });
  if (loaded.result.status !== 'success') throw new Error(`wait_for_loaded failed: ${JSON.stringify(loaded.result)}`);
  return tabId;
}

export async function download(url: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

/** Bounds a test file in time: a hung browser fails the file instead of stalling the run. */
export function armWatchdog(ms: number, name: string): () => void {
  const timer = setTimeout(() => {
    console.error(`[${name}] watchdog: still running after ${ms} ms, exiting`);
    process.exit(1);
  }, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
