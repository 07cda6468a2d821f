// ARIA patterns the vendored libraries do not have, on pages written after the ARIA Authoring
// Practices (fixtures/corpus/aria-patterns: menubar.html, grid-combobox.html), through browser-shell in a plain
// Chromium: a menubar (items listed with their expanded and checked states, opened by a click or
// the keyboard, an item chosen) and a combobox with a grid pop-up (select picks a row by its
// name). Verdicts are read from the pages' own DOM.
import * as assert from 'uvu/assert';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite('menubar and grid-popup combobox through browser-shell in a real Chromium', 'aria-patterns.test');

type Entry = { role?: string; name?: string; expanded?: boolean; checked?: boolean | 'mixed'; hasPopup?: string };
type Snap = { refs: Record<string, Entry> };
const by = (role: string, name: string) => (e: Entry) => e.role === role && e.name === name;
const find = (snap: Snap, role: string, name: string) => Object.values(snap.refs).find(by(role, name));
const snapshotWith = async (env: McpEnv, session: string, pred: (e: Entry) => boolean, what: string): Promise<Snap> =>
  (await until(
    async () => {
      const snap = (await env.ok(session, ['snapshot', '-i'])) as Snap;
      return Object.values(snap.refs).some(pred) ? snap : undefined;
    },
    what,
    5_000,
  )) as Snap;

s('menubar: items with their states; a click opens a menu, an item is chosen', async ({ env }) => {
  await env.ok('bar', ['open', `${env.corpus.url}/aria-patterns/menubar.html`]);
  const closed = (await env.ok('bar', ['snapshot', '-i'])) as Snap;
  assert.is(find(closed, 'menuitem', 'File')?.expanded, false, 'File says it is collapsed');
  assert.ok(find(closed, 'menuitem', 'Style'), 'the item that is not a tab stop is listed');
  assert.not.ok(find(closed, 'menuitem', 'Open…'), 'a closed menu lists no items');
  await env.ok('bar', ['click', refWhere(closed, by('menuitem', 'File'), 'File')]);
  const open = await snapshotWith(env, 'bar', by('menuitem', 'Open…'), 'the File menu');
  assert.is(find(open, 'menuitem', 'File')?.expanded, true, 'File says it is expanded');
  await env.ok('bar', ['click', refWhere(open, by('menuitem', 'Open…'), 'Open…')]);
  const page = await env.pageOf('/aria-patterns/menubar.html');
  assert.is(await page.textContent('#last'), 'last:Open…');
});

s('menubar: the keyboard moves along the bar and opens a menu; checkbox and radio items', async ({ env }) => {
  const snap = (await env.ok('bar', ['snapshot', '-i'])) as Snap;
  await env.ok('bar', ['focus', refWhere(snap, by('menuitem', 'File'), 'File')]);
  await env.ok('bar', ['press', 'ArrowRight']);
  await env.ok('bar', ['press', 'Enter']);
  const page = await env.pageOf('/aria-patterns/menubar.html');
  assert.is(await page.getAttribute('#m-style', 'aria-expanded'), 'true', 'the keys reached Style');
  const open = await snapshotWith(env, 'bar', by('menuitemradio', 'Large'), 'the Style menu');
  assert.is(find(open, 'menuitemcheckbox', 'Bold')?.checked, false);
  assert.is(find(open, 'menuitemcheckbox', 'Italic')?.checked, true);
  assert.is(find(open, 'menuitemradio', 'Small')?.checked, true);
  await env.ok('bar', ['click', refWhere(open, by('menuitemradio', 'Large'), 'Large')]);
  assert.is(await page.textContent('#last'), 'last:Large');
  assert.is(
    await page.evaluate(() => document.querySelectorAll('[role="menuitemradio"]')[1]!.getAttribute('aria-checked')),
    'true',
  );
});

s('combobox with a grid pop-up: select chooses a row by its name', async ({ env }) => {
  await env.ok('grid', ['open', `${env.corpus.url}/aria-patterns/grid-combobox.html`]);
  const snap = (await env.ok('grid', ['snapshot', '-i'])) as Snap;
  const food = find(snap, 'combobox', 'Food');
  assert.ok(food, 'the combobox is listed');
  assert.is(food!.hasPopup, 'grid');
  const page = await env.pageOf('/aria-patterns/grid-combobox.html');
  const chosen = await env.ok('grid', ['select', refWhere(snap, by('combobox', 'Food'), 'Food'), 'Banana']);
  assert.not.ok(chosen.warnings, 'chosen from the grid, not typed');
  assert.is(await page.inputValue('#cb-input'), 'Banana');
  assert.is(await page.textContent('#chosen'), 'chosen:Banana');
});

s.run();
