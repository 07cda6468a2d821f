// The cluster with the real extension: Debian's Chromium with the built extension connected to
// node B, the web client on node A, three node processes on one PostgreSQL. A task asked on A
// opens a real tab of the fixture site through the extension on B, reads it, and A sees the
// steps and the answer.
import { mkdtemp, rm } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildExtension } from '../../../extension/build.ts';
import { configureThroughOptionsPage } from '../../../extension/test/e2e/e2e-util.ts';
import { launchWithExtension, type LaunchedBrowser } from '../../../extension/test/harness/chromium.ts';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import { completionChunks } from '../../llm/mock-openai-chunks.ts';
import { startMockOpenAiServer, type MockOpenAiServer, type MockRequestInfo } from '../../llm/mock-openai-server.ts';
import { connectWeb, eventually } from '../../test/util.ts';
import {
  authHeaders,
  CLUSTER_TOKEN,
  startClusterHarness,
  type ClusterHarness,
  type NodeProcess,
} from './cluster-harness.ts';

const TASK = '01JD0000000000000000000F01';

interface Ctx {
  site: FixtureSite;
  llm: MockOpenAiServer;
  h: ClusterHarness;
  nodes: NodeProcess[];
  browser: LaunchedBrowser;
  outDir: string;
}

const test = suite<Ctx>('cluster with the real extension in Chromium');

test.before(async (ctx) => {
  ctx.site = await serveFixtureSite();
  const article = `${ctx.site.url}/article.html`;
  ctx.llm = await startMockOpenAiServer({
    script: ({ body }: MockRequestInfo) => {
      const messages = body.messages as Array<{ role: string; content: unknown }>;
      const tools = messages.filter((m) => m.role === 'tool');
      if (tools.length === 0)
        return completionChunks({
          toolCalls: [{ id: 'call-open', name: 'browser_open', arguments: JSON.stringify({ url: article }) }],
        });
      const read = String(tools[0]!.content);
      return completionChunks({
        text: read.includes('Teapot')
          ? 'The page is about the history of the teapot.'
          : `I could not read it: ${read.slice(0, 200)}`,
      });
    },
  });
  ctx.h = await startClusterHarness({ OPENAI_BASE_URL: ctx.llm.url, OPENAI_API_KEY: 'test-key', MIMO_MODEL: 'mock' });
  ctx.nodes = await Promise.all(['chr-a', 'chr-b', 'chr-c'].map((n) => ctx.h.startNode(n)));
  ctx.outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-build-'));
  await buildExtension({ outDir: ctx.outDir });
  ctx.browser = await launchWithExtension(ctx.outDir);
  await configureThroughOptionsPage(ctx.browser.context, ctx.browser.extensionId, ctx.nodes[1]!.url, CLUSTER_TOKEN);
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.h?.close();
  await ctx.llm?.close();
  await ctx.site?.close();
  if (ctx.outDir) await rm(ctx.outDir, { recursive: true, force: true });
});

test('a task asked on node A runs in a real tab through the extension connected to node B', async (ctx) => {
  const [a] = ctx.nodes as [NodeProcess, NodeProcess, NodeProcess];
  await eventually(
    async () => {
      const body = (await (await fetch(`${a.url}/api/extension/extension-list`, { headers: authHeaders })).json()) as {
        data: Array<{ socketConnected: boolean }>;
      };
      return body.data.some((e) => e.socketConnected);
    },
    20_000,
    'node A to see the extension connected to node B',
  );
  const web = await connectWeb(a.url, { token: CLUSTER_TOKEN });
  const ack = await web.timeout(10_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-chr',
    timestamp: Date.now(),
    taskId: TASK,
    content: `Summarise the article at ${ctx.site.url}/article.html`,
  });
  assert.is(ack.ok, true);
  const ofTask = () => web.events.filter((e) => e.taskId === TASK);
  await eventually(
    () => ofTask().some((e) => e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
    30_000,
    'the turn to end',
  );
  const text = ofTask()
    .filter((e) => e.event.type === 'chatDelta')
    .map((e) => e.event.delta?.content ?? '')
    .join('');
  assert.is(text, 'The page is about the history of the teapot.');
  const steps = ofTask()
    .filter((e) => e.event.type === 'toolUsed' && e.event.phase === 'success')
    .map((e) => e.event.actionName);
  assert.ok(steps.includes('task_start') && steps.includes('browser_readability_extract'), steps.join(' '));
  assert.ok(
    ctx.browser.context.pages().some((p) => p.url().includes('/article.html')),
    'a real tab shows the article',
  );
  web.close();
});

test('an MCP client on node C runs a template through the extension on node B', async (ctx) => {
  const c = ctx.nodes[2]!;
  const mcp = new Client({ name: 'cluster-chromium', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${c.url}/mcp`), { requestInit: { headers: authHeaders } }),
  );
  const urls = ['/article.html', '/products.html'].map((p) => ctx.site.url + p);
  const result = await mcp.callTool(
    {
      name: 'run_task_template',
      arguments: {
        templateId: 'batch_extract_pages',
        templateVersion: '1.0.0',
        inputs: { urls },
        options: { mode: 'sync' },
      },
    },
    undefined,
    { timeout: 120_000 },
  );
  assert.not.ok(result.isError, JSON.stringify(result.content).slice(0, 500));
  const run = result.structuredContent as any;
  assert.is(run.status, 'succeeded', JSON.stringify(run).slice(0, 800));
  assert.equal(
    run.result.items.map((i: any) => i.title),
    ['A Short History of the Teapot', 'Products'],
  );
  // The run is durable in PostgreSQL (any node reads it after a restart).
  const db = new pg.Client({ connectionString: ctx.h.databaseUrl });
  await db.connect();
  await eventually(
    async () =>
      (await db.query(`SELECT record->>'status' AS status FROM mimo_mcp_runs WHERE run_id = $1`, [run.runId])).rows[0]
        ?.status === 'succeeded',
    5_000,
    'the run row',
  );
  await db.end();
  await mcp.close();
});

test.run();
