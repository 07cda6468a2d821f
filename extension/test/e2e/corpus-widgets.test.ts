// Widgets nobody here wrote (issue 21), driven through browser-shell the way an MCP client does
// (snapshot -i, then act on refs found by role and name), each effect read from the page's own
// DOM: Shoelace's menu button and menu, tree, select-only combobox, modal dialog, tabs, slider
// and spinbutton (all in shadow DOM), Duet's calendar grid, AG Grid (sort, edit a cell), and
// Shoelace's tree inside a same-origin iframe. Real runtime, real extension in a plain Chromium (mcp-env.ts).
import * as assert from 'uvu/assert';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite('third-party ARIA widgets through browser-shell in a real Chromium', 'corpus-widgets.test', 300_000);

type Entry = {
  role?: string;
  name?: string;
  expanded?: boolean;
  selected?: boolean;
  level?: number;
  frame?: string;
  valueNow?: number;
};
const by = (role: string, name: string | RegExp) => (e: Entry) =>
  e.role === role && (typeof name === 'string' ? e.name === name : name.test(e.name ?? ''));
const shoelace = (env: McpEnv, page: string) => `${env.corpus.url}/shoelace/pages/${page}.html`;
/** Custom elements define themselves after load: wait until the snapshot lists `what`. */
const snapshotWith = (env: McpEnv, session: string, pred: (e: Entry) => boolean, what: string) =>
  until(
    async () => {
      const snap = await env.ok(session, ['snapshot', '-i']);
      return Object.values(snap.refs as Record<string, Entry>).some(pred) ? snap : null;
    },
    what,
    10_000,
  );

s('menu button: click opens the menu (its items are listed), an item is chosen', async ({ env }) => {
  await env.ok('menu', ['open', shoelace(env, 'menu')]);
  const closed = await snapshotWith(env, 'menu', by('button', 'Edit'), 'the Edit button');
  assert.not.ok(
    Object.values(closed.refs as Record<string, Entry>).some(by('menuitem', 'Uppercase')),
    'a closed menu lists no items',
  );
  await env.ok('menu', ['click', refWhere(closed, by('button', 'Edit'), 'Edit')]);
  const open = await snapshotWith(env, 'menu', by('menuitem', 'Uppercase'), 'the open menu');
  await env.ok('menu', ['click', refWhere(open, by('menuitem', 'Uppercase'), 'Uppercase')]);
  const page = await env.pageOf('/shoelace/pages/menu.html');
  assert.is((await page.textContent('#last-command'))?.trim(), 'Last command: Uppercase');
});

s('tree: a collapsed item says so, the keyboard expands it, a child is selected', async ({ env }) => {
  await env.ok('tree', ['open', shoelace(env, 'tree')]);
  const snap = await snapshotWith(env, 'tree', by('treeitem', 'Coniferous'), 'the tree');
  const coniferous = (snap.refs as Record<string, Entry>)[
    refWhere(snap, by('treeitem', 'Coniferous'), 'Coniferous').slice(1)
  ]!;
  assert.is(coniferous.expanded, false, 'a tree item names itself, collapsed');
  // A click selects (and focuses) the item, the keyboard expands it (a click alone does not, on Shoelace's tree).
  const page = await env.pageOf('/shoelace/pages/tree.html');
  await env.ok('tree', ['click', refWhere(snap, by('treeitem', 'Coniferous'), 'Coniferous')]);
  await env.ok('tree', ['press', 'ArrowRight']);
  assert.is(
    await page.evaluate(
      () => (document.querySelectorAll('sl-tree > sl-tree-item')[1] as unknown as { expanded: boolean }).expanded,
    ),
    true,
  );
  // Shoelace animates the children open (250 ms): the click on a child comes at once, and the
  // extension waits for the animation that moves it to end before it clicks (as Playwright does).
  const after = await snapshotWith(env, 'tree', by('treeitem', 'Pine'), 'the expanded children');
  await env.ok('tree', ['click', refWhere(after, by('treeitem', 'Pine'), 'Pine')]);
  const pineSelected = () =>
    page.evaluate(
      () =>
        (
          Array.from(document.querySelectorAll('sl-tree-item')).find(
            (i) => i.textContent?.trim() === 'Pine',
          ) as unknown as { selected?: boolean } | undefined
        )?.selected === true,
    );
  await until(pineSelected, 'Pine to be selected', 3_000);
});

