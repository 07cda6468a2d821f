import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  matchesAnyPattern,
  matchesPattern,
  originPattern,
  parseMatchPattern,
  webUiPatterns,
} from '../shared/match-pattern.ts';
import { retryTransient } from '../shared/retry.ts';
import { defaultSettings, parseSettings, readSettings, SETTINGS_KEY, writeSettings } from '../shared/settings.ts';
import { fakeStorage } from './fakes/fake-browser.ts';

const patterns = suite('match patterns');

patterns('a pattern without a port matches any port; with a port only that one', () => {
  assert.ok(matchesPattern('http://localhost:3000/tasks/1', 'http://localhost/*'));
  assert.ok(matchesPattern('http://localhost:3000/', 'http://localhost:3000/*'));
  assert.not.ok(matchesPattern('http://localhost:3001/', 'http://localhost:3000/*'));
  assert.ok(matchesPattern('http://localhost/', 'http://localhost:80/*'), 'default port');
  assert.ok(matchesPattern('http://localhost:9/', 'http://localhost:*/*'));
});

patterns('schemes, subdomain wildcards and paths', () => {
  assert.ok(matchesPattern('https://app.mimo.dev/x', '*://*.mimo.dev/*'));
  assert.ok(matchesPattern('https://mimo.dev/x', '*://*.mimo.dev/*'));
  assert.not.ok(matchesPattern('https://evilmimo.dev/x', '*://*.mimo.dev/*'));
  assert.not.ok(matchesPattern('ftp://mimo.dev/x', '*://mimo.dev/*'));
  assert.ok(matchesPattern('https://mimo.dev/app/1?q=2', 'https://mimo.dev/app/*'));
  assert.not.ok(matchesPattern('https://mimo.dev/other', 'https://mimo.dev/app/*'));
  assert.ok(matchesPattern('file:///tmp/a.html', '<all_urls>'));
});

patterns('invalid patterns and URLs match nothing', () => {
  for (const bad of ['localhost', 'http://', 'http://a*b.com/*', 'gopher://x/*', 'http://x'])
    assert.is(parseMatchPattern(bad), null, bad);
  assert.not.ok(matchesPattern('not a url', '<all_urls>'));
  assert.not.ok(matchesAnyPattern(undefined, ['<all_urls>']));
  assert.not.ok(matchesAnyPattern('', ['<all_urls>']));
});

patterns('web UI patterns: manifest matches, the server origin (port-exact) and extras', () => {
  const list = webUiPatterns(['http://localhost:3000/*'], 'http://127.0.0.1:6006', ['https://mimo.example/*']);
  assert.equal(list, ['http://localhost:3000/*', 'http://127.0.0.1:6006/*', 'https://mimo.example/*']);
  assert.ok(matchesAnyPattern('http://127.0.0.1:6006/tasks', list));
  assert.not.ok(matchesAnyPattern('http://127.0.0.1:8080/shop', list));
  assert.is(originPattern('chrome://settings'), null);
});

const settings = suite('settings');

settings('missing or damaged settings fall back field by field', async () => {
  assert.equal(parseSettings(undefined), defaultSettings);
  assert.equal(parseSettings({ serverUrl: 'ftp://x', token: 7, useCdp: false, webUiPatterns: ['nope'] }), {
    ...defaultSettings,
    useCdp: false,
  });
  assert.is(parseSettings({ serverUrl: 'http://srv:6006///' }).serverUrl, 'http://srv:6006');
  const storage = fakeStorage({ [SETTINGS_KEY]: { serverUrl: 'https://mimo.example', token: 'abc' } });
  assert.equal(await readSettings(storage), { ...defaultSettings, serverUrl: 'https://mimo.example', token: 'abc' });
});

settings('a server URL that is not a URL at all is refused without throwing', async () => {
  const result = await writeSettings(fakeStorage(), {
    serverUrl: 'not a url',
    token: '',
    webUiPatterns: [],
    useCdp: true,
  });
  assert.is(result.ok, false);
});

settings('writeSettings validates and stores; bad input is an error value and changes nothing', async () => {
  const storage = fakeStorage();
  const bad = await writeSettings(storage, {
    serverUrl: 'localhost:6006',
    token: '',
    webUiPatterns: ['*'],
    useCdp: true,
  });
  assert.is(bad.ok, false);
  if (!bad.ok) {
    assert.is(bad.error.code, 'BAD_REQUEST');
    assert.match(bad.error.message, 'http or https');
    assert.match(bad.error.message, 'match pattern');
  }
  assert.equal(storage.data, {});
  const good = await writeSettings(storage, {
    serverUrl: 'http://10.0.0.2:6006/',
    token: 't',
    webUiPatterns: ['https://ui.example/*'],
    useCdp: false,
  });
  assert.ok(good.ok);
  assert.equal(storage.data[SETTINGS_KEY], {
    serverUrl: 'http://10.0.0.2:6006',
    token: 't',
    webUiPatterns: ['https://ui.example/*'],
    useCdp: false,
    debuggerIdleSeconds: 15,
    groupCollapseSeconds: 60,
  });
});

const retry = suite('retryTransient');

retry('retries transient errors up to the cap with the given delays', async () => {
  const slept: number[] = [];
  let attempts = 0;
  const error = await retryTransient(
    async () => {
      attempts += 1;
      throw new TypeError('network');
    },
    { delaysMs: [10, 20], isTransient: (e) => e instanceof TypeError, sleep: async (ms) => void slept.push(ms) },
  ).catch((e: unknown) => e);
  assert.instance(error, TypeError);
  assert.is(attempts, 3);
  assert.equal(slept, [10, 20]);
});

retry('does not retry other errors, and returns the first success', async () => {
  let attempts = 0;
  await retryTransient(
    async () => {
      attempts += 1;
      throw new RangeError('bad');
    },
    { delaysMs: [1, 1], isTransient: (e) => e instanceof TypeError, sleep: async () => {} },
  ).catch(() => {});
  assert.is(attempts, 1);
  const value = await retryTransient(async (n) => (n < 1 ? Promise.reject(new TypeError('x')) : 'done'), {
    delaysMs: [1],
    isTransient: () => true,
    sleep: async () => {},
  });
  assert.is(value, 'done');
});

patterns.run();
settings('the idle timings: whole seconds in range, or an error that names them and stores nothing', async () => {
  const base = { serverUrl: 'http://127.0.0.1:6006', token: '', webUiPatterns: [], useCdp: true };
  for (const [field, value, words] of [
    ['debuggerIdleSeconds', 0, 'at least 1 s'],
    ['debuggerIdleSeconds', 2.5, 'whole number'],
    ['groupCollapseSeconds', 100_000, 'at most 86400 s'],
    ['groupCollapseSeconds', Number.NaN, 'a number of seconds'],
  ] as const) {
    const storage = fakeStorage();
    const outcome = await writeSettings(storage, { ...base, [field]: value });
    assert.is(outcome.ok, false, `${field} ${value}`);
    if (!outcome.ok) assert.match(outcome.error.message, words);
    assert.equal(storage.data, {});
  }
  const storage = fakeStorage();
  const good = await writeSettings(storage, { ...base, debuggerIdleSeconds: 3, groupCollapseSeconds: 8 });
  assert.ok(good.ok);
  assert.equal(await readSettings(storage), { ...base, debuggerIdleSeconds: 3, groupCollapseSeconds: 8 });
  assert.is(parseSettings({ debuggerIdleSeconds: -4 }).debuggerIdleSeconds, 15, 'a damaged value falls back');
});

settings.run();
retry.run();
