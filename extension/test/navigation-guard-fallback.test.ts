// The navigation guard on fakes when CDP cannot intercept (the backstop: a blocked page that loads
// anyway is replaced by about:blank) and the new-tab gate that holds a task's new tabs until they
// are classified. CDP interception: navigation-guard.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NEW_TAB_RULE_ID } from '../background/new-tab-gate.ts';
import { flush, world } from './navigation-guard-world.ts';

const s = suite('navigation guard without CDP, and the new-tab gate');

s(
  'new-tab gate: once a task page is allowed, tabs opened from its host are stopped until classified, then sent again through the guard',
  async () => {
    const w = await world();
    await w.guard.arm(7, 'task-1');
    w.pause(7, { requestId: 'r1', request: { url: 'https://allowed.example/list' } });
    await flush();
    const rule = w.rules.at(-1)!.addRules![0];
    assert.is(rule.id, NEW_TAB_RULE_ID);
    assert.equal(rule.action, { type: 'block' });
    assert.equal(rule.condition.resourceTypes, ['main_frame']);
    assert.equal(rule.condition.initiatorDomains, ['allowed.example']);
    assert.equal([...rule.condition.excludedTabIds].sort(), [7, 9], 'every tab that exists is let through');
    // A target=_blank tab of the task: its first request started with the tab (pendingUrl).
    const opened = w.browser.addTab({ id: 13, groupId: 50, pendingUrl: 'https://allowed.example/item/1' });
    w.browser.events.tabCreated.fire(opened);
    await flush();
    assert.ok(w.guard.isGuarded(13));
    assert.ok(w.rules.at(-1)!.addRules![0].condition.excludedTabIds.includes(13));
    assert.equal(
      w.browser.calls.filter((c) => c[0] === 'tabs.update'),
      [['tabs.update', 13, { url: 'https://allowed.example/item/1' }]],
    );
    // The user's tab opened from the same site: let through and sent again, without the guard.
    w.browser.addTab({ id: 20, url: 'https://allowed.example/mine' });
    const mine = w.browser.addTab({ id: 21, openerTabId: 20, pendingUrl: 'https://allowed.example/other' });
    w.browser.events.tabCreated.fire(mine);
    await flush();
    assert.not.ok(w.guard.isGuarded(21));
    assert.equal(w.browser.calls.filter((c) => c[0] === 'tabs.update').at(-1), [
      'tabs.update',
      21,
      { url: 'https://allowed.example/other' },
    ]);
    // A tab from elsewhere: let through, not touched.
    const other = w.browser.addTab({ id: 22, openerTabId: 9, pendingUrl: 'https://user.example/x' });
    w.browser.events.tabCreated.fire(other);
    await flush();
    assert.is(w.browser.calls.filter((c) => c[0] === 'tabs.update' && c[1] === 22).length, 0);
    assert.ok(w.rules.at(-1)!.addRules![0].condition.excludedTabIds.includes(22));
    // The task's tabs close: its host is no longer gated (no rule left).
    for (const id of [7, 13]) {
      w.browser.tabsById.delete(id);
      w.browser.events.tabRemoved.fire(id, { windowId: 1, isWindowClosing: false });
    }
    await flush();
    assert.equal(w.rules.at(-1)!.addRules, []);
  },
);

s('without CDP the guard says so, and a blocked page that loads anyway is replaced by about:blank', async () => {
  const w = await world();
  w.cdpEnabled = false;
  const armed = await w.guard.arm(7, 'task-1');
  assert.is(armed.guarded, false);
  w.answer = async (q) =>
    q.url.includes('blocked')
      ? { ok: true, data: { allowed: false, error: { code: 'URL_BLOCKED', message: 'no' } } }
      : { ok: true, data: { allowed: true } };
  w.browser.events.tabUpdated.fire(7, { url: 'https://allowed.example/a' }, w.browser.tabsById.get(7)!);
  w.browser.events.tabUpdated.fire(7, { url: 'http://blocked.example/' }, w.browser.tabsById.get(7)!);
  await flush();
  assert.equal(
    w.asked.map((q) => [q.url, q.stage]),
    [
      ['https://allowed.example/a', 'committed'],
      ['http://blocked.example/', 'committed'],
    ],
  );
  assert.equal(
    w.browser.calls.filter((c) => c[0] === 'tabs.update'),
    [['tabs.update', 7, { url: 'about:blank' }]],
  );
  // A URL it already decided (here: allowed) is not asked again; about:blank never is.
  w.browser.events.tabUpdated.fire(7, { url: 'https://allowed.example/a#part' }, w.browser.tabsById.get(7)!);
  w.browser.events.tabUpdated.fire(7, { url: 'about:blank' }, w.browser.tabsById.get(7)!);
  await flush();
  assert.is(w.asked.length, 2);
});

s("without CDP, a task's new tab held by the gate is checked before its first navigation is sent again", async () => {
  const w = await world();
  w.pause(7, { requestId: 'r1', request: { url: 'https://allowed.example/' } });
  await flush();
  w.cdpEnabled = false;
  w.answer = async (q) =>
    q.url.includes('blocked')
      ? { ok: true, data: { allowed: false, error: { code: 'URL_BLOCKED', message: 'no' } } }
      : { ok: true, data: { allowed: true } };
  const blocked = w.browser.addTab({ id: 30, groupId: 50, pendingUrl: 'http://blocked.example/x' });
  w.browser.events.tabCreated.fire(blocked);
  const allowed = w.browser.addTab({ id: 31, groupId: 50, pendingUrl: 'https://allowed.example/y' });
  w.browser.events.tabCreated.fire(allowed);
  await flush();
  assert.not.ok(w.guard.isGuarded(30));
  assert.equal(
    w.asked.filter((q) => q.tabId >= 30).map((q) => [q.tabId, q.stage]),
    [
      [30, 'request'],
      [31, 'request'],
    ],
  );
  const updates = w.browser.calls.filter((c) => c[0] === 'tabs.update');
  assert.equal(updates, [
    ['tabs.update', 30, { url: 'about:blank' }],
    ['tabs.update', 31, { url: 'https://allowed.example/y' }],
  ]);
});

s.run();