s('select-only combobox: select chooses an option by its label', async ({ env }) => {
  await env.ok('select', ['open', shoelace(env, 'select')]);
  const snap = await snapshotWith(env, 'select', by('combobox', 'Flavour'), 'the Flavour combobox');
  await env.ok('select', ['select', refWhere(snap, by('combobox', 'Flavour'), 'Flavour'), 'Chocolate']);
  const page = await env.pageOf('/shoelace/pages/select.html');
  assert.is(
    await page.evaluate(() => (document.getElementById('flavour') as unknown as { value: string }).value),
    'chocolate',
  );
});

s('modal dialog: the page behind it is out of the model; its field and button work', async ({ env }) => {
  await env.ok('dialog', ['open', shoelace(env, 'dialog')]);
  const snap = await snapshotWith(env, 'dialog', by('button', 'Rename account'), 'the page');
  await env.ok('dialog', ['click', refWhere(snap, by('button', 'Rename account'), 'Rename account')]);
  const inDialog = await snapshotWith(env, 'dialog', by('textbox', 'New name'), 'the dialog field');
  assert.not.ok(
    Object.values(inDialog.refs as Record<string, Entry>).some(by('button', 'Delete account')),
    'controls behind the modal dialog are not listed',
  );
  await env.ok('dialog', ['fill', refWhere(inDialog, by('textbox', 'New name'), 'New name'), 'Grace']);
  await env.ok('dialog', ['click', refWhere(inDialog, by('button', 'Save'), 'Save')]);
  const page = await env.pageOf('/shoelace/pages/dialog.html');
  assert.is((await page.textContent('#account-name'))?.trim(), 'Grace');
});

s("date picker: the calendar's grid of days is listed and a day is picked", async ({ env }) => {
  await env.ok('date', ['open', `${env.corpus.url}/duet-date-picker/pages/date.html`]);
  const snap = await snapshotWith(env, 'date', by('button', /^Choose date/), 'the calendar button');
  await env.ok('date', ['click', refWhere(snap, by('button', /^Choose date/), 'Choose date')]);
  const grid = await snapshotWith(env, 'date', (e) => /\b15\b.*March/.test(e.name ?? ''), 'the days of March');
  const days = Object.values(grid.refs as Record<string, Entry>).filter((e) => /^\d{1,2}\b.*March/.test(e.name ?? ''));
  assert.ok(days.length >= 28, `every day of the month is listed, not only the focused one (${days.length})`);
  await env.ok('date', ['click', refWhere(grid, (e) => /^15\b.*March/.test(e.name ?? ''), 'the 15th')]);
  const page = await env.pageOf('/duet-date-picker/pages/date.html');
  assert.is(
    await page.evaluate(() => (document.querySelector('input[name="departure"]') as HTMLInputElement).value),
    '2024-03-15',
  );
});

s('tabs, slider and spinbutton: selected tab, values set by fill', async ({ env }) => {
  await env.ok('tabs', ['open', shoelace(env, 'tabs')]);
  const tabs = await snapshotWith(env, 'tabs', by('tab', 'Privacy'), 'the tabs');
  await env.ok('tabs', ['click', refWhere(tabs, by('tab', 'Privacy'), 'Privacy')]);
  const tabPage = await env.pageOf('/shoelace/pages/tabs.html');
  assert.is(await tabPage.evaluate(() => document.querySelector('sl-tab[active]')?.textContent?.trim()), 'Privacy');
  const after = await snapshotWith(
    env,
    'tabs',
    (e) => by('tab', 'Privacy')(e) && e.selected === true,
    'Privacy selected',
  );
  assert.ok(after);

  await env.ok('range', ['open', shoelace(env, 'range')]);
  const range = await snapshotWith(env, 'range', by('slider', 'Volume'), 'the Volume slider');
  await env.ok('range', ['fill', refWhere(range, by('slider', 'Volume'), 'Volume'), '70']);
  await env.ok('range', ['fill', refWhere(range, by('spinbutton', 'Quantity'), 'Quantity'), '5']);
  const page = await env.pageOf('/shoelace/pages/range.html');
  assert.equal(
    await page.evaluate(() => [
      (document.getElementById('volume') as unknown as { value: number }).value,
      (document.getElementById('quantity') as unknown as { value: string }).value,
    ]),
    [70, '5'],
  );
});

