// Frames inside a cross-site (out-of-process) iframe, through browser-shell in a plain Chromium:
// a same-origin child of the cross-site frame (in that frame's process) and a frame from a third
// site inside it (a process of its own) are listed inline under their <iframe>s, and typing, a
// native select, an ARIA listbox and a trusted click reach them. Then ARIA comboboxes inside a
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

type Entry = { role?: string; name?: string; frame?: string; value?: string; expanded?: boolean };
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
  until(() => page.frames().find((f) => f !== page.mainFrame() && match(new URL(f.url()))), what) as Promise<Frame>;

s('a same-process frame and a third-site frame inside a cross-site frame are listed and operated', async ({ env }) => {
  await env.ok('nest', ['open', `${env.corpus.url}/cross-site?src=/local/frame-nest.html&title=Nest`]);
  const snap = await snapshotWith(
    env,
    'nest',
    by('button', 'Send same'),
    'the button of the same-site frame in the cross-site frame',
  );
  const third = await snapshotWith(env, 'nest', by('button', 'Send third'), 'the button of the third-site frame');
  assert.is(refs(snap).find(by('button', 'Nest button'))?.frame, 'Nest', 'the cross-site frame itself');
  assert.is(refs(snap).find(by('button', 'Send same'))?.frame, 'Same-site inner', 'named by its own <iframe>');
  assert.is(refs(third).find(by('button', 'Send third'))?.frame, 'Third-site inner');
  // In document order: each frame's controls right after its <iframe>'s place.
  const names = refs(third).map((e) => e.name);
  assert.ok(names.indexOf('Nest button') < names.indexOf('Send same'));
  assert.ok(names.indexOf('Send same') < names.indexOf('Send third'));

  const page = await env.pageOf('title=Nest');
  const same = await frameOf(page, (u) => u.searchParams.get('who') === 'same', 'the same-site inner frame');
  const other = await frameOf(page, (u) => u.searchParams.get('who') === 'third', 'the third-site inner frame');
  assert.ok(new URL(same.url()).host.startsWith('localhost:'), "the inner frame is the cross-site frame's site");
  assert.ok(new URL(other.url()).host.startsWith('third.localhost:'), 'a third site');

  for (const [who, frame] of [
    ['same', same],
    ['third', other],
  ] as const) {
    const snap = await snapshotWith(env, 'nest', by('button', `Send ${who}`), `the ${who} frame`);
    const inFrame = (role: string, name: string) => (e: Entry) =>
      by(role, name)(e) && e.frame === (who === 'same' ? 'Same-site inner' : 'Third-site inner');
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
  assert.is(refWhere(again, by('button', 'Send third'), ''), refWhere(third, by('button', 'Send third'), ''));
});

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
