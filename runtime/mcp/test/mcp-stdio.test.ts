// `mimo mcp` over stdio, driven by the official MCP SDK's stdio client (the way Claude Desktop,
// Cursor and VS Code launch it): the same tools as /mcp, browser-shell commands reaching the
// browser, a refused token and a missing server said on stderr with exit 1, and a server started
// by the command itself when none is running.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startMcp, type McpHarness } from './mcp-harness.ts';

const root = new URL('../../../', import.meta.url).pathname;
const bin = join(root, 'bin', 'mimo.mjs');
const TOKEN = 'stdio-test-token-0123456789';

async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'stdio-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => resolve({ code, stderr, stdout }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const bridge = suite<{ h?: McpHarness; client?: Client }>('mimo mcp: bridged to a running server');

bridge.after.each(async (ctx) => {
  await ctx.client?.close();
  await ctx.h?.close();
  ctx.client = undefined;
  ctx.h = undefined;
});

bridge('lists exactly the tools /mcp lists, and browser-shell drives the browser through it', async (ctx) => {
  const h = (ctx.h = await startMcp({
    config: { token: TOKEN },
    pages: { 'https://a.test/': { title: 'Page A', text: 'Hello from A' } },
  }));
  const { client } = await stdioClient({ MIMO_URL: h.runtime.server.url, MIMO_TOKEN: TOKEN });
  ctx.client = client;
  const viaStdio = (await client.listTools()).tools.map((t) => t.name).sort();
  const viaHttp = (await h.client.listTools()).tools.map((t) => t.name).sort();
  assert.equal(viaStdio, viaHttp);
  assert.ok(viaStdio.includes('browser-shell'));
  const opened = (await client.callTool({
    name: 'browser-shell',
    arguments: { session_id: 'stdio-1', argv: ['open', 'https://a.test/'] },
  })) as { content: { text: string }[]; isError?: boolean };
  const reply = JSON.parse(opened.content[0]!.text);
  assert.is(reply.exit_code, 0, opened.content[0]!.text);
  assert.ok(
    [...h.browser.tabs.values()].some((tab) => tab.url === 'https://a.test/'),
    'the fake browser opened the page',
  );
  assert.ok(h.browser.actions.length > 0, 'actions reached the plugin');
});

bridge('a refused token: exit 1, and stderr says what to set; stdout stays clean', async (ctx) => {
  const h = (ctx.h = await startMcp({ config: { token: TOKEN }, plugin: false }));
  const result = await runToExit({ MIMO_URL: h.runtime.server.url, MIMO_TOKEN: 'wrong-token-wrong-token' });
  assert.is(result.code, 1);
  assert.match(result.stderr, /HTTP 401: the token was refused/);
  assert.is(result.stdout, '');
});

bridge('no server and MIMO_MCP_NO_START=1: exit 1 with a hint', async () => {
  const port = await freePort();
  const result = await runToExit({ MIMO_URL: `http://127.0.0.1:${port}`, MIMO_TOKEN: TOKEN, MIMO_MCP_NO_START: '1' });
  assert.is(result.code, 1);
  assert.match(result.stderr, /no Mimo server at http:\/\/127\.0\.0\.1:\d+ .*npm start/);
});

const own = suite<{ dir?: string; client?: Client }>('mimo mcp: starts a server when none runs');

own.after.each(async (ctx) => {
  await ctx.client?.close();
  if (ctx.dir) await rm(ctx.dir, { recursive: true, force: true });
});

own('with no server on MIMO_PORT it starts one in-process and serves its tools over stdio', async (ctx) => {
  const dir = (ctx.dir = await mkdtemp(join(tmpdir(), 'mimo-stdio-')));
  const port = await freePort();
  const { client, stderr } = await stdioClient({ MIMO_PORT: String(port), MIMO_DATA_DIR: dir, MIMO_RECORD_DIR: '' });
  ctx.client = client;
  const names = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes('browser-shell'), names.join(','));
  assert.match(stderr(), new RegExp(`started a Mimo server at http://[^ ]+:${port}`));
  const profile = (await client.callTool({ name: 'get_runtime_profile', arguments: {} })) as { isError?: boolean };
  assert.not.ok(profile.isError);
});

bridge.run();
own.run();
