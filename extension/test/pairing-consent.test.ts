// Issue 23 item 3: pairing with a new server waits for the person's yes in the extension
// (background/pairing-consent.ts, pairing.ts, the options page's question), on fakes. The whole
// flow and the :3000 attack in Chromium: e2e/pairing.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPairingConsent } from '../background/pairing-consent.ts';
import { createMessageRouter } from '../background/message-router.ts';
import { pairBrowser, type PairingDeps } from '../background/pairing.ts';
import { pairingIdOf } from '../options/pairing-question.ts';
import { createManifest } from '../manifest.ts';
import { defaultSettings, readSettings, type Settings } from '../shared/settings.ts';
import { fakeBrowser, fakeStorage, manualTimers } from './fakes/fake-browser.ts';

function consentRig() {
  const browser = fakeBrowser();
  const timers = manualTimers();
  let n = 0;
  const consent = createPairingConsent({ browser, timers, newId: () => `q${++n}`, timeoutMs: 1_000 });
  const opened = () => browser.calls.filter((c) => c[0] === 'tabs.create').map((c) => (c[1] as { url: string }).url);
  return { browser, timers, consent, opened };
}

const c = suite('pairing consent');

c('asks in the extension own options page and resolves with the answer', async () => {
  const { browser, consent, opened } = consentRig();
  const answer = consent.ask('http://127.0.0.1:7007', 9);
  assert.equal(opened(), [`chrome-extension://${fakeBrowser().runtime.id}/options.html#pair=q1`]);
  assert.equal(consent.question('q1'), { id: 'q1', origin: 'http://127.0.0.1:7007' });
  assert.is(consent.question('q2'), null);
  await new Promise((r) => setTimeout(r, 0));
  assert.is(consent.answer('q1', true), true);
  assert.is(await answer, true);
  // The question's tab closes once answered.
  const created = browser.calls.find((c) => c[0] === 'tabs.create')!;
  assert.equal(created[1], { url: opened()[0], active: true, openerTabId: 9 });
  assert.ok(
    browser.calls.some((c) => c[0] === 'tabs.remove'),
    JSON.stringify(browser.calls),
  );
  // Answered once: the question is gone, a second answer changes nothing.
  assert.is(consent.question('q1'), null);
  assert.is(consent.answer('q1', false), false);
});

c('no answer in time is a no; a no is a no', async () => {
  const { consent, timers } = consentRig();
  const late = consent.ask('http://localhost:3000');
  timers.advance(999);
  assert.ok(consent.question('q1'));
  timers.advance(1);
  assert.is(await late, false);
  assert.is(consent.question('q1'), null);
  const denied = consent.ask('http://localhost:3000');
  consent.answer('q2', false);
  assert.is(await denied, false);
});

c('one question at a time: the same origin shares it, another origin is refused at once', async () => {
  const { consent, opened } = consentRig();
  const first = consent.ask('http://127.0.0.1:7007');
  const again = consent.ask('http://127.0.0.1:7007');
  assert.is(await consent.ask('http://localhost:3000'), false);
  assert.is(opened().length, 1);
  consent.answer('q1', true);
  assert.equal([await first, await again], [true, true]);
});

c('only an extension page can answer; a content script (any web page) cannot', async () => {
  const { browser, consent } = consentRig();
  void consent.ask('http://127.0.0.1:7007');
  const router = createMessageRouter({
    extensionId: browser.runtime.id,
    extensionOrigin: browser.runtime.getURL(''),
    content: {} as never,
    options: {
      get_status: async () => null,
      pairing_question: async (m) => consent.question(m.id),
      pairing_answer: async (m) => ({ ok: consent.answer(m.id, m.allow) }),
    },
  });
  const fromPage = router(
    { kind: 'pairing_answer', id: 'q1', allow: true },
    { id: browser.runtime.id, url: 'http://localhost:6006/', tab: { id: 3 } as never, frameId: 0 },
  );
  assert.is(fromPage, undefined);
  assert.ok(consent.question('q1'));
  const fromOptions = await router(
    { kind: 'pairing_answer', id: 'q1', allow: true },
    { id: browser.runtime.id, url: browser.runtime.getURL('options.html#pair=q1') },
  );
  assert.equal(fromOptions, { ok: true });
  assert.equal([pairingIdOf('#pair=q1'), pairingIdOf('#pair=a b'), pairingIdOf('#other')], ['q1', null, null]);
});

c('the default web UI list no longer holds :3000', () => {
  const matches = (createManifest({ version: '1' }).externally_connectable as { matches: string[] }).matches;
  assert.equal(matches, ['http://localhost:6006/*', 'http://127.0.0.1:6006/*']);
});

c.run();

function pairingRig(start: Settings, yes: boolean) {
  const storage = fakeStorage();
  let settings = start;
  const asked: string[] = [];
  const applied: Settings[] = [];
  const d: PairingDeps = {
    storage,
    settings: () => settings,
    status: () => ({
      clientId: 'plugin-1',
      serverUrl: settings.serverUrl,
      connected: true,
      lastError: null,
      errorKind: null,
    }),
    confirm: async (url) => (asked.push(url), yes),
    apply: async (next) => void (applied.push(next), (settings = next)),
    fetch: (async () => new Response('{}', { status: 500 })) as unknown as typeof fetch,
    sleep: async () => {},
    now: () => 0,
  };
  return { d, storage, asked, applied };
}

const p = suite('pairing asks before it switches');
const paired: Settings = { ...defaultSettings, serverUrl: 'http://localhost:6006', token: 'the-real-token' };

p('a page on another origin (the :3000 attack) gets declined and changes nothing without a yes', async () => {
  const { d, storage, asked, applied } = pairingRig(paired, false);
  const outcome = await pairBrowser(d, { token: 'attacker-token', pageUrl: 'http://localhost:3000/' });
  assert.equal([outcome.ok, outcome.status], [false, 'declined']);
  assert.equal(asked, ['http://localhost:3000']);
  assert.equal(applied, []);
  assert.equal(storage.data, {});
});

p('with the yes it pairs; the first pairing asks too', async () => {
  const { d, asked } = pairingRig(defaultSettings, true);
  const outcome = await pairBrowser(d, { token: 'tok', pageUrl: 'http://localhost:6006/' });
  assert.equal([outcome.status, asked], ['connected', ['http://localhost:6006']]);
  const other = pairingRig(paired, true);
  assert.is((await pairBrowser(other.d, { token: 'tok2', pageUrl: 'http://127.0.0.1:7007/x' })).status, 'connected');
  assert.equal((await readSettings(other.storage)).serverUrl, 'http://127.0.0.1:7007');
});

p('the server already paired refreshes its token without a question', async () => {
  const { d, asked } = pairingRig(paired, false);
  const outcome = await pairBrowser(d, { token: 'new-token', pageUrl: 'http://localhost:6006/#/tasks' });
  assert.equal([outcome.status, asked], ['connected', []]);
});

p.run();
