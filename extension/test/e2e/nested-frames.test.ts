// Frames inside a cross-site (out-of-process) iframe, through browser-shell in a plain Chromium:
// a same-origin child of the cross-site frame (in that frame's process) and a frame from another
// site inside it (out of that frame's process: a target and session of its own) are listed inline
// under their <iframe>s, and typing, a native select, an ARIA listbox and a trusted click reach
// them; frames that come, move and go, and a service-worker restart, are followed. Then ARIA comboboxes inside a
// cross-site frame (a grid pop-up, a select-only one in shadow DOM, an autocomplete) are chosen
// with `select`. The pages are the corpus server's /cross-site (127.0.0.1 framing localhost)
// around local/frame-nest.html and corpus pages; verdicts are read from the frames' own DOM.
import * as assert from 'uvu/assert';
import type { Frame, Page } from 'playwright-core';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite(
  'frames nested in cross-site frames, and ARIA widgets there, through browser-shell',
  'nested-frames.test',
);

type Entry = {
  role?: string;
  name?: string;
  frame?: string;
  value?: string;
  expanded?: boolean;
  /** Options as browser-shell words them: `Red [selected]`. */
  options?: string[];
};
type Snap = { refs: Record<string, Entry> };
const by = (role: string, name: string) => (e: Entry) => e.role === role && e.name === name;
const refs = (snap: Snap) => Object.values(snap.refs);

async function snapshotWith(env: McpEnv, session: string, pred: (e: Entry) => boolean, what: string): Promise<Snap> {
  return until(
    async () => {
      const snap = (await env.ok(session, ['snapshot', '-i'])) as Snap;
      return refs(snap).some(pred) ? snap : null;
    },
    what,
    10_000,
  ) as Promise<Snap>;
}

/** The Playwright frame whose URL matches (the page's frames include out-of-process ones). */
const frameOf = (page: Page, match: (url: URL) => boolean, what: string): Promise<Frame> =>
  until(
    // A frame between two documents has no URL yet ('').
    () => page.frames().find((f) => f !== page.mainFrame() && URL.canParse(f.url()) && match(new URL(f.url()))),
    what,
  ) as Promise<Frame>;

s('a same-process frame and a cross-site frame inside a cross-site frame are listed and operated', async ({ env }) => {
  await env.ok('nest', ['open', `${env.corpus.url}/cross-site?src=/local/frame-nest.html&title=Nest`]);
  const snap = await snapshotWith(
    env,
    'nest',
    by('button', 'Send same'),
    'the button of the same-site frame in the cross-site frame',
  );
  const inner = await snapshotWith(env, 'nest', by('button', 'Send cross'), 'the button of the cross-site inner frame');
  assert.is(refs(snap).find(by('button', 'Nest button'))?.frame, 'Nest', 'the cross-site frame itself');
  assert.is(refs(snap).find(by('button', 'Send same'))?.frame, 'Same-site inner', 'named by its own <iframe>');
  assert.is(refs(inner).find(by('button', 'Send cross'))?.frame, 'Cross-site inner');
  // In document order: each frame's controls right after its <iframe>'s place.
  const names = refs(inner).map((e) => e.name);
  assert.ok(names.indexOf('Nest button') < names.indexOf('Send same'));
  assert.ok(names.indexOf('Send same') < names.indexOf('Send cross'));

  const page = await env.pageOf('title=Nest');
  const same = await frameOf(page, (u) => u.searchParams.get('who') === 'same', 'the same-site inner frame');
  const other = await frameOf(page, (u) => u.searchParams.get('who') === 'cross', 'the cross-site inner frame');
  assert.ok(new URL(same.url()).host.startsWith('localhost:'), "the inner frame is the cross-site frame's site");
  assert.ok(new URL(other.url()).host.startsWith('127.0.0.1:'), "the inner frame is not the cross-site frame's site");

  for (const [who, frame] of [
    ['same', same],
    ['cross', other],
  ] as const) {
    const snap = await snapshotWith(env, 'nest', by('button', `Send ${who}`), `the ${who} frame`);
    const inFrame = (role: string, name: string) => (e: Entry) =>
      by(role, name)(e) && e.frame === (who === 'same' ? 'Same-site inner' : 'Cross-site inner');
    const colour = refs(snap).find(inFrame('combobox', 'Colour'));
    assert.equal(
      colour?.options,
      ['Red [selected]', 'Green', 'Blue'],
      `the options of the native select in the ${who} frame`,
    );
    await env.ok('nest', ['type', refWhere(snap, inFrame('textbox', 'Note'), `Note (${who})`), `hello ${who}`]);
    await env.ok('nest', ['select', refWhere(snap, inFrame('combobox', 'Colour'), `Colour (${who})`), 'Green']);
    const chosen = await env.ok('nest', [
      'select',
      refWhere(snap, inFrame('listbox', 'Fruit'), `Fruit (${who})`),
      'Pear',
    ]);
    assert.equal(chosen.labels, ['Pear'], `the ARIA listbox in the ${who} frame`);
    await env.ok('nest', ['click', refWhere(snap, inFrame('button', `Send ${who}`), `Send ${who}`)]);
    assert.is(
      await frame.evaluate(() => document.getElementById('out')!.textContent),
      `sent:${who}:hello ${who}:Green:Pear:true`,
      `what the ${who} frame was sent`,
    );
  }
  // Refs stay stable across snapshots in nested frames too.
  const again = (await env.ok('nest', ['snapshot', '-i'])) as Snap;
  assert.is(refWhere(again, by('button', 'Send cross'), ''), refWhere(inner, by('button', 'Send cross'), ''));
});

