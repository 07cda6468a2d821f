// Starting Debian Chromium with the unpacked extension, two ways (see
// shared/notes/chromium-extension-testing.md):
// - `launchWithExtension`: playwright-core's launchPersistentContext. Convenient, but Playwright
//   turns on focus emulation in every page it knows, which hides background-tab failures.
// - `launchRealistic`: Chromium spawned plainly with --remote-debugging-port and attached with
//   connectOverCDP(url, { noDefaults: true }), so pages get no Playwright emulation.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Worker } from 'playwright-core';

export const CHROMIUM_PATH = process.env.MIMO_CHROMIUM ?? '/usr/bin/chromium';

export function requireChromium(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" (or set MIMO_CHROMIUM)`,
    );
  }
  return CHROMIUM_PATH;
}

export function chromiumArgs(extensionDir: string): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--silent-debugger-extension-api',
    `--disable-extensions-except=${extensionDir}`,
    `--load-extension=${extensionDir}`,
  ];
}

export interface LaunchedBrowser {
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  close(): Promise<void>;
}

async function extensionWorker(context: BrowserContext, timeoutMs: number): Promise<Worker> {
  const existing = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
  return existing ?? (await context.waitForEvent('serviceworker', { timeout: timeoutMs }));
}

export async function launchWithExtension(
  extensionDir: string,
  options: { timeoutMs?: number } = {},
): Promise<LaunchedBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mimo-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: requireChromium(),
    headless: true,
    args: [...chromiumArgs(extensionDir), '--headless=new'],
    ignoreDefaultArgs: ['--disable-extensions'],
    timeout: options.timeoutMs ?? 30_000,
  });
  try {
    const serviceWorker = await extensionWorker(context, options.timeoutMs ?? 15_000);
    return {
      context,
      serviceWorker,
      extensionId: new URL(serviceWorker.url()).host,
      async close() {
        await context.close().catch(() => {});
        await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      },
    };
  } catch (error) {
    await context.close().catch(() => {});
    await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
}

export interface RealisticBrowser {
  browser: Browser;
  context: BrowserContext;
  process: ChildProcess;
  close(): Promise<void>;
}

/** The browser's DevTools WebSocket URL, read off Chromium's stderr (`--remote-debugging-port=0`). */
export function devtoolsUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no DevTools URL from Chromium within ${timeoutMs} ms:\n${seen.slice(-2000)}`)),
      timeoutMs,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before DevTools was ready:\n${seen.slice(-2000)}`));
    });
  });
}

/**
 * Plain Chromium (headless=new) with the extension; Playwright attaches without page defaults.
 * `display` runs it headed on that X display instead (see headed-display.ts).
 */
/**
 * Ties a spawned Chromium to this test process: it is killed if the process exits first, and the
 * returned stop() ends it (SIGTERM, SIGKILL after 3 s) and removes its profile folder.
 */
export function ownChromium(child: ChildProcess, userDataDir: string): () => Promise<void> {
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
  };
}

export async function launchRealistic(
  extensionDir: string,
  options: { timeoutMs?: number; display?: string; startUrl?: string } = {},
): Promise<RealisticBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mimo-chromium-real-'));
  const mode = options.display === undefined ? ['--headless=new'] : ['--window-position=0,0', '--window-size=1200,850'];
  const child = spawn(
    requireChromium(),
    [
      ...chromiumArgs(extensionDir),
      ...mode,
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      options.startUrl ?? 'about:blank',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: options.display === undefined ? process.env : { ...process.env, DISPLAY: options.display },
    },
  );
  const cleanup = ownChromium(child, userDataDir);
  try {
    const wsUrl = await devtoolsUrl(child, options.timeoutMs ?? 20_000);
    const browser = await chromium.connectOverCDP(wsUrl, { noDefaults: true, timeout: options.timeoutMs ?? 20_000 });
    const context = browser.contexts()[0]!;
    return {
      browser,
      context,
      process: child,
      async close() {
        await browser.close().catch(() => {});
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
