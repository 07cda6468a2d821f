// The page agent over CDP for the parked about:blank (page-agent-cdp.ts) and its place in the
// page-agent client: executeScript first; only when Chrome refuses it and the tab is an attached
// about:blank does the CDP path run the built agent in an isolated world. The real refusal and
// the real read are proven in e2e/blocked-navigation.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BrowserApi } from '../shared/browser-api.ts';
import type { CdpSessions } from '../background/cdp-sessions.ts';
import { createCdpPageAgent } from '../background/page-agent-cdp.ts';
import { createPageAgentClient } from '../background/page-agent-client.ts';

interface Fake {
  url: string;
  attached: boolean;
  sent: Array<{ method: string; params?: Record<string, unknown> }>;
  evaluate(expression: string): unknown;
  fetched: string[];
  executeScript(): Promise<unknown>;
}

function setup(overrides: Partial<Fake> = {}) {
  const fake: Fake = {
    url: 'about:blank',
    attached: true,
    sent: [],
    fetched: [],
    // The agent source defines __mimoPageAgent; the call after it runs the op.
    evaluate: (expression) => {
      const globals = { __mimoPageAgent: undefined as unknown };
      const run = new Function('globalThis', `${expression.replace(/;\s*\(function/, ';return (function')}`);
      return { result: { value: run(globals) } };
    },
    executeScript: async () => {
      throw new Error(
        'Cannot access contents of url "chrome-extension://abc/". Extension manifest must request permission to access this host.',
      );
    },
    ...overrides,
  };
  const browser = {
    tabs: { get: async () => ({ id: 5, url: fake.url }) },
    runtime: { getURL: (path: string) => `chrome-extension://abc/${path}` },
    scripting: { executeScript: () => fake.executeScript() },
  } as unknown as BrowserApi;
  const cdp = {
    isAttached: () => fake.attached,
    send: async (_tabId: number, method: string, params?: Record<string, unknown>) => {
      fake.sent.push({ method, ...(params ? { params } : {}) });
      if (method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'MAIN' } } };
      if (method === 'Page.createIsolatedWorld') return { executionContextId: 42 };
      if (method === 'Runtime.evaluate') return fake.evaluate(String(params?.expression));
      throw new Error(`unexpected ${method}`);
    },
  } as unknown as CdpSessions;
  const agentSource = 'globalThis.__mimoPageAgent = { run: (op, args) => ({ op, args, elements: [] }) }';
  const fallback = createCdpPageAgent({
    browser,
    cdp,
    fetchText: async (url) => (fake.fetched.push(url), agentSource),
  });
  return { fake, fallback, client: createPageAgentClient(browser, fallback) };
}

const s = suite('page agent over CDP (the parked about:blank)');

s(
  'a refused executeScript on an attached about:blank runs the agent in an isolated world of the main frame',
  async () => {
    const { fake, client } = setup();
    const result = await client.run(5, 'domIndex' as never, { limit: 3 } as never);
    assert.equal(result, { op: 'domIndex', args: { limit: 3 }, elements: [] });
    assert.equal(fake.fetched, ['chrome-extension://abc/page-agent.js']);
    assert.equal(
      fake.sent.map((c) => c.method),
      ['Page.getFrameTree', 'Page.createIsolatedWorld', 'Runtime.evaluate'],
    );
    assert.equal(fake.sent[1]!.params, { frameId: 'MAIN', worldName: 'mimo-page-agent' });
    assert.is(fake.sent[2]!.params!.contextId, 42);
    assert.is(fake.sent[2]!.params!.returnByValue, true);
  },
);

s('the agent source is fetched once for several reads', async () => {
  const { fake, client } = setup();
  await client.run(5, 'domIndex' as never, {} as never);
  await client.run(5, 'readability' as never, {} as never);
  assert.is(fake.fetched.length, 1);
});

s('any other page (or no debugger) keeps the executeScript error', async () => {
  for (const overrides of [{ url: 'https://example.com/' }, { attached: false }]) {
    const { fake, client } = setup(overrides);
    try {
      await client.run(5, 'domIndex' as never, {} as never);
      assert.unreachable('should have thrown');
    } catch (error) {
      assert.match(String((error as Error).message), /cannot run script in tab 5: Cannot access contents/);
    }
    assert.equal(
      fake.sent.filter((c) => c.method === 'Runtime.evaluate'),
      [],
    );
  }
});

s('an exception in the page is the op failure, not a crash', async () => {
  const { client } = setup({
    evaluate: () => ({ exceptionDetails: { text: 'Uncaught', exception: { description: 'TypeError: boom' } } }),
  });
  try {
    await client.run(5, 'domIndex' as never, {} as never);
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match(String((error as Error).message), /page operation domIndex failed: TypeError: boom/);
  }
});

s('executeScript that works never touches CDP', async () => {
  const { fake, client } = setup({ executeScript: async () => [{ result: { value: 'ok' } }] });
  assert.is(await client.run(5, 'domIndex' as never, {} as never), 'ok');
  assert.equal(fake.sent, []);
});

s.run();