s('the same page as the top document: its same-origin frame and its cross-site frame are operated', async ({ env }) => {
  await env.ok('top', ['open', `${env.corpus.url}/local/frame-nest.html?top`]);
  const snap = await snapshotWith(env, 'top', by('button', 'Send cross'), 'both frames');
  const page = await env.pageOf('frame-nest.html?top');
  for (const [who, title] of [
    ['same', 'Same-site inner'],
    ['cross', 'Cross-site inner'],
  ] as const) {
    const inFrame = (role: string, name: string) => (e: Entry) => by(role, name)(e) && e.frame === title;
    await env.ok('top', ['type', refWhere(snap, inFrame('textbox', 'Note'), `Note (${who})`), `top ${who}`]);
    await env.ok('top', ['select', refWhere(snap, inFrame('listbox', 'Fruit'), `Fruit (${who})`), 'Plum']);
    await env.ok('top', ['click', refWhere(snap, inFrame('button', `Send ${who}`), `Send ${who}`)]);
    const frame = await frameOf(page, (u) => u.searchParams.get('who') === who, `the ${who} frame`);
    assert.is(
      await frame.evaluate(() => document.getElementById('out')!.textContent),
      `sent:${who}:top ${who}:Red:Plum:true`,
    );
  }
});

s(
  'cross-site frames that come, move to another site and go are followed from one snapshot to the next',
  async ({ env }) => {
    // Auto-attach is turned on once per tab: later frames are known from the browser's attach and
    // detach events alone.
    await env.ok('late', ['open', `${env.corpus.url}/cross-site?src=/local/frame-form.html&title=Late`]);
    await snapshotWith(env, 'late', by('button', 'Send order'), 'the first cross-site frame');
    const page = await env.pageOf('title=Late');
    const port = new URL(page.url()).port;
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.id = 'late';
      frame.title = 'Late frame';
      frame.src = src;
      document.body.append(frame);
    }, `http://localhost:${port}/local/frame-inner.html?who=late`);
    const late = await snapshotWith(env, 'late', by('button', 'Send late'), 'the frame added after the first snapshot');
    assert.is(late.refs[refWhere(late, by('button', 'Send late'), 'Send late').slice(1)]!.frame, 'Late frame');
    await env.ok('late', ['type', refWhere(late, by('textbox', 'Note'), 'Note'), 'late note']);
    await env.ok('late', ['click', refWhere(late, by('button', 'Send late'), 'Send late')]);
    const lateFrame = await frameOf(page, (u) => u.searchParams.get('who') === 'late', 'the late frame');
    assert.is(
      await lateFrame.evaluate(() => document.getElementById('out')!.textContent),
      'sent:late:late note:Red:Apple:true',
    );
    // The frame goes to the top page's site: its process and session go away, the tab's own process reads it.
    await page.evaluate(
      (src) => ((document.getElementById('late') as HTMLIFrameElement).src = src),
      `http://127.0.0.1:${port}/local/frame-inner.html?who=moved`,
    );
    const moved = await snapshotWith(env, 'late', by('button', 'Send moved'), 'the frame on its new site');
    assert.is(refs(moved).find(by('button', 'Send moved'))?.frame, 'Late frame');
    assert.not.ok(refs(moved).some(by('button', 'Send late')), 'what the frame showed before is gone');
    await env.ok('late', ['click', refWhere(moved, by('button', 'Send moved'), 'Send moved')]);
    const movedFrame = await frameOf(page, (u) => u.searchParams.get('who') === 'moved', 'the moved frame');
    assert.is(
      await movedFrame.evaluate(() => document.getElementById('out')!.textContent),
      'sent:moved::Red:Apple:true',
    );
    await page.evaluate(() => document.getElementById('late')!.remove());
    const gone = (await until(async () => {
      const snap = (await env.ok('late', ['snapshot', '-i'])) as Snap;
      return refs(snap).some(by('button', 'Send moved')) ? null : snap;
    }, 'the removed frame to leave the model')) as Snap;
    assert.ok(refs(gone).some(by('button', 'Send order')), 'the other frame is still read');
    const stale = await env.shell('late', ['click', refWhere(moved, by('button', 'Send moved'), 'Send moved')]);
    assert.is(stale.exit_code, 1, 'a ref of the removed frame is refused');
    assert.match(stale.stderr, /is not in the latest snapshot/, stale.stderr);
    // The tab itself goes to another site (a new process for the top document): its frames are
    // still followed.
    const elsewhere = `http://localhost:${port}/cross-site?src=/local/frame-inner.html%3Fwho%3Delsewhere&title=Elsewhere`;
    await env.ok('late', ['open', elsewhere]);
    const after = await snapshotWith(env, 'late', by('button', 'Send elsewhere'), 'the frame of the next page');
    await env.ok('late', ['click', refWhere(after, by('button', 'Send elsewhere'), 'Send elsewhere')]);
    const next = await env.pageOf('title=Elsewhere');
    const nextFrame = await frameOf(next, (u) => u.searchParams.get('who') === 'elsewhere', 'the frame there');
    assert.ok(new URL(nextFrame.url()).host.startsWith('127.0.0.1:'), 'a cross-site frame again');
    assert.is(
      await nextFrame.evaluate(() => document.getElementById('out')!.textContent),
      'sent:elsewhere::Red:Apple:true',
    );
  },
);

