// Fluent UI web components (fixtures/corpus/fluent, vendored from the npm registry) through
// browser-shell in a plain Chromium: a menu button whose menu is opened and an item chosen, and an
// editable combobox (fluent-dropdown type="combobox") whose option is picked with `select`. The
// components take their roles from ElementInternals in shadow DOM, which only the browser's own
// accessibility tree shows. Verdicts are read from the page's DOM.
import * as assert from 'uvu/assert';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite('Fluent UI web components through browser-shell in a real Chromium', 'fluent-widgets.test');

type Entry = { role?: string; name?: string; expanded?: boolean; checked?: boolean; value?: string };
type Snap = { refs: Record<string, Entry> };
const by = (role: string, name: string) => (e: Entry) => e.role === role && e.name === name;
const find = (snap: Snap, role: string, name: string) => Object.values(snap.refs).find(by(role, name));
const PAGE = '/fluent/pages/widgets.html';

async function snapshotWith(env: McpEnv, session: string, pred: (e: Entry) => boolean, what: string): Promise<Snap> {
  return until(
    async () => {
      const snap = (await env.ok(session, ['snapshot', '-i'])) as Snap;
      return Object.values(snap.refs).some(pred) ? snap : null;
    },
    what,
    10_000,
  ) as Promise<Snap>;
}

s('a menu button opens its menu; an item is chosen', async ({ env }) => {
  await env.ok('menu', ['open', `${env.corpus.url}${PAGE}`]);
  const closed = await snapshotWith(env, 'menu', by('button', 'Edit'), 'the Edit menu button');
  assert.is(find(closed, 'button', 'Edit')?.expanded, false, 'the button says its menu is closed');
  assert.not.ok(find(closed, 'menuitem', 'Copy'), 'a closed menu lists no items');
  await env.ok('menu', ['click', refWhere(closed, by('button', 'Edit'), 'Edit')]);
  const open = await snapshotWith(env, 'menu', by('menuitem', 'Copy'), 'the menu items');
  assert.is(find(open, 'button', 'Edit')?.expanded, true, 'the button says its menu is open');
  assert.is(find(open, 'menuitemradio', 'Print layout')?.checked, true);
  await env.ok('menu', ['click', refWhere(open, by('menuitem', 'Copy'), 'Copy')]);
  const page = await env.pageOf(PAGE);
  assert.is(await page.textContent('#last'), 'Copy');
});

s('an editable combobox: select picks an option by its label', async ({ env }) => {
  const snap = await snapshotWith(env, 'menu', by('combobox', 'Fruit'), 'the Fruit combobox');
  const chosen = await env.ok('menu', ['select', refWhere(snap, by('combobox', 'Fruit'), 'Fruit'), 'Banana']);
  assert.not.ok(chosen.warnings, `picked from the list, not only typed: ${JSON.stringify(chosen.warnings)}`);
  const page = await env.pageOf(PAGE);
  assert.is(
    await page.evaluate(() => (document.getElementById('fruit') as unknown as { value: string }).value),
    'banana',
  );
  assert.is(await page.textContent('#chosen'), 'banana');
});

s('typing into the combobox reports the options it shows; a click on one chooses it', async ({ env }) => {
  await env.ok('typed', ['open', `${env.corpus.url}${PAGE}?typed`]);
  const snap = await snapshotWith(env, 'typed', by('combobox', 'Fruit'), 'the Fruit combobox');
  const typed = await env.ok('typed', ['type', refWhere(snap, by('combobox', 'Fruit'), 'Fruit'), 'Ap']);
  assert.ok(typed.suggestions?.includes('Apricot'), `the options it shows: ${JSON.stringify(typed.suggestions)}`);
  assert.is(typed.target?.expanded, true, 'typing opened the list');
  const open = await snapshotWith(env, 'typed', by('option', 'Apricot'), 'the suggestions');
  await env.ok('typed', ['click', refWhere(open, by('option', 'Apricot'), 'Apricot')]);
  const page = await env.pageOf(`${PAGE}?typed`);
  await until(async () => (await page.textContent('#chosen')) === 'apricot', 'the page to record the choice', 3_000);
});

s.run();
