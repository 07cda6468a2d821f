// Eval tasks on widgets nobody here wrote: Shoelace's and Fluent UI's web components (shadow DOM,
// ElementInternals) and Duet's date picker, vendored in fixtures/corpus, plus same-origin iframes. Each verdict reads
// the component's own state from the page (a tree item's `expanded`, a select's `value`, the
// date input's value, the page's own status line), never the agent's words.
import type { Frame, Page } from 'playwright-core';
import type { EvalTask } from './tasks.ts';

const shoelace = (base: string, page: string) => `${base}/shoelace/pages/${page}.html`;

/** The frame (or the page's main frame) whose URL contains `part` (a path: with-tree.html contains tree.html). */
const frameOf = (page: Page, part: string): Frame =>
  page.frames().find((f) => f.url().includes(part)) ?? page.mainFrame();

/** A tree item's own state, found by its own label (its text before any child item). */
function treeItemState(frame: Frame, label: string): Promise<{ found: boolean; expanded: boolean; selected: boolean }> {
  // No named inner functions in evaluate: tsx would wrap them in a `__name` helper the page lacks.
  return frame.evaluate((wanted) => {
    const item = Array.from(document.querySelectorAll('sl-tree-item')).find(
      (i) =>
        Array.from(i.childNodes)
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.textContent ?? '')
          .join('')
          .trim() === wanted,
    ) as (Element & { expanded?: boolean; selected?: boolean }) | undefined;
    return { found: !!item, expanded: item?.expanded === true, selected: item?.selected === true };
  }, label);
}

const lastCommand = async (page: Page) => (await page.textContent('#last-command'))?.trim() ?? '';

