// The offline planner on ARIA widgets (issue 21), on pages described the way the accessibility-
// tree page model lists them (role, name, expanded / selected / hasPopup): a menu opened by its
// button then an item chosen, an item chosen from a named menu in one phrase, a tree node
// expanded by the keyboard, a child selected, a date picked in a calendar grid, a select-only
// combobox through browser_select, and honest answers when nothing fits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PageElement } from '../llm-types.ts';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import { dateParts } from '../offline-planner/decide-widget.ts';
import { parseRequest } from '../offline-planner/request-intent.ts';
import { drive, type PageSpec, type World } from './offline-world.ts';

const planner = createOfflinePlanner();
const SITE = 'http://widgets.test';
type El = PageElement & { expanded?: boolean; selected?: boolean; hasPopup?: string };

function widgetWorld() {
  const state = {
    menuOpen: '',
    command: '',
    expanded: new Set<string>(),
    selected: '',
    calendarOpen: false,
    month: 3,
    date: '2024-03-01',
  };
  const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May'];
  const menuItems: Record<string, string[]> = { Edit: ['Cut', 'Copy', 'Uppercase'], View: ['Zoom in', 'Zoom out'] };
  const menuPage = (): PageSpec => {
    const elements: El[] = [
      {
        clickId: 1,
        tag: 'button',
        role: 'button',
        name: 'Edit',
        text: 'Edit',
        hasPopup: 'menu',
        expanded: state.menuOpen === 'Edit',
      },
      {
        clickId: 2,
        tag: 'button',
        role: 'button',
        name: 'View',
        text: 'View',
        hasPopup: 'menu',
        expanded: state.menuOpen === 'View',
      },
    ];
    (menuItems[state.menuOpen] ?? []).forEach((item, i) =>
      elements.push({ clickId: 10 + i, tag: 'sl-menu-item', role: 'menuitem', name: item, text: item }),
    );
    return { title: 'Editor', text: `Last command: ${state.command || 'none'}`, elements };
  };
  const tree: Record<string, string[]> = { Deciduous: ['Birch', 'Maple'], Coniferous: ['Cedar', 'Pine'] };
  const treePage = (): PageSpec => {
    const elements: El[] = [];
    let id = 1;
    for (const [parent, children] of Object.entries(tree)) {
      elements.push({
        clickId: id++,
        tag: 'sl-tree-item',
        role: 'treeitem',
        name: parent,
        expanded: state.expanded.has(parent),
        selected: state.selected === parent,
      });
      if (state.expanded.has(parent))
        for (const child of children)
          elements.push({
            clickId: id++,
            tag: 'sl-tree-item',
            role: 'treeitem',
            name: child,
            selected: state.selected === child,
          });
    }
    return { title: 'Trees', elements };
  };
  const datePage = (): PageSpec => {
    const elements: El[] = [
      { clickId: 1, tag: 'input', role: 'textbox', name: 'Departure date', value: state.date },
      {
        clickId: 2,
        tag: 'button',
        role: 'button',
        name: `Choose date, Selected date is ${state.date}`,
        hasPopup: 'dialog',
      },
    ];
    if (state.calendarOpen) {
      elements.push(
        { clickId: 3, tag: 'button', role: 'button', name: 'Previous month' },
        { clickId: 4, tag: 'button', role: 'button', name: 'Next month' },
      );
      for (let d = 1; d <= 28; d++)
        elements.push({
          clickId: 100 * state.month + d,
          tag: 'button',
          role: 'button',
          name: `${d} ${MONTH_NAMES[state.month - 1]}`,
        });
    }
    return { title: 'Book a trip', elements };
  };
  const selectPage = (): PageSpec => ({
    title: 'Order',
    elements: [
      { clickId: 1, tag: 'sl-select', role: 'combobox', name: 'Flavour', hasPopup: 'listbox', expanded: false } as El,
    ],
  });
  const world: World = {
    pages: {},
    onClick(url, element) {
      if (url.endsWith('/menu')) {
        if (element.role === 'button') state.menuOpen = element.name!;
        else if (element.role === 'menuitem') [state.command, state.menuOpen] = [element.name!, ''];
        return { page: menuPage() };
      }
      if (url.endsWith('/tree') && element.role === 'treeitem')
        return ((state.selected = element.name!), { page: treePage() });
      if (url.endsWith('/date')) {
        if (element.clickId === 2) state.calendarOpen = true;
        else if (element.clickId === 3 || element.clickId === 4) state.month += element.clickId === 4 ? 1 : -1;
        else if (element.clickId > 100) {
          const [month, day] = [Math.floor(element.clickId / 100), element.clickId % 100];
          [state.date, state.calendarOpen] = [
            `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
            false,
          ];
        }
        return { page: datePage() };
      }
      return undefined;
    },
    onPress(url, element, key) {
      if (!url.endsWith('/tree') || element.role !== 'treeitem') return undefined;
      if (key === 'ArrowRight' && tree[element.name!]) state.expanded.add(element.name!);
      if (key === 'ArrowLeft') state.expanded.delete(element.name!);
      return { page: treePage() };
    },
  };
  Object.defineProperties(world.pages, {
    [`${SITE}/menu`]: { get: menuPage, enumerable: true, configurable: true },
    [`${SITE}/tree`]: { get: treePage, enumerable: true },
    [`${SITE}/date`]: { get: datePage, enumerable: true },
    [`${SITE}/select`]: { get: selectPage, enumerable: true },
  });
  return { world, state };
}

const s = suite('offline planner: ARIA widgets by role');

s('"open the Edit menu and choose Uppercase": the menu button, then the menu item', async () => {
  const { world, state } = widgetWorld();
  const run = await drive(planner, world, `open ${SITE}/menu, open the Edit menu and choose Uppercase`);
  assert.equal(run.toolCalls.slice(1), [
    { name: 'browser_click', arguments: { clickId: 1 } },
    { name: 'browser_click', arguments: { clickId: 12 } },
  ]);
  assert.is(state.command, 'Uppercase');
  assert.match(run.answer, /done/);
});

s('"choose Zoom out from the View menu": opens the named menu first (a preparing step), then chooses', async () => {
  const { world, state } = widgetWorld();
  const run = await drive(planner, world, `open ${SITE}/menu and choose "Zoom out" from the View menu`);
  assert.equal(run.toolCalls.slice(1), [
    { name: 'browser_click', arguments: { clickId: 2 } },
    { name: 'browser_click', arguments: { clickId: 11 } },
  ]);
  assert.is(state.command, 'Zoom out');
  assert.not.match(run.answer, /not done/i);
});

s('"expand Coniferous and select Pine": ArrowRight on the tree item, then a click on the child', async () => {
  const { world, state } = widgetWorld();
  const run = await drive(planner, world, `open ${SITE}/tree, expand Coniferous and select Pine`);
  assert.equal(run.toolCalls.slice(1), [
    { name: 'browser_press', arguments: { clickId: 2, key: 'ArrowRight' } },
    { name: 'browser_click', arguments: { clickId: 4 } },
  ]);
  assert.ok(state.expanded.has('Coniferous'));
  assert.is(state.selected, 'Pine');
});

s('an expanded node is not toggled shut by "expand"; "collapse" uses ArrowLeft', async () => {
  const { world, state } = widgetWorld();
  state.expanded.add('Deciduous');
  const again = await drive(planner, world, `open ${SITE}/tree and expand Deciduous`);
  assert.equal(again.toolCalls.slice(1), []);
  assert.match(again.answer, /already expanded/);
  const shut = await drive(planner, world, `open ${SITE}/tree and collapse the Deciduous node`);
  assert.equal(shut.toolCalls.slice(1), [{ name: 'browser_press', arguments: { clickId: 1, key: 'ArrowLeft' } }]);
  assert.not.ok(state.expanded.has('Deciduous'));
});

s('"pick 15 March 2024 as the departure date": opens the calendar, then clicks the day', async () => {
  const { world, state } = widgetWorld();
  const run = await drive(planner, world, `open ${SITE}/date and pick 15 March 2024 as the departure date`);
  assert.equal(run.toolCalls.slice(1), [
    { name: 'browser_click', arguments: { clickId: 2 } },
    { name: 'browser_click', arguments: { clickId: 315 } },
  ]);
  assert.is(state.date, '2024-03-15');
});

s(
  'a date in another month: the calendar is moved month by month (preparing steps), then the day is picked',
  async () => {
    const { world, state } = widgetWorld();
    const run = await drive(planner, world, `open ${SITE}/date and pick May 2nd as the departure date`);
    assert.equal(run.toolCalls.slice(1), [
      { name: 'browser_click', arguments: { clickId: 2 } },
      { name: 'browser_click', arguments: { clickId: 4 } },
      { name: 'browser_click', arguments: { clickId: 4 } },
      { name: 'browser_click', arguments: { clickId: 502 } },
    ]);
    assert.is(state.date, '2024-05-02');
    const back = await drive(
      planner,
      widgetWorld().world,
      `open ${SITE}/date and pick 3 January as the departure date`,
    );
    assert.equal(back.toolCalls.slice(1, 4), [
      { name: 'browser_click', arguments: { clickId: 2 } },
      { name: 'browser_click', arguments: { clickId: 3 } },
      { name: 'browser_click', arguments: { clickId: 3 } },
    ]);
  },
);

s('a select-only combobox is chosen with browser_select (which opens it)', async () => {
  const { world } = widgetWorld();
  const run = await drive(planner, world, `open ${SITE}/select and choose Chocolate in the Flavour select`);
  assert.equal(run.toolCalls.slice(1), [{ name: 'browser_select', arguments: { clickId: 1, values: ['Chocolate'] } }]);
});

s(
  'a menu button that does not say it has a popup (the state sits on a wrapper) is still opened when the request names it',
  async () => {
    const { world, state } = widgetWorld();
    const plain = Object.getOwnPropertyDescriptor(world.pages, `${SITE}/menu`)!.get!;
    const strip = (page: PageSpec): PageSpec => ({
      ...page,
      elements: page.elements.map(({ hasPopup: _h, expanded: _e, ...rest }: El) => rest),
    });
    Object.defineProperty(world.pages, `${SITE}/menu`, { get: () => strip(plain()), enumerable: true });
    const onClick = world.onClick!;
    world.onClick = (url, element) => {
      const out = onClick(url, element);
      return out?.page ? { page: strip(out.page) } : out;
    };
    const run = await drive(planner, world, `open ${SITE}/menu and choose "Zoom out" from the View menu`);
    assert.equal(run.toolCalls.slice(1), [
      { name: 'browser_click', arguments: { clickId: 2 } },
      { name: 'browser_click', arguments: { clickId: 11 } },
    ]);
    assert.is(state.command, 'Zoom out');
  },
);

s('an item no widget holds: an honest answer, and no endless re-opening of a menu', async () => {
  const { world } = widgetWorld();
  const run = await drive(planner, world, `open ${SITE}/menu and choose Paste from the Edit menu`);
  assert.equal(run.toolCalls.slice(1), [{ name: 'browser_click', arguments: { clickId: 1 } }]);
  assert.match(run.answer, /could not|no option|not find/i);
});

s('request reading: expand / collapse, "as the <field>", the trailing "menu" of a click target', () => {
  assert.equal(
    parseRequest('expand the Coniferous node').kind === 'browser' &&
      (parseRequest('expand the Coniferous node') as any).actions,
    [{ kind: 'expand', target: 'Coniferous', want: 'open' }],
  );
  assert.equal((parseRequest('collapse Deciduous') as any).actions, [
    { kind: 'expand', target: 'Deciduous', want: 'close' },
  ]);
  assert.equal((parseRequest('pick 15 March 2024 as the departure date') as any).actions, [
    { kind: 'select', option: '15 March 2024', field: 'departure date' },
  ]);
  assert.equal((parseRequest('click the File menu') as any).actions, [{ kind: 'click', target: 'File' }]);
  assert.equal((parseRequest('click the Price column header') as any).actions, [{ kind: 'click', target: 'Price' }]);
  assert.equal(dateParts('15 March 2024'), { day: 15, month: 3, year: 2024 });
  assert.equal(dateParts('March 15th'), { day: 15, month: 3 });
  assert.equal(dateParts('2024-03-15'), { day: 15, month: 3, year: 2024 });
  assert.is(dateParts('Chocolate'), null);
});

s.run();
