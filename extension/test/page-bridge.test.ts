import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PluginClientInfoResultSchema, validate } from '../../transport/contracts/index.ts';
import { installPageBridge } from '../content/page-bridge.ts';

function fakePage(origin: string) {
  let listener: ((event: any) => void) | null = null;
  const posted: Array<{ message: any; targetOrigin: string }> = [];
  const win = {
    addEventListener: (_type: string, fn: (event: any) => void) => void (listener = fn),
    removeEventListener: () => void (listener = null),
    postMessage: (message: unknown, targetOrigin: string) => void posted.push({ message, targetOrigin }),
  };
  return {
    win,
    posted,
    send: (data: unknown, source: unknown = win) => listener?.({ data, origin, source }),
    get listening() {
      return listener !== null;
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const info = {
  ok: true,
  extensionId: 'ext',
  extensionName: 'Mimo',
  version: '0.1.0',
  clientId: 'plugin-1',
  socketConnected: true,
};

const s = suite('page bridge (seed 001 §2.3)');

s('an allowlisted origin gets the client info, to its own origin only', async () => {
  const page = fakePage('http://localhost:3000');
  let asked = 0;
  installPageBridge({
    window: page.win as unknown as Window,
    isAllowedOrigin: async (o) => o === 'http://localhost:3000',
    clientInfo: async () => (asked++, info),
  });
  page.send({ type: 'mimo/get_plugin_client_info', requestId: 'r1' });
  await flush();
  assert.is(asked, 1);
  assert.equal(page.posted, [
    {
      message: { type: 'mimo/get_plugin_client_info_result', requestId: 'r1', payload: info },
      targetOrigin: 'http://localhost:3000',
    },
  ]);
  assert.ok(validate(PluginClientInfoResultSchema, page.posted[0]!.message).ok);
});

s('the legacy request name gets the legacy answer name', async () => {
  const page = fakePage('http://localhost:3000');
  installPageBridge({
    window: page.win as unknown as Window,
    isAllowedOrigin: async () => true,
    clientInfo: async () => info,
  });
  page.send({ type: 'mimoim/get_bion_client_info', requestId: 'r2' });
  await flush();
  assert.is(page.posted[0]!.message.type, 'mimoim/get_bion_client_info_result');
});

s('other origins, other windows and malformed requests get nothing and ask nothing', async () => {
  const page = fakePage('https://evil.example');
  let asked = 0;
  installPageBridge({
    window: page.win as unknown as Window,
    isAllowedOrigin: async (o) => o === 'http://localhost:3000',
    clientInfo: async () => (asked++, info),
  });
  page.send({ type: 'mimo/get_plugin_client_info', requestId: 'r3' });
  const trusted = fakePage('http://localhost:3000');
  installPageBridge({
    window: trusted.win as unknown as Window,
    isAllowedOrigin: async () => true,
    clientInfo: async () => (asked++, info),
  });
  trusted.send({ type: 'mimo/get_plugin_client_info', requestId: 'r4' }, { other: 'frame' });
  trusted.send({ type: 'mimo/get_plugin_client_info' });
  trusted.send({ type: 'mimo/browser_click', requestId: 'r5', tabId: 1 });
  trusted.send('mimo/get_plugin_client_info');
  await flush();
  assert.is(asked, 0);
  assert.equal(page.posted, []);
  assert.equal(trusted.posted, []);
});

s('the bridge can be removed (teardown)', () => {
  const page = fakePage('http://localhost:3000');
  const remove = installPageBridge({
    window: page.win as unknown as Window,
    isAllowedOrigin: async () => true,
    clientInfo: async () => info,
  });
  assert.ok(page.listening);
  remove();
  assert.not.ok(page.listening);
});

s(
  'connect_browser: only an allowlisted origin, from this window, with a valid token, reaches the background',
  async () => {
    const tokens: string[] = [];
    const outcome = {
      ok: true,
      status: 'connected' as const,
      message: 'connected',
      serverUrl: 'http://localhost:3000',
    };
    const connectBrowser = async (token: string) => (tokens.push(token), outcome);
    const evil = fakePage('https://evil.example');
    installPageBridge({
      window: evil.win as unknown as Window,
      isAllowedOrigin: async (o) => o === 'http://localhost:3000',
      clientInfo: async () => info,
      connectBrowser,
    });
    evil.send({ type: 'mimo/connect_browser', requestId: 'p1', token: 'attacker' });
    const ui = fakePage('http://localhost:3000');
    installPageBridge({
      window: ui.win as unknown as Window,
      isAllowedOrigin: async (o) => o === 'http://localhost:3000',
      clientInfo: async () => info,
      connectBrowser,
    });
    ui.send({ type: 'mimo/connect_browser', requestId: 'p2', token: 'from-frame' }, { other: 'frame' });
    ui.send({ type: 'mimo/connect_browser', requestId: 'p3', token: 'bad token' });
    ui.send({ type: 'mimo/connect_browser', requestId: 'p4', token: 'tok-ui' });
    await flush();
    await flush();
    assert.equal(tokens, ['tok-ui']);
    assert.equal(evil.posted, []);
    assert.equal(ui.posted, [
      {
        message: { type: 'mimo/connect_browser_result', requestId: 'p4', payload: outcome },
        targetOrigin: 'http://localhost:3000',
      },
    ]);
  },
);

s.run();