export const widgetTasks: EvalTask[] = [
  {
    id: 'shoelace: open a menu and choose an item',
    site: 'widgets',
    messages: (b) => [`Open ${shoelace(b, 'menu')}, open the Edit menu and choose Uppercase`],
    check: async (page) => {
      const text = await lastCommand(page);
      return { ok: text === 'Last command: Uppercase', detail: text };
    },
  },
  {
    id: 'shoelace: choose an item from a named menu',
    site: 'widgets',
    messages: (b) => [`Open ${shoelace(b, 'menu')} and choose "Zoom out" from the View menu`],
    check: async (page) => {
      const text = await lastCommand(page);
      return { ok: text === 'Last command: Zoom out', detail: text };
    },
  },
  {
    id: 'shoelace: expand a tree node',
    site: 'widgets',
    messages: (b) => [`Open ${shoelace(b, 'tree')} and expand Deciduous`],
    check: async (page) => {
      const state = await treeItemState(page.mainFrame(), 'Deciduous');
      return { ok: state.expanded, detail: JSON.stringify(state) };
    },
  },
  {
    id: 'shoelace: expand a tree node and select a child',
    site: 'widgets',
    messages: (b) => [`Open ${shoelace(b, 'tree')}, expand Coniferous and select Pine`],
    check: async (page) => {
      const pine = await treeItemState(page.mainFrame(), 'Pine');
      return { ok: pine.selected, detail: `Pine ${JSON.stringify(pine)}` };
    },
  },
  {
    id: 'shoelace: choose from a select-only combobox',
    site: 'widgets',
    messages: (b) => [`Open ${shoelace(b, 'select')} and choose Chocolate in the Flavour select`],
    check: async (page) => {
      const value = await page.evaluate(
        () => (document.getElementById('flavour') as unknown as { value: string }).value,
      );
      return { ok: value === 'chocolate', detail: `flavour = ${JSON.stringify(value)}` };
    },
  },
  {
    id: 'shoelace: switch tabs',
    site: 'widgets',
    messages: (b) => [`Open ${shoelace(b, 'tabs')} and click the Privacy tab`],
    check: async (page) => {
      const active = await page.evaluate(() => document.querySelector('sl-tab[active]')?.textContent?.trim() ?? null);
      return { ok: active === 'Privacy', detail: `active tab ${JSON.stringify(active)}` };
    },
  },
  {
    id: 'shoelace: fill a modal dialog',
    site: 'widgets',
    messages: (b) => [
      `Open ${shoelace(b, 'dialog')} and click "Rename account"`,
      'Type "Grace" into the New name field',
      'Click Save',
    ],
    check: async (page) => {
      const name = (await page.textContent('#account-name'))?.trim();
      return { ok: name === 'Grace', detail: `account name ${JSON.stringify(name)}` };
    },
  },
  {
    id: 'duet: pick a date in the calendar',
    site: 'widgets',
    messages: (b) => [`Open ${b}/duet-date-picker/pages/date.html and pick 15 March 2024 as the departure date`],
    check: async (page) => {
      const value = await page.evaluate(
        () => (document.querySelector('input[name="departure"]') as HTMLInputElement | null)?.value ?? null,
      );
      return { ok: value === '2024-03-15', detail: `departure = ${JSON.stringify(value)}` };
    },
  },
  {
    id: 'autocomplete: type and choose a suggestion',
    site: 'widgets',
    messages: (b) => [
      `Open ${b}/accessible-autocomplete/examples/form-single.html, type "Fran" into the last location field and choose France`,
    ],
    check: async (page) => {
      // enhanceSelectElement hides the <select> (kept as the form's value) and shows the combobox input.
      const value = await page.evaluate(
        () => (document.querySelector('select[name="last-location"]') as HTMLSelectElement | null)?.value ?? null,
      );
      const shown = await page.evaluate(
        () => (document.getElementById('last-location') as HTMLInputElement | null)?.value ?? null,
      );
      return {
        ok: value === 'country:FR' && shown === 'France',
        detail: `select ${JSON.stringify(value)}, field ${JSON.stringify(shown)}`,
      };
    },
  },
  {
    id: 'tablesort: sort a table by a column',
    site: 'widgets',
    messages: (b) => [`Open ${b}/tablesort/pages/prices.html and click the Price column header`],
    check: async (page) => {
      const state = await page.evaluate(() => ({
        sort: document.querySelectorAll('#teas th')[1]?.getAttribute('aria-sort') ?? null,
        first: document.querySelector('#teas tbody tr td')?.textContent ?? null,
      }));
      return { ok: state.sort === 'ascending' && state.first === 'Rooibos', detail: JSON.stringify(state) };
    },
  },
  {
    id: 'ag-grid: sort a data grid by a column',
    site: 'widgets',
    messages: (b) => [`Open ${b}/ag-grid/pages/cars.html and click the Price column header`],
    check: async (page) => {
      const state = await page.evaluate(() => ({
        sort: document.querySelector('[role="columnheader"][col-id="price"]')?.getAttribute('aria-sort') ?? null,
        first: document.querySelector('[row-index="0"] [col-id="make"]')?.textContent ?? null,
      }));
      return { ok: state.sort === 'ascending' && state.first === 'Fiat', detail: JSON.stringify(state) };
    },
  },
  {
    id: 'menubar: choose an item from a submenu',
    site: 'widgets',
    messages: (b) => [`Open ${b}/aria-patterns/menubar.html and choose Large from the Style menu`],
    check: async (page) => {
      const state = await page.evaluate(() => ({
        last: document.getElementById('last')?.textContent ?? null,
        large: document.querySelectorAll('[role="menuitemradio"]')[1]?.getAttribute('aria-checked') ?? null,
      }));
      return { ok: state.last === 'last:Large' && state.large === 'true', detail: JSON.stringify(state) };
    },
  },
  {
    id: 'grid combobox: choose a row of the pop-up',
    site: 'widgets',
    messages: (b) => [`Open ${b}/aria-patterns/grid-combobox.html and choose Cherry in Food`],
    check: async (page) => {
      const state = await page.evaluate(() => ({
        value: (document.getElementById('cb-input') as HTMLInputElement | null)?.value ?? null,
        chosen: document.getElementById('chosen')?.textContent ?? null,
      }));
      return { ok: state.value === 'Cherry' && state.chosen === 'chosen:Cherry', detail: JSON.stringify(state) };
    },
  },
  {
    // Fluent UI's items get their roles through ElementInternals: only the browser's own tree has them.
    id: 'fluent: open a menu and choose an item',
    site: 'widgets',
    messages: (b) => [`Open ${b}/fluent/pages/widgets.html, open the Edit menu and choose Paste`],
    check: async (page) => {
      const last = (await page.textContent('#last'))?.trim() ?? '';
      return { ok: last === 'Paste', detail: `last: ${JSON.stringify(last)}` };
    },
  },
  {
    id: 'fluent: choose an option of a combobox',
    site: 'widgets',
    messages: (b) => [`Open ${b}/fluent/pages/widgets.html and choose Cherry in Fruit`],
    check: async (page) => {
      const state = await page.evaluate(() => ({
        chosen: document.getElementById('chosen')?.textContent ?? null,
        value: (document.getElementById('fruit') as (Element & { value?: string }) | null)?.value ?? null,
      }));
      return { ok: state.chosen === 'cherry' && state.value === 'cherry', detail: JSON.stringify(state) };
    },
  },
  {
    id: 'iframe: expand a tree node inside a frame',
    site: 'widgets',
    messages: (b) => [`Open ${b}/iframes/with-tree.html and expand Coniferous`],
    check: async (page) => {
      const state = await treeItemState(frameOf(page, 'pages/tree.html'), 'Coniferous');
      return { ok: state.expanded, detail: JSON.stringify(state) };
    },
  },
  {
    id: 'iframe: press a button in a feed inside a frame',
    site: 'widgets',
    messages: (b) => [`Open ${b}/iframes/with-feed.html and click the second "Like"`],
    check: async (page) => {
      const pressed = await frameOf(page, 'iframes/feed.html').evaluate(() =>
        Array.from(document.querySelectorAll('.like'), (b) => b.getAttribute('aria-pressed')),
      );
      return {
        ok: JSON.stringify(pressed) === '["false","true","false"]',
        detail: `aria-pressed ${JSON.stringify(pressed)}`,
      };
    },
  },
];
