// /mcp over Streamable HTTP with the official SDK client: tools/list per profile, JSON Schemas,
// runtime profile, templates, token auth, origin check, stateless GET, unknown tools.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readMcpProfile } from '../index.ts';
import { startMcp, type McpHarness } from './mcp-harness.ts';

const SEED_003_TOOLS = [
  'list_task_templates',
  'run_task_template',
  'get_task_run',
  'list_task_runs',
  'cancel_task_run',
  'get_artifact',
  'get_runtime_profile',
];

const list = suite<{ h?: McpHarness }>('tools/list');

list.after.each(async (ctx) => {
  await ctx.h?.close();
  ctx.h = undefined;
});

list('full profile: the seven seed 003 tools and browser-shell, each with input and output schemas', async (ctx) => {
  const h = (ctx.h = await startMcp());
  const { tools } = await h.client.listTools();
  assert.equal(tools.map((t) => t.name).sort(), [...SEED_003_TOOLS, 'browser-shell'].sort());
  for (const tool of tools) {
    assert.is(tool.inputSchema.type, 'object', tool.name);
    assert.is(tool.outputSchema?.type, 'object', tool.name);
    assert.ok((tool.description ?? '').length > 20, tool.name);
  }
  const shell = tools.find((t) => t.name === 'browser-shell')!;
  assert.equal(shell.inputSchema.required, ['session_id', 'argv']);
  assert.equal(Object.keys(shell.outputSchema!.properties as object).sort(), [
    'exit_code',
    'session_id',
    'stderr',
    'stdout',
  ]);
  assert.is(shell.inputSchema.additionalProperties, false);
});

list(
  'minimal profile (MIMO_MCP_PROFILE=minimal): exactly one tool, browser-shell; the others cannot be called',
  async (ctx) => {
    const h = (ctx.h = await startMcp({ routes: { profile: 'minimal' } }));
    const { tools } = await h.client.listTools();
    assert.equal(
      tools.map((t) => t.name),
      ['browser-shell'],
    );
    try {
      await h.client.callTool({ name: 'list_task_templates', arguments: {} });
      assert.unreachable('a hidden tool answered');
    } catch (error) {
      assert.match(String(error), /unknown tool "list_task_templates"/);
    }
  },
);

list('readMcpProfile reads the env value', () => {
  assert.equal(readMcpProfile(undefined), { ok: true, profile: 'full' });
  assert.equal(readMcpProfile('Minimal'), { ok: true, profile: 'minimal' });
  assert.not.ok(readMcpProfile('tiny').ok);
});

const info = suite<{ h?: McpHarness }>('catalog and profile');

info.before(async (ctx) => {
  ctx.h = await startMcp();
});
info.after(async (ctx) => {
  await ctx.h?.close();
});

info(
  'list_task_templates: three templates with versions, trust levels, limits, partial-success flags and schemas',
  async (ctx) => {
    const { templates } = await ctx.h!.ok('list_task_templates');
    const byId = Object.fromEntries(templates.map((t: any) => [t.templateId, t]));
    assert.equal(Object.keys(byId).sort(), ['batch_extract_pages', 'login_keep_session', 'multi_tab_compare']);
    assert.equal(byId.batch_extract_pages.trustLevelSupport, ['local', 'remote']);
    assert.is(byId.batch_extract_pages.supportsPartialSuccess, true);
    assert.is(byId.batch_extract_pages.limits.maxUrls, 1000);
    assert.is(byId.batch_extract_pages.limits.maxConcurrency, 5);
    assert.is(byId.multi_tab_compare.supportsPartialSuccess, true);
    assert.is(byId.login_keep_session.supportsPartialSuccess, false);
    assert.equal(byId.login_keep_session.trustLevelSupport, ['local']);
    for (const t of templates) {
      assert.match(t.version, /^\d+\.\d+\.\d+$/);
      assert.is(t.inputsSchema.type, 'object');
      assert.is(t.outputsSchema.type, 'object');
    }
    assert.ok(byId.batch_extract_pages.inputsSchema.required.includes('urls'));
  },
);

info(
  'get_runtime_profile: version, limits (5 runs, 900 s, 256 KB, 20/50 tabs), trust level and the URL policy in force',
  async (ctx) => {
    const profile = await ctx.h!.ok('get_runtime_profile');
    assert.is(profile.runtimeVersion, '0.2.1');
    assert.equal(profile.limits, {
      maxConcurrentRuns: 5,
      maxRunTimeoutMs: 900000,
      maxArtifactInlineBytes: 262144,
      maxTabsPerSession: 20,
      maxTabsTotal: 50,
      artifactTtlMs: 86400000,
    });
    assert.is(profile.profile, 'full');
    assert.is(profile.trustLevel, 'local');
    assert.equal(profile.urlPolicy.liftedCategories, ['loopback']);
    assert.match(profile.urlPolicy.summary, /LIFTED by the policy file: loopback/);
  },
);

info('bad arguments come back in the seed 003 error format, not as protocol errors', async (ctx) => {
  const error = await ctx.h!.fail('list_task_runs', { limit: 0, bogus: true });
  assert.is(error.errorCode, 'INVALID_PARAMETER');
  assert.type(error.error, 'string');
  assert.type(error.recoverHint, 'string');
  assert.ok(error.details.issues.length >= 1);
});

info('GET /mcp answers 405 (stateless endpoint), other paths are not MCP', async (ctx) => {
  const url = ctx.h!.runtime.server.url;
  const get = await fetch(`${url}/mcp`, { headers: { Accept: 'text/event-stream' } });
  assert.is(get.status, 405);
  assert.is(get.headers.get('allow'), 'POST');
  const other = await fetch(`${url}/mcpx`);
  assert.is.not(other.status, 405);
});

info('GET /mcp/url-policy says which URL policy is in force (for the web UI)', async (ctx) => {
  const response = await fetch(`${ctx.h!.runtime.server.url}/mcp/url-policy`);
  assert.is(response.status, 200);
  const body = await response.json();
  assert.is(body.profile, 'full');
  assert.is(body.urlPolicy.source, 'test-policy.json');
  assert.equal(body.urlPolicy.liftedCategories, ['loopback']);
  assert.is((await fetch(`${ctx.h!.runtime.server.url}/mcp/url-policy`, { method: 'POST' })).status, 405);
});

info('a browser page from a foreign origin is refused (DNS rebinding protection)', async (ctx) => {
  const response = await fetch(`${ctx.h!.runtime.server.url}/mcp`, {
    method: 'POST',
    headers: {
      Origin: 'http://evil.example',
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.is(response.status, 403);
});

const auth = suite('token auth');

auth('with MIMO_TOKEN set, /mcp needs the bearer token', async () => {
  const h = await startMcp({ config: { token: 'sekret-token' } });
  try {
    const { tools } = await h.client.listTools();
    assert.ok(tools.length === 8);
    const anonymous = new Client({ name: 'anon', version: '0' });
    try {
      await anonymous.connect(new StreamableHTTPClientTransport(new URL(`${h.runtime.server.url}/mcp`)));
      assert.unreachable('connected without a token');
    } catch (error) {
      assert.match(String(error), /401|missing token/);
    }
    const wrong = await fetch(`${h.runtime.server.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.is(wrong.status, 401);
    assert.is((await fetch(`${h.runtime.server.url}/mcp/url-policy`)).status, 401);
    assert.is(
      (await fetch(`${h.runtime.server.url}/mcp/url-policy`, { headers: { 'X-Mimo-Token': 'sekret-token' } })).status,
      200,
    );
  } finally {
    await h.close();
  }
});

list.run();
info.run();
auth.run();
