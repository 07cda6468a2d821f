// Out-of-process iframes (a frame from another site: Chromium's site isolation gives it a renderer
// of its own) through browser-shell in a plain Chromium: the frame's controls are listed inline
// under their frame, and click, type, check, focus and press on them reach the frame. The page is
// the corpus server's /cross-site (127.0.0.1 framing localhost); verdicts are read from the frame's DOM.
import * as assert from 'uvu/assert';
import type { Frame } from 'playwright-core';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite(
  'cross-site (out-of-process) iframes through browser-shell in a real Chromium',
  'cross-site-frames.test',
);

type Entry = {
  role?: string;
  name?: string;
  frame?: string;
  expanded?: boolean;
  checked?: boolean;
  type?: string;
  value?: string;
  sort?: string;
  current?: string;
};
const by = (role: string, name: string) => (e: Entry) => e.role === role && e.name === name;
const refs = (snap: { refs: Record<string, Entry> }) => Object.values(snap.refs);

async function snapshotWith(env: McpEnv, session: string, pred: (e: Entry) => boolean, what: string) {
  return until(
    async () => {
      const snap = await env.ok(session, ['snapshot', '-i']);
      return refs(snap).some(pred) ? snap : null;
    },
    what,
    10_000,
  );
}

async function crossSiteFrame(env: McpEnv, path: string): Promise<Frame> {
  const page = await env.pageOf(`/cross-site?src=${path}`);
  const frame = await until(
    // A frame between two documents has no URL yet ('').
    () =>
      page.frames().find((f) => f !== page.mainFrame() && URL.canParse(f.url()) && new URL(f.url()).pathname === path),
    `the frame ${path}`,
  );
  assert.ok(frame, `the frame ${path}`);
  assert.ok(new URL(frame.url()).host.startsWith('localhost:'), 'the frame is from the other site');
  assert.ok(new URL(page.url()).host.startsWith('127.0.0.1:'));
  return frame;
}

s('the controls of a cross-site frame are listed under it; type, check and click reach them', async ({ env }) => {
  await env.ok('form', ['open', `${env.corpus.url}/cross-site?src=/local/frame-form.html&title=Order%20form`]);
  const snap = await snapshotWith(env, 'form', by('button', 'Send order'), 'the button in the frame');
  const host = refs(snap).find(by('button', 'Host button'));
  assert.ok(host, 'the host page is listed too');
  assert.not.ok(host!.frame);
  const send = refs(snap).find(by('button', 'Send order'))!;
  assert.is(send.frame, 'Order form', 'the entry names its frame');
  const frame = await crossSiteFrame(env, '/local/frame-form.html');
  await env.ok('form', ['type', refWhere(snap, by('textbox', 'Name'), 'Name'), 'Ada']);
  assert.is(await frame.evaluate(() => (document.getElementById('name') as HTMLInputElement).value), 'Ada');
  await env.ok('form', ['check', refWhere(snap, by('checkbox', 'Gift wrap'), 'Gift wrap')]);
  await env.ok('form', ['select', refWhere(snap, by('combobox', 'Size'), 'Size'), 'Large']);
  await env.ok('form', ['click', refWhere(snap, by('button', 'Send order'), 'Send order')]);
  assert.is(await frame.evaluate(() => document.getElementById('out')!.textContent), 'sent:Ada:true:Large:true');
  // What the tree does not carry is read from the frame's DOM (and its shadow roots): a password
  // field (its value never shown), a sorted column, the current page's link.
  await env.ok('form', ['type', refWhere(snap, by('textbox', 'PIN'), 'PIN'), '1234']);
  const read = (await env.ok('form', ['snapshot', '-i'])) as { refs: Record<string, Entry> };
  const pin = refs(read).find(by('textbox', 'PIN'))!;
  assert.is(pin.type, 'password');
  assert.is(pin.value, undefined, 'a password is not shown');
  assert.is(refs(read).find(by('columnheader', 'Item'))?.sort, 'ascending');
  assert.is(refs(read).find(by('link', 'Order'))?.current, 'page');
  assert.not.ok(refs(read).find(by('link', 'Cart'))?.current);
  // Refs stay stable across snapshots in the frame too.
  const again = await env.ok('form', ['snapshot', '-i']);
  assert.is(refWhere(again, by('button', 'Send order'), 'Send order'), refWhere(snap, by('button', 'Send order'), ''));
});