s('data grid: a cell is edited in place, then a column header click sorts (aria-sort)', async ({ env }) => {
  await env.ok('grid', ['open', `${env.corpus.url}/ag-grid/pages/cars.html`]);
  // Edited before sorting: the grid animates rows to their sorted places, and a box read mid-move misses.
  const cells = await snapshotWith(env, 'grid', by('gridcell', '33850'), "Ford's price cell");
  await env.ok('grid', ['dblclick', refWhere(cells, by('gridcell', '33850'), "Ford's price")]);
  const editing = await snapshotWith(
    env,
    'grid',
    (e) => e.role === 'spinbutton' || e.role === 'textbox',
    'the cell editor',
  );
  await env.ok('grid', [
    'fill',
    refWhere(editing, (e) => e.role === 'spinbutton' || e.role === 'textbox', 'the cell editor'),
    '35000',
  ]);
  await env.ok('grid', ['press', 'Enter']);
  const page = await env.pageOf('/ag-grid/pages/cars.html');
  await until(
    async () => (await page.textContent('#last-edit'))?.trim() === 'Edited price of Ford: 35000',
    'the edit to be committed',
    5_000,
  );
  const snap = await snapshotWith(env, 'grid', by('columnheader', 'Price'), 'the Price column header');
  await env.ok('grid', ['click', refWhere(snap, by('columnheader', 'Price'), 'Price')]);
  assert.is(
    await page.evaluate(() =>
      document.querySelector('[role="columnheader"][col-id="price"]')?.getAttribute('aria-sort'),
    ),
    'ascending',
  );
  assert.is(await page.evaluate(() => document.querySelector('[row-index="0"] [col-id="make"]')?.textContent), 'Fiat');
  await snapshotWith(
    env,
    'grid',
    (e) => by('columnheader', 'Price')(e) && (e as { sort?: string }).sort === 'ascending',
    'the header saying it sorts ascending',
  );
});

s('a tree inside a same-origin iframe is listed (with its frame) and operable', async ({ env }) => {
  await env.ok('frame', ['open', `${env.corpus.url}/iframes/with-tree.html`]);
  const snap = await snapshotWith(env, 'frame', by('treeitem', 'Deciduous'), 'the tree in the frame');
  const entry = (snap.refs as Record<string, Entry>)[
    refWhere(snap, by('treeitem', 'Deciduous'), 'Deciduous').slice(1)
  ]!;
  assert.ok(entry.frame, 'the entry says which frame it is in');
  // A click inside the frame reaches the item (it is selected).
  await env.ok('frame', ['click', refWhere(snap, by('treeitem', 'Non-trees'), 'Non-trees')]);
  const page = await env.pageOf('/iframes/with-tree.html');
  const frame = page.frames().find((f) => f.url().includes('/shoelace/pages/tree.html'))!;
  assert.is(
    await frame.evaluate(
      () =>
        (document.querySelectorAll('sl-tree > sl-tree-item')[2] as unknown as { selected?: boolean } | undefined)
          ?.selected,
    ),
    true,
  );
  // Keys reach an item inside the frame: focus on Coniferous (browser-shell focus), ArrowRight expands it.
  // (browser-shell's focus fails unless the element says it holds the focus.)
  await env.ok('frame', ['focus', refWhere(snap, by('treeitem', 'Coniferous'), 'Coniferous')]);
  await env.ok('frame', ['press', 'ArrowRight']);
  await until(
    () =>
      frame.evaluate(
        () => (document.querySelectorAll('sl-tree > sl-tree-item')[1] as unknown as { expanded?: boolean }).expanded,
      ),
    'Coniferous to expand',
    3_000,
  );
});

s.run();
