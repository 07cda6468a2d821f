// Shared setup of the MCP tests: a runtime (startRuntime) with the MCP routes, the fake plugin
// answering from a fake browser, and the official MCP SDK client over Streamable HTTP.
import type { Clock } from '../../clock/index.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFakePlugin, type FakePlugin } from '../../test-util/fake-plugin.ts';
import { startRuntime, type TestRuntime } from '../../test/util.ts';
import type { MimoConfig } from '../../config.ts';
import { createUrlPolicy, parseUrlPolicyConfig, type HostResolver, type UrlPolicy } from '../../url-policy/index.ts';
import { createMcpRoutes, type McpRoutes, type McpRoutesOptions } from '../index.ts';
import { createMemoryRunStore } from '../runs/run-store.ts';
import { createFakeBrowser, type FakeBrowser, type FakePage } from './fake-browser.ts';

/** Test DNS: *.test and example.* names resolve to public documentation-free addresses. */
export const testResolver: HostResolver = async (host) => {
  if (host === 'private.test') return [{ address: '10.1.2.3', family: 4 }];
  if (host.endsWith('.test') || host.startsWith('example.') || host.endsWith('.example.com'))
    return [{ address: '93.184.215.14', family: 4 }];
  throw Object.assign(new Error(`unknown host ${host}`), { code: 'ENOTFOUND' });
};

export function testPolicy(open: Record<string, unknown> = { allow_private_networks: ['loopback'] }): UrlPolicy {
  const parsed = parseUrlPolicyConfig({ open }, 'test-policy.json');
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return createUrlPolicy({ config: parsed.config, resolve: testResolver });
}

export interface McpHarness {
  runtime: TestRuntime;
  routes: McpRoutes;
  browser: FakeBrowser;
  plugin: FakePlugin | null;
  client: Client;
  /** tools/call; returns the raw result. */
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: Parameters<Client['callTool']>[2],
  ): Promise<CallToolResult>;
  /** tools/call expecting success: the structured content. */
  ok(name: string, args?: Record<string, unknown>): Promise<any>;
  /** tools/call expecting a tool error: the parsed JSON of content[0].text. */
  fail(name: string, args?: Record<string, unknown>): Promise<any>;
  /** browser-shell: the parsed reply dict. */
  shell(
    sessionId: string,
    argv: unknown[],
    extra?: Record<string, unknown>,
  ): Promise<{ session_id: string; exit_code: number; stdout: string; stderr: string; isError: boolean; data: any }>;
  /**
   * browser-shell for a command that waits on the runtime's simulated clock (`wait`, a read that
   * polls): moves the clock 500 ms at a time, letting I/O run in between, until the call answers
   * (at most 50 steps).
   */
  shellOnClock(sessionId: string, argv: unknown[], extra?: Record<string, unknown>): ReturnType<McpHarness['shell']>;
  connectClient(headers?: Record<string, string>): Promise<Client>;
  close(): Promise<void>;
}

export async function startMcp(
  options: {
    pages?: Record<string, FakePage>;
    policy?: UrlPolicy;
    routes?: Partial<McpRoutesOptions>;
    config?: Partial<MimoConfig>;
    plugin?: boolean;
    dir?: string;
    clock?: Clock;
    /** More createServer options (recorder, secrets). */
    server?: Pick<
      import('../../server.ts').CreateServerOptions,
      'recorder' | 'secrets' | 'cluster' | 'control' | 'inspectFor'
    >;
  } = {},
): Promise<McpHarness> {
  const browser = createFakeBrowser(options.pages ?? {});
  let routes!: McpRoutes;
  const runtime = await startRuntime({
    ...(options.config ? { config: options.config } : {}),
    ...(options.dir ? { dir: options.dir } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...options.server,
    routes: (services) =>
      (routes = createMcpRoutes(services, {
        urlPolicy: options.policy ?? testPolicy(),
        runStore: createMemoryRunStore(),
        ...options.routes,
      } as McpRoutesOptions)),
  });
  const plugin =
    options.plugin === false
      ? null
      : await startFakePlugin({
          url: runtime.server.url,
          clientId: 'plugin-mcp',
          answer: browser.answer,
          ...(options.config?.token ? { token: options.config.token } : {}),
        });
  if (plugin) browser.emit = (message) => plugin.send(message);
  const clients: Client[] = [];

  async function connectClient(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'mimo-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${runtime.server.url}/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  }
  const token = options.config?.token;
  const client = await connectClient(token ? { Authorization: `Bearer ${token}` } : {});

  const call = (name: string, args: Record<string, unknown> = {}, callOptions?: Parameters<Client['callTool']>[2]) =>
    client.callTool({ name, arguments: args }, undefined, callOptions) as Promise<CallToolResult>;
  const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;

  const shell: McpHarness['shell'] = async (sessionId, argv, extra = {}) => {
    const result = await call('browser-shell', { session_id: sessionId, argv, ...extra });
    const reply = JSON.parse(textOf(result));
    const data = reply.stdout && reply.exit_code === 0 ? JSON.parse(reply.stdout) : undefined;
    return { ...reply, isError: result.isError === true, data };
  };
  return {
    runtime,
    routes,
    browser,
    plugin,
    client,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      if (JSON.stringify(result.structuredContent) !== textOf(result))
        throw new Error(`${name}: text and structuredContent differ`);
      return result.structuredContent;
    },
    async fail(name, args) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} was expected to fail: ${textOf(result)}`);
      return JSON.parse(textOf(result));
    },
    shell,
    async shellOnClock(sessionId, argv, extra = {}) {
      let settled = false;
      const answer = shell(sessionId, argv, extra).finally(() => (settled = true));
      for (let i = 0; i < 50 && !settled; i++) {
        await new Promise((r) => setTimeout(r, 10));
        runtime.clock.increment(500);
      }
      return answer;
    },
    connectClient,
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      await routes.mcp.close();
      plugin?.close();
      await runtime.close();
    },
  };
}

/** Polls get_task_run until the run is terminal (the runtime settles on its own; this only waits). */
export async function waitForRun(h: McpHarness, runId: string, timeoutMs = 5000): Promise<any> {
  const started = Date.now();
  for (;;) {
    const run = await h.ok('get_task_run', { runId });
    if (['succeeded', 'failed', 'partial_success', 'canceled'].includes(run.status)) return run;
    if (Date.now() - started > timeoutMs) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A gate tests open when they want a held page to answer. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
