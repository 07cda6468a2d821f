// Every read of a task tab re-checks the URL policy (runtime/url-policy/read-guard.ts, called
// from TaskBrowser.action): a page allowed at `open` that then navigates to a blocked host (a
// click, or the page moving by itself: script, meta refresh) is never read back; the caller gets
// URL_BLOCKED and the tab is sent to about:blank. Through the real MCP SDK client, the fake
// plugin and the fake browser (which reports navigations as tab events, like the extension).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FakePage } from '../mcp/test/fake-browser.ts';
import { startMcp, testPolicy, type McpHarness } from '../mcp/test/mcp-harness.ts';
import { eventually } from './util.ts';

const ALLOWED = 'http://allowed.test/';
const BLOCKED = 'http://blocked.test/secret';
const pages: Record<string, FakePage> = {
  [ALLOWED]: {
    title: 'Allowed',
    text: 'public page',
    elements: [{ tag: 'a', text: 'go elsewhere', href: BLOCKED, navigatesTo: BLOCKED }],
  },
  [BLOCKED]: { title: 'Blocked secret', text: 'SECRET CONTENT', elements: [{ tag: 'input', type: 'text', name: 'q' }] },
};

const test = suite<{ h: McpHarness }>('read re-check', { h: undefined as never });
test.before.each(async (ctx) => {
  ctx.h = await startMcp({ pages, policy: testPolicy({ allow_hosts: ['allowed.test'] }) });
});
test.after.each(async (ctx) => {
  await ctx.h.close();
});

const tabOf = (h: McpHarness) => [...h.browser.tabs.values()][0]!;

test('a click that navigates to a blocked host: the next snapshot is URL_BLOCKED and the tab goes to about:blank', async ({
  h,
}) => {
  assert.is((await h.shell('s1', ['open', ALLOWED])).exit_code, 0);
  const snap = await h.shell('s1', ['snapshot', '-i']);
  const link = Object.keys(snap.data.refs)[0]!;
  assert.is((await h.shell('s1', ['click', `@${link}`])).exit_code, 0);
  assert.is(tabOf(h).url, BLOCKED);
  const readsBefore = h.browser.actions.filter(
    (a) => a.name === 'browser_dom_index' || a.name === 'browser_readability_extract',
  ).length;

  const blocked = await h.shell('s1', ['snapshot']);
  assert.is(blocked.exit_code, 1);
  assert.match(blocked.stderr, /^URL_BLOCKED/);
  assert.not.match(JSON.stringify(blocked), /SECRET CONTENT|Blocked secret/);
  await eventually(() => tabOf(h).url === 'about:blank', 5000, 'the tab parked on about:blank');
  const readsAfter = h.browser.actions.filter(
    (a) => a.name === 'browser_dom_index' || a.name === 'browser_readability_extract',
  ).length;
  assert.is(readsAfter, readsBefore, 'the blocked page was not even read');
});

for (const read of [['screenshot'], ['snapshot', '-i'], ['snapshot'], ['wait', '--text', 'SECRET']]) {
  test(`the page moves by itself (script / meta refresh) to a blocked host: "${read.join(' ')}" answers URL_BLOCKED`, async ({
    h,
  }) => {
    assert.is((await h.shell('s2', ['open', ALLOWED])).exit_code, 0);
    const tab = tabOf(h);
    tab.url = BLOCKED; // what a script or a meta refresh does, reported by the extension's tab event
    await h.browser.emit!({
      v: 1,
      type: 'tab_event',
      eventType: 'tab_updated',
      timestamp: Date.now(),
      tab: {
        tabId: tab.tabId,
        windowId: 1,
        url: BLOCKED,
        title: 'Blocked secret',
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
    // `wait` polls on the runtime's (simulated) clock: move it until the command answers.
    const out = await h.shellOnClock('s2', read, read[0] === 'wait' ? { timeout_sec: 2 } : {});
    assert.is(out.exit_code === 0, false, JSON.stringify(out));
    assert.not.match(JSON.stringify(out), /SECRET CONTENT|Blocked secret/);
    await eventually(() => tab.url === 'about:blank', 5000, 'the tab parked on about:blank');
    assert.not.ok(
      h.browser.actions.some((a) => a.name === 'browser_screenshot' && a.params.tabId === tab.tabId),
      'no screenshot of the blocked page was taken',
    );
  });
}

test('pages on the allowed host read normally', async ({ h }) => {
  await h.shell('s3', ['open', ALLOWED]);
  const snap = await h.shell('s3', ['snapshot']);
  assert.is(snap.exit_code, 0);
  assert.match(snap.data.text, /public page/);
  assert.is((await h.shell('s3', ['screenshot'])).exit_code, 0);
});

test.run();