s(
  'after a service-worker restart the cross-site frames of a tab still attached are read and operated',
  async ({ env }) => {
    await env.ok('restart', ['open', `${env.corpus.url}/cross-site?src=/local/frame-nest.html&title=Restart`]);
    await snapshotWith(env, 'restart', by('button', 'Send cross'), 'the nested frames before the restart');
    const page = await env.pageOf('title=Restart');
    const connected = () => env.runtime.server.registry.list().some((e) => e.socketConnected);
    const cdp = await env.browser.context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await until(() => !connected(), 'the extension to disconnect', 10_000);
    await cdp.detach();
    // A tab event wakes the worker.
    const user = await env.browser.context.newPage();
    await user.goto(`${env.corpus.url}/local/frame-inner.html?who=waker`);
    await until(connected, 'the extension to connect again', 15_000);
    const snap = await snapshotWith(env, 'restart', by('button', 'Send cross'), 'the nested frames after the restart');
    assert.ok(refs(snap).some(by('button', 'Send same')), 'the same-process nested frame too');
    await env.ok('restart', ['click', refWhere(snap, by('button', 'Send cross'), 'Send cross')]);
    const inner = await frameOf(page, (u) => u.searchParams.get('who') === 'cross', 'the cross-site inner frame');
    assert.is(await inner.evaluate(() => document.getElementById('out')!.textContent), 'sent:cross::Red:Apple:true');
    await user.close();
  },
);

s('a combobox with a grid pop-up in a cross-site frame: select chooses a row', async ({ env }) => {
  await env.ok('grid', ['open', `${env.corpus.url}/cross-site?src=/aria-patterns/grid-combobox.html&title=Grid`]);
  const snap = await snapshotWith(env, 'grid', by('combobox', 'Food'), 'the combobox in the frame');
  const chosen = await env.ok('grid', ['select', refWhere(snap, by('combobox', 'Food'), 'Food'), 'Banana']);
  assert.not.ok(chosen.warnings, `chosen from the grid, not typed: ${JSON.stringify(chosen.warnings)}`);
  const page = await env.pageOf('title=Grid');
  const frame = await frameOf(page, (u) => u.pathname === '/aria-patterns/grid-combobox.html', 'the frame');
  assert.is(await frame.inputValue('#cb-input'), 'Banana');
  assert.is(await frame.textContent('#chosen'), 'chosen:Banana');
});

s('a select-only combobox in shadow DOM in a cross-site frame: select chooses by label', async ({ env }) => {
  await env.ok('sl', ['open', `${env.corpus.url}/cross-site?src=/shoelace/pages/select.html&title=Shoelace`]);
  const snap = await snapshotWith(env, 'sl', by('combobox', 'Flavour'), 'the Flavour combobox in the frame');
  await env.ok('sl', ['select', refWhere(snap, by('combobox', 'Flavour'), 'Flavour'), 'Chocolate']);
  const page = await env.pageOf('title=Shoelace');
  const frame = await frameOf(page, (u) => u.pathname === '/shoelace/pages/select.html', 'the frame');
  assert.is(
    await frame.evaluate(() => (document.getElementById('flavour') as unknown as { value: string }).value),
    'chocolate',
  );
});

s('an autocomplete combobox in a cross-site frame: select types and picks the suggestion', async ({ env }) => {
  const src = '/accessible-autocomplete/examples/form-single.html';
  await env.ok('ac', ['open', `${env.corpus.url}/cross-site?src=${src}&title=Autocomplete`]);
  const label = 'What was the last location you visited?';
  const snap = await snapshotWith(env, 'ac', by('combobox', label), 'the autocomplete in the frame');
  const chosen = await env.ok('ac', ['select', refWhere(snap, by('combobox', label), label), 'France']);
  assert.not.ok(chosen.warnings, `picked from the suggestions, not only typed: ${JSON.stringify(chosen.warnings)}`);
  const page = await env.pageOf('title=Autocomplete');
  const frame = await frameOf(page, (u) => u.pathname === src, 'the frame');
  assert.is(await frame.inputValue('#last-location'), 'France', 'the combobox shows the choice');
  assert.is(
    await frame.evaluate(() => (document.querySelector('select[name="last-location"]') as HTMLSelectElement).value),
    'country:FR',
    'the <select> it enhances holds the choice',
  );
});

s.run();
