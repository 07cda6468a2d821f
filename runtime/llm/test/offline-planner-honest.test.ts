// The offline planner on corpus-shaped pages (TodoMVC, MDN forms): it reports what it could not
// do and never answers "done" then, matches whole labels with a score, says what it actually
// clicked, adds list items, checks controls, chooses options and extracts any table.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PageElement } from '../llm-types.ts';
import { findClickTarget } from '../offline-planner/element-match.ts';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import { extractTables } from '../offline-planner/page-tables.ts';
import { parseRequest } from '../offline-planner/request-intent.ts';
import { drive, type World } from './offline-world.ts';

const planner = createOfflinePlanner();
const TODO = 'http://todo.test/';
const FORMS = 'http://forms.test/';

/** TodoMVC as the dom index lists it once hidden toggles are indexed: toggle, title label, destroy button per todo. */
const todoElements: PageElement[] = [
  { clickId: 1, tag: 'input', type: 'text', placeholder: 'What needs to be done?' },
  { clickId: 2, tag: 'input', type: 'checkbox', text: 'Mark all as complete' },
  { clickId: 3, tag: 'input', type: 'checkbox', checked: false, hiddenControl: true },
  { clickId: 4, tag: 'label', text: 'Walk the dog' },
  { clickId: 5, tag: 'button', text: '×' },
  { clickId: 6, tag: 'input', type: 'checkbox', checked: false, hiddenControl: true },
  { clickId: 7, tag: 'label', text: 'Buy milk' },
  { clickId: 8, tag: 'button', text: '×' },
  { clickId: 9, tag: 'a', text: 'All', href: `${TODO}#/` },
  { clickId: 10, tag: 'a', text: 'Active', href: `${TODO}#/active` },
  { clickId: 11, tag: 'a', text: 'Completed', href: `${TODO}#/completed` },
  { clickId: 12, tag: 'button', text: 'Clear completed' },
];
const todoWorld = (elements = todoElements): World => ({
  pages: { [TODO]: { title: 'TodoMVC', text: '# todos\n\n- Walk the dog\n- Buy milk\n\n2 items left', elements } },
});

const formsWorld: World = {
  pages: {
    [`${FORMS}select`]: {
      title: 'Select',
      text: '',
      elements: [
        {
          clickId: 1,
          tag: 'select',
          name: 'pet',
          multiple: true,
          options: [
            { value: 'none', label: '-- Please choose one or more --', selected: true },
            { value: 'dog', label: 'Dog' },
            { value: 'cat', label: 'Cat' },
            { value: 'hamster', label: 'Hamster', disabled: true },
          ],
        },
      ],
    },
    [`${FORMS}select-bare`]: { title: 'Select', text: '', elements: [{ clickId: 1, tag: 'select', name: 'pet' }] },
    [`${FORMS}radio`]: {
      title: 'Fruit juice size',
      text: 'Fruit juice size\n\nSmall\n\nMedium\n\nLarge',
      elements: ['Small', 'Medium', 'Large'].map((text, i) => ({
        clickId: i + 1,
        tag: 'input',
        type: 'radio',
        name: 'size',
        text,
      })),
    },
    [`${FORMS}checkbox`]: {
      title: 'Checkboxes',
      text: 'I like cherry\nI like banana',
      elements: [
        { clickId: 1, tag: 'input', type: 'checkbox', text: 'I like cherry' },
        { clickId: 2, tag: 'input', type: 'checkbox', text: 'I like banana' },
      ],
    },
    [`${FORMS}table`]: {
      title: 'Planets',
      text: '# Planets\n\nInner planets\n\n| Planet | Moons | Day length |\n| --- | --- | --- |\n| Mercury | 0 | 4222.6 h |\n| Earth | 1 | 24 h |\n\nTabbed data\nName\tRole\nAda\tEngineer\nGrace\tAdmiral',
      elements: [],
    },
  },
};

