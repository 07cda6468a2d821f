// Issue 23, Secrets: `wait --url` (browser-shell) after the task tab moved itself to a blocked URL
// answers URL_BLOCKED without that URL (its path and query, which can carry a one-time code) and
// never matches a pattern against it (a pattern could probe the query one guess at a time); the
// tab is parked on about:blank like every read. Through the real MCP SDK client and the fake plugin.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FakePage } from '../mcp/test/fake-browser.ts';
import { startMcp, testPolicy, type McpHarness } from '../mcp/test/mcp-harness.ts';
import { eventually } from './util.ts';

const ALLOWED = 'http://allowed.test/';
const BLOCKED = 'http://blocked.test/callback?code=739154&state=xyz';
const pages: Record<string, FakePage> = {
  [ALLOWED]: { title: 'Allowed', text: 'public page', elements: [] },
  [BLOCKED]: { title: 'Blocked', text: 'SECRET', elements: [] },
};

const test = suite<{ h: McpHarness }>('wait --url and blocked pages', { h: undefined as never });
test.before.each(async (ctx) => {
  ctx.h = await startMcp({ pages, policy: testPolicy({ allow_hosts: ['allowed.test'] }) });
});
test.after.each(async (ctx) => {
  await ctx.h.close();
});

async function moveToBlocked(h: McpHarness): Promise<{ url: string }> {
  assert.is((await h.shell('w', ['open', ALLOWED])).exit_code, 0);
  const tab = [...h.browser.tabs.values()][0]!;
  tab.url = BLOCKED; // a script on the page moved it; the extension reports the tab event
  await h.browser.emit!({
    v: 1,
    type: 'tab_event',
    eventType: 'tab_updated',
    timestamp: Date.now(),
    tab: {
      tabId: tab.tabId,
      windowId: 1,
      url: BLOCKED,
      title: 'Blocked',
      active: false,
      pinned: false,
      hidden: false,
      index: 1,
    },
  });
  await eventually(
    () =>
      h.runtime.server.snapshots.state(h.plugin!.clientId)?.tabs.find((t) => t.tabId === tab.tabId)?.url === BLOCKED,
    5000,
    'the tab event reached the server',
  );
  return tab;
}

for (const pattern of ['*code=*', '*blocked.test*', 'code=739154', '*nothing-matches*']) {
  test(`wait --url ${pattern}: URL_BLOCKED, no query, no match, the tab parked`, async ({ h }) => {
    const tab = await moveToBlocked(h);
    const out = await h.shellOnClock('w', ['wait', '--url', pattern], { timeout_sec: 2 });
    assert.is(out.exit_code, 1, JSON.stringify(out));
    assert.match(out.stderr, /^URL_BLOCKED/);
    const said = JSON.stringify(out);
    assert.not.ok(said.includes('739154') || said.includes('callback') || said.includes('state=xyz'), said);
    assert.not.ok(said.includes('"found":true'));
    await eventually(() => tab.url === 'about:blank', 5000, 'the tab parked on about:blank');
  });
}

test('on an allowed page wait --url still answers with the URL', async ({ h }) => {
  assert.is((await h.shell('w', ['open', ALLOWED])).exit_code, 0);
  const out = await h.shellOnClock('w', ['wait', '--url', '*allowed.test*'], { timeout_sec: 2 });
  assert.is(out.exit_code, 0);
  assert.equal(out.data, { found: true, url: ALLOWED });
});

test.run();
