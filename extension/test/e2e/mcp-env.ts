// One end-to-end environment for browser-shell on real pages: the real runtime (createServer
// with the /mcp routes), the freshly built extension in a plain Chromium (the realistic mode:
// no Playwright page emulation, task tabs truly in the background), configured through its
// options page, the official MCP SDK client, and the corpus served on 127.0.0.1 (the URL policy
// lifts loopback explicitly). Playwright only reads the pages' real state.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { suite, type uvu } from 'uvu';
import { ulid } from 'ulid';
import { createMcpRoutes, createMemoryRunStore, type McpRoutes } from '../../../runtime/mcp/index.ts';
import { startRuntime, type TestRuntime } from '../../../runtime/test/util.ts';
import { createSystemResolver, createUrlPolicy, parseUrlPolicyConfig } from '../../../runtime/url-policy/index.ts';
import { buildExtension } from '../../build.ts';
import { launchRealistic, type RealisticBrowser } from '../harness/chromium.ts';
import { serveCorpus, type CorpusSite } from './corpus-site.ts';
import { armWatchdog, configureThroughOptionsPage } from './e2e-util.ts';

export interface ShellReplyData {
  exit_code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed (it is always JSON when present). */
  data: any;
}

export interface McpEnv {
  corpus: CorpusSite;
  runtime: TestRuntime;
  routes: McpRoutes;
  browser: RealisticBrowser;
  client: Client;
  shell(sessionId: string, argv: unknown[]): Promise<ShellReplyData>;
  /** Like shell, but fails with the stderr unless the exit code is 0. */
  ok(sessionId: string, argv: unknown[]): Promise<any>;
  /** The Playwright page of the task tab showing `urlPart` (to read its real state). */
  pageOf(urlPart: string, timeoutMs?: number): Promise<Page>;
  /** URLs of the active tab of every window, as the browser sees them. */
  activeUrls(): Promise<string[]>;
  close(): Promise<void>;
}

export async function until<T>(read: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface McpEnvOptions {
  /** The URL policy's config (default: loopback lifted, every host allowed). */
  policy?: unknown;
}

export async function startMcpEnv(options: McpEnvOptions = {}): Promise<McpEnv> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-corpus-'));
    cleanups.push(() => rm(outDir, { recursive: true, force: true }));
    await buildExtension({ outDir });
    const corpus = await serveCorpus();
    cleanups.push(() => corpus.close());
    const token = `tok-${ulid()}`;
    const policy = parseUrlPolicyConfig(
      options.policy ?? { open: { allow_private_networks: ['loopback'] } },
      'e2e-policy.json',
    );
    if (!policy.ok) throw new Error(policy.errors.join('; '));
    let routes!: McpRoutes;
    // One policy for MCP's own checks and the browser's navigation checks, as in runtime/app.ts.
    const urlPolicy = createUrlPolicy({ config: policy.config, resolve: createSystemResolver() });
    const runtime = await startRuntime({
      config: { token },
      checkNavigation: (url) => urlPolicy.check(url),
      routes: (services) =>
        (routes = createMcpRoutes(services, {
          urlPolicy,
          runStore: createMemoryRunStore(),
          consequentialSteps: 'allow',
        })),
    });
    cleanups.push(() => runtime.close());
    cleanups.push(() => routes.mcp.close());
    const browser = await launchRealistic(outDir);
    cleanups.push(() => browser.close());
    const worker =
      browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await browser.context.waitForEvent('serviceworker', { timeout: 15_000 }));
    await configureThroughOptionsPage(browser.context, new URL(worker.url()).host, runtime.server.url, token);
    await until(() => runtime.server.registry.list().some((e) => e.socketConnected), 'the extension to connect');
    const client = new Client({ name: 'mimo-e2e-corpus', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${runtime.server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    cleanups.push(() => client.close());

    const shell = async (sessionId: string, argv: unknown[]): Promise<ShellReplyData> => {
      const result = await client.callTool(
        { name: 'browser-shell', arguments: { session_id: sessionId, argv, timeout_sec: 60 } },
        undefined,
        { timeout: 90_000 },
      );
      const reply = JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
      return { ...reply, data: reply.stdout ? JSON.parse(reply.stdout) : undefined };
    };
    return {
      corpus,
      runtime,
      routes,
      browser,
      client,
      shell,
      async ok(sessionId, argv) {
        const reply = await shell(sessionId, argv);
        if (reply.exit_code !== 0)
          throw new Error(`${JSON.stringify(argv)} exited ${reply.exit_code}: ${reply.stderr}`);
        return reply.data;
      },
      pageOf: (urlPart, timeoutMs = 5_000) =>
        until(
          () => browser.context.pages().find((p) => p.url().includes(urlPart)),
          `a tab showing ${urlPart}`,
          timeoutMs,
        ) as Promise<Page>,
      async activeUrls() {
        const sw = browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'))!;
        return sw.evaluate(() =>
          (globalThis as any).chrome.tabs.query({ active: true }).then((tabs: any[]) => tabs.map((t) => t.url ?? '')),
        );
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The ref (`@e12`) of the first element of a snapshot whose entry matches. */
export function refWhere(snapshot: { refs: Record<string, any> }, pred: (entry: any) => boolean, what: string): string {
  const found = Object.entries(snapshot.refs).find(([, entry]) => pred(entry));
  if (!found) throw new Error(`no ref for ${what} in:\n${JSON.stringify(snapshot.refs, null, 1).slice(0, 3000)}`);
  return `@${found[0]}`;
}

/**
 * A uvu suite with one browser-shell environment for all its tests: started before them (a setup
 * failure is printed, since uvu drops errors thrown by hooks), closed after, and a watchdog that
 * ends the file if it hangs.
 */
export function mcpSuite(title: string, file: string, watchdogMs = 240_000): uvu.Test<{ env: McpEnv }> {
  const disarm = armWatchdog(watchdogMs, file);
  const s = suite<{ env: McpEnv }>(title);
  s.before(async (ctx) => {
    try {
      ctx.env = await startMcpEnv();
    } catch (error) {
      console.error('setup failed:', error);
      throw error;
    }
  });
  s.after(async (ctx) => {
    await ctx.env?.close();
    disarm();
  });
  return s;
}