const honest = suite('offline planner: honest about what it did');

honest('a dropped part is reported and the answer never says done', async () => {
  const run = await drive(
    planner,
    todoWorld(),
    `open ${TODO}, add a todo called "Feed the cat" and then double-click it`,
  );
  assert.equal(run.toolCalls, [
    { name: 'browser_open', arguments: { url: TODO } },
    { name: 'browser_type', arguments: { clickId: 1, text: 'Feed the cat', submit: true } },
  ]);
  assert.not.match(run.answer, /done\./);
  assert.match(run.answer, /I did only part of this request/);
  assert.match(run.answer, /Not done:\n- "double-click it": the offline planner does not plan double-clicks/);
  // This page does not react to Enter: the answer says what the browser saw, never "submitted".
  assert.match(
    run.answer,
    /Typed "Feed the cat" into "What needs to be done\?" \(element 1\) and pressed Enter \(the page saw no form submit and did not navigate\)/,
  );
  assert.not.match(run.answer, /submitted/);
});

honest('an unreadable clause is reported too', () => {
  const intent = parseRequest(`open ${TODO}, click Active and frobnicate the widgets`);
  assert.is(intent.kind, 'browser');
  assert.equal(intent.kind === 'browser' && intent.dropped, [
    { text: 'frobnicate the widgets', reason: 'I could not map this part to an action I know' },
  ]);
  assert.equal(parseRequest(`open ${TODO} and summarise it`), {
    kind: 'browser',
    url: TODO,
    actions: [],
    answer: 'summary',
  });
});

