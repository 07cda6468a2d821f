// One MCP template through the real extension in Chromium: the real runtime (createServer) with
// the /mcp routes, the freshly built extension configured through its options page, and the
// official MCP SDK client running batch_extract_pages on fixtures/site (served on 127.0.0.1, so
// the URL policy lifts loopback explicitly, as the demo does). Then browser-shell on the form.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ulid } from 'ulid';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import { createMcpRoutes, createMemoryRunStore, type McpRoutes } from '../../../runtime/mcp/index.ts';
import { startRuntime, type TestRuntime } from '../../../runtime/test/util.ts';
import { createSystemResolver, createUrlPolicy, parseUrlPolicyConfig } from '../../../runtime/url-policy/index.ts';
import { buildExtension } from '../../build.ts';
import { launchRealistic, type RealisticBrowser } from '../harness/chromium.ts';
import { armWatchdog, configureThroughOptionsPage } from './e2e-util.ts';

const disarm = armWatchdog(180_000, 'mcp-template.test');

interface Ctx {
  outDir: string;
  site: FixtureSite;
  runtime: TestRuntime;
  routes: McpRoutes;
  browser: RealisticBrowser;
  client: Client;
}

const s = suite<Ctx>('MCP template through the real extension in Chromium');

async function until<T>(read: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

s.before(async (ctx) => {
  try {
    await setUp(ctx);
  } catch (error) {
    console.error('setup failed:', error, JSON.stringify(ctx.runtime?.logs.slice(-20), null, 1)); // uvu drops errors thrown by hooks
    throw error;
  }
});

async function setUp(ctx: Ctx): Promise<void> {
  ctx.outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-mcp-'));
  await buildExtension({ outDir: ctx.outDir });
  ctx.site = await serveFixtureSite();
  const token = `tok-${ulid()}`;
  const policy = parseUrlPolicyConfig({ open: { allow_private_networks: ['loopback'] } }, 'e2e-policy.json');
  if (!policy.ok) throw new Error(policy.errors.join('; '));
  ctx.runtime = await startRuntime({
    config: { token },
    routes: (services) =>
      (ctx.routes = createMcpRoutes(services, {
        urlPolicy: createUrlPolicy({ config: policy.config, resolve: createSystemResolver() }),
        runStore: createMemoryRunStore(),
        consequentialSteps: 'allow',
      })),
  });
  ctx.browser = await launchRealistic(ctx.outDir);
  const worker =
    ctx.browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await ctx.browser.context.waitForEvent('serviceworker', { timeout: 15_000 }));
  await configureThroughOptionsPage(ctx.browser.context, new URL(worker.url()).host, ctx.runtime.server.url, token);
  await until(() => ctx.runtime.server.registry.list().some((e) => e.socketConnected), 'the extension to connect');
  ctx.client = new Client({ name: 'mimo-e2e', version: '0.0.0' });
  await ctx.client.connect(
    new StreamableHTTPClientTransport(new URL(`${ctx.runtime.server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
}

s.after(async (ctx) => {
  await ctx.client?.close().catch(() => {});
  await ctx.routes?.mcp.close().catch(() => {});
  await ctx.browser?.close();
  await ctx.runtime?.close();
  await ctx.site?.close();
  if (ctx.outDir) await rm(ctx.outDir, { recursive: true, force: true });
  disarm();
});

s('batch_extract_pages reads two fixture pages in background tabs and closes them', async (ctx) => {
  const urls = [`${ctx.site.url}/article.html`, `${ctx.site.url}/products.html`];
  const result = await ctx.client.callTool(
    {
      name: 'run_task_template',
      arguments: { templateId: 'batch_extract_pages', inputs: { urls }, options: { mode: 'sync' } },
    },
    undefined,
    { timeout: 90_000 },
  );
  const run = result.structuredContent as any;
  assert.is(result.isError, undefined, JSON.stringify(result.content));
  assert.is(run.status, 'succeeded', JSON.stringify(run.result ?? run.error));
  assert.equal(run.result.summary, { total: 2, succeeded: 2, failed: 0, skipped: 0 });
  assert.equal(
    run.result.items.map((i: any) => i.title),
    ['A Short History of the Teapot', 'Products'],
  );
  assert.match(run.result.items[0].text, /Yixing/);
  assert.match(run.result.items[1].text, /Brown Betty Teapot/);
  await until(
    () => !ctx.browser.context.pages().some((p) => urls.some((u) => p.url().startsWith(u))),
    'the run tabs to close',
  );
  assert.is(ctx.routes.mcp.budget.inUse(), 0);
});

s('browser-shell: open -> snapshot -i -> fill -> click the submit button -> the result page', async (ctx) => {
  const shell = async (argv: unknown[]) => {
    const result = await ctx.client.callTool(
      { name: 'browser-shell', arguments: { session_id: 'e2e', argv } },
      undefined,
      { timeout: 60_000 },
    );
    const reply = JSON.parse((result.content as any)[0].text);
    assert.is(reply.exit_code, 0, `${JSON.stringify(argv)}: ${reply.stderr}`);
    return JSON.parse(reply.stdout);
  };
  await shell(['open', `${ctx.site.url}/form.html`]);
  const snap = await shell(['snapshot', '-i']);
  const refs = Object.entries(snap.refs as Record<string, any>);
  const ref = (pred: (r: any) => boolean) => `@${refs.find(([, r]) => pred(r))![0]}`;
  const name = ref((r) => r.tag === 'input');
  const send = ref((r) => r.tag === 'button');
  await shell(['fill', name, 'Ada from MCP']);
  await shell(['click', send]);
  const loaded = await until(async () => {
    await shell(['wait', '--load']);
    const page = await shell(['snapshot']);
    return page.title === 'Thank you' ? page : null;
  }, 'the form result page');
  assert.match(loaded.url, /form-result\.html\?name=Ada\+from\+MCP/);
  await shell(['close']);
});

s.run();
