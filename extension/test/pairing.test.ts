// Pairing (background/pairing.ts) and the options page's status line on fakes; the whole flow in
// Chromium is e2e/pairing.test.ts.
import { suite } from 'uvu';
import * as v from 'valibot';
import { ConnectBrowserRequestSchema } from '../../transport/contracts/index.ts';
import * as assert from 'uvu/assert';
import { pageOrigin, pairBrowser, type PairingDeps } from '../background/pairing.ts';
import type { ConnectionStatus } from '../shared/internal-messages.ts';
import { defaultSettings, readSettings, type Settings } from '../shared/settings.ts';
import { describeConnection } from '../options/status-text.ts';
import { fakeStorage } from './fakes/fake-browser.ts';

function deps(script: Array<Partial<ConnectionStatus>>, probeStatus: number | 'down' = 'down') {
  const storage = fakeStorage();
  let settings: Settings = defaultSettings;
  let polls = 0;
  let now = 0;
  const applied: Settings[] = [];
  const fetched: string[] = [];
  const d: PairingDeps = {
    storage,
    settings: () => settings,
    status: () => {
      const step = script[Math.min(polls++, script.length - 1)]!;
      return {
        clientId: 'plugin-1',
        serverUrl: settings.serverUrl,
        connected: false,
        lastError: null,
        errorKind: null,
        ...step,
      };
    },
    // The person says yes (pairing-consent.test.ts covers the question itself).
    confirm: async () => true,
    apply: async (next) => void (applied.push(next), (settings = next)),
    fetch: (async (url: string) => {
      fetched.push(url);
      if (probeStatus === 'down') throw new TypeError('fetch failed');
      return new Response('{}', { status: probeStatus });
    }) as unknown as typeof fetch,
    sleep: async (ms) => void (now += ms),
    now: () => now,
  };
  return { d, storage, applied, fetched };
}

const s = suite('pairing');

s('the server URL is the page origin; the token is stored; connected when the socket comes up', async () => {
  const { d, storage, applied } = deps([{}, {}, { connected: true }]);
  const outcome = await pairBrowser(d, { token: 'tok-1', pageUrl: 'http://127.0.0.1:6006/#/task/x?token=zzz' });
  assert.equal(outcome, {
    ok: true,
    status: 'connected',
    message: 'This browser is connected to the Mimo server at http://127.0.0.1:6006.',
    serverUrl: 'http://127.0.0.1:6006',
    clientId: 'plugin-1',
  });
  assert.is(applied.length, 1);
  const stored = await readSettings(storage);
  assert.equal([stored.serverUrl, stored.token], ['http://127.0.0.1:6006', 'tok-1']);
});

s('wrong token, refused extension, unreachable server', async () => {
  assert.is(
    (await pairBrowser(deps([{ errorKind: 'unauthorized' }]).d, { token: 't', pageUrl: 'http://localhost:6006/' }))
      .status,
    'wrong_token',
  );
  assert.is(
    (await pairBrowser(deps([{ errorKind: 'forbidden' }]).d, { token: 't', pageUrl: 'http://localhost:6006/' })).status,
    'forbidden',
  );
  const down = deps([{ errorKind: 'unreachable' }]);
  const outcome = await pairBrowser(down.d, { token: 't', pageUrl: 'http://localhost:6006/' });
  assert.equal([outcome.ok, outcome.status], [false, 'unreachable']);
  assert.equal(down.fetched, ['http://localhost:6006/api/extension/extension-list']);
  // A generic socket failure + an HTTP 401 is a wrong token.
  assert.is(
    (await pairBrowser(deps([{ errorKind: 'unreachable' }], 401).d, { token: 't', pageUrl: 'http://localhost:6006/' }))
      .status,
    'wrong_token',
  );
  // Nothing settles within the wait: judged by the probe.
  assert.is(
    (await pairBrowser(deps([{}], 'down').d, { token: 't', pageUrl: 'http://localhost:6006/' })).status,
    'unreachable',
  );
});

s('bad input changes nothing', async () => {
  for (const [token, pageUrl] of [
    ['t', 'chrome-extension://x/options.html'],
    ['t', undefined],
    ['t', 'not a url'],
  ] as const) {
    const { d, storage, applied } = deps([{ connected: true }]);
    const outcome = await pairBrowser(d, { token, pageUrl });
    assert.equal([outcome.ok, outcome.status], [false, 'invalid'], String(pageUrl));
    assert.equal(applied, []);
    assert.equal(storage.data, {});
  }
  assert.is(pageOrigin('https://mimo.example.com:8443/a/b?c#d'), 'https://mimo.example.com:8443');
  assert.is(pageOrigin('file:///etc/passwd'), null);
  // The bridge request schema refuses odd tokens before anything runs.
  const request = (token: string) =>
    v.safeParse(ConnectBrowserRequestSchema, { type: 'mimo/connect_browser', requestId: 'r1', token }).success;
  assert.equal(
    [request('tok-abc_123'), request(''), request('has space'), request('x'.repeat(513)), request('tök')],
    [true, true, false, false, false],
  );
});

s('the options page says what to do next', () => {
  const base = { clientId: 'plugin-1', serverUrl: 'http://localhost:6006', connected: false, lastError: null };
  assert.is(describeConnection({ ...base, connected: true }).state, 'connected');
  assert.match(
    describeConnection({ ...base, errorKind: 'unauthorized', lastError: 'missing or wrong token' }).text,
    /^Wrong token/,
  );
  assert.match(describeConnection({ ...base, errorKind: 'forbidden' }).text, /MIMO_EXTENSION_IDS/);
  assert.match(describeConnection({ ...base, errorKind: 'unreachable' }).text, /^Server unreachable/);
  assert.is(describeConnection({ ...base }).state, 'connecting');
  assert.is(describeConnection(null).state, 'no_background');
});

s.run();