honest('a target the page lacks: what was done before and what is left are listed', async () => {
  const run = await drive(planner, todoWorld(), 'click Active, then click "Archive" and click Completed', {
    startUrl: TODO,
  });
  assert.equal(run.toolCalls, [{ name: 'browser_click', arguments: { clickId: 10 } }]);
  assert.match(run.answer, /I could not find an element matching "Archive"/);
  assert.match(run.answer, /Done before that:\n- Clicked "Active" \(element 10/);
  assert.match(run.answer, /Also not done:\n- click "Completed"/);
});

honest.run();

const matching = suite('offline planner: whole-label matching');

matching('"All" never matches "Mark all as complete"; exact > same words > prefix', () => {
  assert.is(findClickTarget(todoElements, 'All')!.element.clickId, 9);
  assert.is(
    findClickTarget(
      todoElements.filter((e) => e.clickId !== 9),
      'All',
    ),
    undefined,
  );
  assert.is(
    findClickTarget(todoElements, 'completed')!.element.clickId,
    11,
    'exact "Completed", not "Clear completed"',
  );
  assert.is(findClickTarget(todoElements, 'the clear completed')!.element.clickId, 12);
  const els: PageElement[] = [
    { clickId: 1, tag: 'button', text: 'Add to cart – $5' },
    { clickId: 2, tag: 'button', text: 'Cart' },
  ];
  assert.is(findClickTarget(els, 'Add to cart')!.element.clickId, 1, 'prefix');
  assert.is(findClickTarget(els, 'add')!.element.clickId, 1, 'a word prefix of the label');
  assert.is(
    findClickTarget([{ clickId: 1, tag: 'a', text: 'Read the article' }], 'article'),
    undefined,
    'a shared word alone never matches',
  );
});

matching('the answer names what was clicked, and the request when they differ', async () => {
  const world: World = {
    pages: {
      [TODO]: { title: 'Shop', text: 'Shop', elements: [{ clickId: 4, tag: 'button', text: 'Add to cart – $5' }] },
    },
  };
  const run = await drive(planner, world, 'click Add to cart', { startUrl: TODO });
  assert.match(run.answer, /- Clicked "Add to cart – \$5" for "Add to cart" \(element 4/);
});

matching(
  'a target outside the budgeted page context is looked up with browser_list_elements, then clicked',
  async () => {
    const toc = [{ clickId: 1, tag: 'a', text: '6. The VALUES clause', href: '#the_values_clause' }];
    const late = [{ clickId: 700, tag: 'a', text: 'VALUES clause', href: '#values' }];
    const world: World = {
      pages: {
        [TODO]: {
          title: 'SELECT',
          text: 'Overview',
          elements: toc,
          leftOut: late,
          truncated: true,
          paging: { textOffset: 0, textEnd: 8, textTotal: 8, elementsShown: 1, elementsTotal: 2, howTo: '' },
        },
      },
    };
    const run = await drive(planner, world, 'click "VALUES clause"', { startUrl: TODO });
    assert.equal(run.toolCalls, [
      { name: 'browser_list_elements', arguments: { query: 'VALUES clause' } },
      { name: 'browser_click', arguments: { clickId: 700 } },
    ]);
    assert.match(run.answer, /Clicked "VALUES clause" \(element 700/);
    const missing = await drive(planner, world, 'click "WINDOW clause"', { startUrl: TODO });
    assert.equal(
      missing.toolCalls.map((c) => c.name),
      ['browser_list_elements'],
    );
    assert.match(missing.answer, /could not find an element matching "WINDOW clause"/);
  },
);

matching.run();

const todo = suite('offline planner: lists and controls');

todo('"add a todo called X" types X into the new-item field and submits; several items in one request', async () => {
  const one = await drive(planner, todoWorld(), 'add a todo called Buy bread', { startUrl: TODO });
  assert.equal(one.toolCalls, [{ name: 'browser_type', arguments: { clickId: 1, text: 'Buy bread', submit: true } }]);
  assert.match(one.answer, /done\./);
  const three = await drive(planner, todoWorld(), 'add three todos: "Alpha", "Beta" and "Gamma"', { startUrl: TODO });
  assert.equal(
    three.toolCalls.map((c) => c.arguments.text),
    ['Alpha', 'Beta', 'Gamma'],
  );
  assert.ok(three.toolCalls.every((c) => c.name === 'browser_type' && c.arguments.submit === true));
});

todo('"mark X as complete" checks the control next to X; "mark all as complete" is a label of its own', async () => {
  const run = await drive(planner, todoWorld(), 'mark Buy milk as complete', { startUrl: TODO });
  assert.equal(run.toolCalls, [{ name: 'browser_check', arguments: { clickId: 6, checked: true } }]);
  assert.match(run.chat, /checking "input #6" \(element 6\) next to "Buy milk"/);
  const all = await drive(planner, todoWorld(), 'mark all as complete', { startUrl: TODO });
  assert.equal(all.toolCalls, [{ name: 'browser_check', arguments: { clickId: 2, checked: true } }]);
  const un = await drive(planner, formsWorld, 'uncheck "I like banana"', { startUrl: `${FORMS}checkbox` });
  assert.equal(un.toolCalls, [{ name: 'browser_check', arguments: { clickId: 2, checked: false } }]);
  // React's TodoMVC names its toggle-all "Toggle All Input": "all" must not borrow the checkbox
  // next to the "All" filter link (a link is a control of its own, not a name).
  const react = todoElements
    .map((e) => (e.clickId === 2 ? { ...e, text: 'Toggle All Input' } : e))
    .filter((e) => e.clickId !== 5 && e.clickId !== 8);
  const reordered = [
    ...react.filter((e) => e.clickId !== 9),
    { clickId: 13, tag: 'input', type: 'checkbox' },
    react.find((e) => e.clickId === 9)!,
  ];
  const allRun = await drive(planner, todoWorld(reordered), 'mark all as complete', { startUrl: TODO });
  assert.equal(
    allRun.toolCalls,
    [{ name: 'browser_check', arguments: { clickId: 2, checked: true } }],
    'the select-all checkbox, not the one beside the "All" link',
  );
  const noSelectAll = reordered.filter((e) => e.clickId !== 2);
  const noneRun = await drive(planner, todoWorld(noSelectAll), 'mark all as complete', { startUrl: TODO });
  assert.equal(noneRun.toolCalls, []);
  assert.match(noneRun.answer, /could not find a checkbox, radio button or switch for "all"/);
  assert.match(all.answer, /- Clicked "Mark all as complete" \(element 2|- Checked "Mark all as complete" \(element 2/);
  const none = await drive(planner, todoWorld(), 'check "Water the plants"', { startUrl: TODO });
  assert.equal(none.toolCalls, []);
  assert.match(none.answer, /could not find a checkbox, radio button or switch for "Water the plants"/);
});

todo(
  '"choose X in the select": by option label or value; unknown and disabled options are refused; radios are checked',
  async () => {
    const cat = await drive(planner, formsWorld, 'choose Cat in the pet select', { startUrl: `${FORMS}select` });
    assert.equal(cat.toolCalls, [{ name: 'browser_select', arguments: { clickId: 1, values: ['cat'] } }]);
    assert.match(cat.answer, /Chose "cat"/);
    const bare = await drive(planner, formsWorld, 'select Dog', { startUrl: `${FORMS}select-bare` });
    assert.equal(bare.toolCalls, [{ name: 'browser_select', arguments: { clickId: 1, values: ['Dog'] } }]);
    const fish = await drive(planner, formsWorld, 'choose Goldfish in the select', { startUrl: `${FORMS}select` });
    assert.equal(fish.toolCalls, []);
    assert.match(fish.answer, /has no option "Goldfish". Its options: .*"Dog", "Cat"/);
    const hamster = await drive(planner, formsWorld, 'pick Hamster from the pet list', { startUrl: `${FORMS}select` });
    assert.equal(hamster.toolCalls, []);
    assert.match(hamster.answer, /is disabled/);
    const medium = await drive(planner, formsWorld, 'choose Medium', { startUrl: `${FORMS}radio` });
    assert.equal(medium.toolCalls, [{ name: 'browser_check', arguments: { clickId: 2, checked: true } }]);
  },
);

todo('"set the house price to N" types into the range input named so; action words are not answer cues', async () => {
  const world: World = {
    pages: {
      [FORMS]: {
        title: 'Range',
        text: 'Choose a maximum house price: 250000',
        elements: [
          { clickId: 2, tag: 'input', type: 'range', text: 'Choose a maximum house price:' },
          { clickId: 3, tag: 'button', text: 'Submit' },
        ],
      },
    },
  };
  const intent = parseRequest('set the maximum house price to 300000');
  assert.is(intent.kind === 'browser' && intent.answer, 'report', 'not a price table');
  const run = await drive(planner, world, 'set the maximum house price to 300000', { startUrl: FORMS });
  assert.equal(run.toolCalls, [{ name: 'browser_type', arguments: { clickId: 2, text: '300000' } }]);
  assert.not.match(run.answer, /prices/);
});

todo.run();

const tables = suite('offline planner: any table');

tables('Markdown and tab-separated tables are found and answered as tables', async () => {
  const found = extractTables(formsWorld.pages[`${FORMS}table`]!.text!);
  assert.equal(
    found.map((t) => [t.caption, t.header, t.rows.length]),
    [
      ['Inner planets', ['Planet', 'Moons', 'Day length'], 2],
      ['Tabbed data', ['Name', 'Role'], 2],
    ],
  );
  const run = await drive(planner, formsWorld, 'extract the table', { startUrl: `${FORMS}table` });
  assert.match(run.answer, /Found 2 tables/);
  assert.match(
    run.answer,
    /\| Planet \| Moons \| Day length \|\n\| --- \| --- \| --- \|\n\| Mercury \| 0 \| 4222\.6 h \|/,
  );
  assert.match(run.answer, /\| Ada \| Engineer \|/);
  assert.equal(extractTables('no table here\njust text'), []);
});

tables.run();
