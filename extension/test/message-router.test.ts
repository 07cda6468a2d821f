import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMessageRouter } from '../background/message-router.ts';

const router = suite('message router (sender allowlist)');

router('only this extension; content kinds from a top-level tab; options kinds from extension pages', async () => {
  const seen: string[] = [];
  const listener = createMessageRouter({
    extensionId: 'ext',
    extensionOrigin: 'chrome-extension://ext/',
    content: {
      content_hello: async (_m, sender) => (seen.push(`hello ${sender.tab.id}`), null),
      user_takeover: async () => null,
      overlay_command: async () => null,
      confirmation_answer: async () => null,
      client_info: async () => null,
      connect_browser: async () => null,
    },
    options: {
      get_status: async () => (seen.push('status'), null),
      pairing_question: async () => null,
      pairing_answer: async () => null,
    },
  });
  const tab = { id: 4, windowId: 1, index: 0, active: false, pinned: false, incognito: false };
  await listener({ kind: 'content_hello' }, { id: 'ext', tab, frameId: 0, url: 'https://a/' });
  assert.is(listener({ kind: 'content_hello' }, { id: 'other-ext', tab, frameId: 0 }), undefined);
  assert.is(listener({ kind: 'content_hello' }, { id: 'ext', tab, frameId: 3 }), undefined, 'subframes are not asked');
  assert.is(
    listener({ kind: 'get_status' }, { id: 'ext', tab, url: 'https://a/' }),
    undefined,
    'a page cannot ask for the status',
  );
  assert.is(listener({ kind: 'nope' }, { id: 'ext', tab }), undefined);
  await listener({ kind: 'get_status' }, { id: 'ext', url: 'chrome-extension://ext/options.html' });
  assert.is(listener({ kind: 'content_hello' }, { id: 'ext', url: 'chrome-extension://ext/options.html' }), undefined);
  assert.equal(seen, ['hello 4', 'status']);
});

router.run();