s('a tree in a cross-site frame: an item is selected by a click, the keyboard expands another', async ({ env }) => {
  await env.ok('tree', ['open', `${env.corpus.url}/cross-site?src=/shoelace/pages/tree.html&title=Tree`]);
  const snap = await snapshotWith(env, 'tree', by('treeitem', 'Coniferous'), 'the tree in the frame');
  const frame = await crossSiteFrame(env, '/shoelace/pages/tree.html');
  const item = (i: number) =>
    frame.evaluate((index) => {
      const el = document.querySelectorAll('sl-tree > sl-tree-item')[index] as unknown as {
        selected?: boolean;
        expanded?: boolean;
      };
      return { selected: el.selected, expanded: el.expanded };
    }, i);
  await env.ok('tree', ['click', refWhere(snap, by('treeitem', 'Non-trees'), 'Non-trees')]);
  assert.is((await item(2)).selected, true, 'Non-trees is selected');
  await env.ok('tree', ['focus', refWhere(snap, by('treeitem', 'Coniferous'), 'Coniferous')]);
  await env.ok('tree', ['press', 'ArrowRight']);
  await until(async () => (await item(1)).expanded === true, 'Coniferous to expand', 3_000);
  const after = await snapshotWith(
    env,
    'tree',
    (e) => by('treeitem', 'Coniferous')(e) && e.expanded === true,
    'Coniferous listed as expanded',
  );
  assert.ok(refs(after).some(by('treeitem', 'Pine')), 'its children are listed');
});

s('a modal in the top page scopes a cross-site frame behind it: listing and actions', async ({ env }) => {
  // Its own URL: the first test's tab shows the same frame.
  await env.ok('modal', ['open', `${env.corpus.url}/cross-site?src=/local/frame-form.html&title=Behind%20a%20modal`]);
  const snap = await snapshotWith(env, 'modal', by('button', 'Send order'), 'the button in the frame');
  const send = refWhere(snap, by('button', 'Send order'), 'Send order');
  const page = await env.pageOf('title=Behind%20a%20modal');
  await page.evaluate(() => {
    const modal = document.createElement('div');
    modal.setAttribute('role', 'alertdialog');
    modal.setAttribute('aria-modal', 'true');
    modal.setAttribute('aria-label', 'Cookie consent');
    modal.innerHTML = '<p>Cookies?</p><button id="accept">Accept</button>';
    document.body.append(modal);
  });
  // The ref from before the modal opened: the action path checks the frame's place, not the listing.
  const refused = await env.shell('modal', ['click', send]);
  assert.is(refused.exit_code, 1, `expected a refusal, got exit 0: ${refused.stdout}`);
  assert.match(refused.stderr, /^ELEMENT_OUTSIDE_MODAL: /, refused.stderr);
  assert.match(refused.stderr, /Cookie consent/);
  const frame = page
    .frames()
    .find((f) => URL.canParse(f.url()) && new URL(f.url()).pathname === '/local/frame-form.html')!;
  assert.is(await frame.evaluate(() => document.getElementById('out')!.textContent), '', 'nothing was sent');
  const scoped = await snapshotWith(env, 'modal', by('button', 'Accept'), 'the modal listed');
  assert.not.ok(refs(scoped).some(by('button', 'Send order')), 'the frame behind the modal is not listed');
  // Once the modal is gone, the frame is listed and acted on again.
  await page.evaluate(() => document.querySelector('[aria-modal="true"]')!.remove());
  const back = await snapshotWith(env, 'modal', by('button', 'Send order'), 'the frame listed again');
  await env.ok('modal', ['click', refWhere(back, by('button', 'Send order'), 'Send order')]);
  assert.match(await frame.evaluate(() => document.getElementById('out')!.textContent ?? ''), /^sent:/);
});

s.run();
