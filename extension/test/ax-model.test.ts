// The page model built from Chrome's accessibility tree (background/ax-model.ts), on trees
// recorded from Chromium for pages/aria-widgets.html (test/ax/aria-widgets.ax.json), and the
// stable refs element-refs.ts gives its nodes.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { axModel, type AxFrameTree } from '../background/ax-model.ts';
import type { AxNode } from '../background/ax-tree.ts';
import { createElementRefs } from '../background/element-refs.ts';

const recorded = JSON.parse(readFileSync(new URL('./ax/aria-widgets.ax.json', import.meta.url), 'utf8')) as {
  mainFrameId: string;
  childFrameId: string;
  main: AxNode[];
  child: AxNode[];
  modal: AxNode[];
};
const iframeOwner = recorded.main.find((n) => n.role?.value === 'Iframe')!.backendDOMNodeId!;
const frames = (main: AxNode[]): AxFrameTree[] => [
  { frameId: recorded.mainFrameId, nodes: main },
  { frameId: recorded.childFrameId, nodes: recorded.child, ownerBackendId: iframeOwner, url: 'about:srcdoc' },
];
const summary = (model: ReturnType<typeof axModel>) =>
  model.entries
    .filter((e) => !e.behindModal)
    .map((e) => `${e.element.role}:${e.element.text ?? e.element.label ?? ''}`);

/** A tree node whose backend node id is its own id. */
const node = (nodeId: string, role: string, name: string, extra: Partial<AxNode> = {}): AxNode => ({
  nodeId,
  ignored: false,
  role: { type: 'role', value: role },
  name: { type: 'computedString', value: name },
  backendDOMNodeId: Number(nodeId),
  ...extra,
});

const model = suite('axModel');

model('lists items that are not tab stops, in document order, with their own names and states', () => {
  const { entries, modal } = axModel(frames(recorded.main));
  assert.is(modal, undefined);
  const byName = (name: string) => entries.find((e) => (e.element.text ?? e.element.label) === name)!.element;
  assert.equal(summary(axModel(frames(recorded.main))).slice(0, 8), [
    'button:Text size',
    'treeitem:src',
    'treeitem:index.ts',
    'treeitem:lib',
    'checkbox:All toppings',
    'button:Bold',
    'gridcell:2',
    'gridcell:3',
  ]);
  assert.is(byName('src').expanded, true, 'a tree item is named by its own text, not its subtree');
  assert.is(byName('lib').level, 2);
  assert.is(byName('All toppings').checked, 'mixed');
  assert.is(byName('Bold').pressed, true);
  assert.is(byName('Text size').hasPopup, 'menu');
  assert.is(byName('Volume').valueNow, 30);
  assert.is(byName('City').tag, 'input');
  assert.is(byName('City').role, 'combobox');
  assert.ok(!entries.some((e) => e.element.text === 'util.ts'), 'hidden nodes are not listed');
  assert.ok(!entries.some((e) => e.element.text === 'Secret'), 'a link in a closed <details> is not listed');
  const combobox = entries.find((e) => e.element.role === 'combobox' && e.element.value === 'Apple');
  assert.ok(combobox, 'a select-only combobox carries its value');
});

model('a same-origin frame is inlined where its <iframe> sits and its entries name the frame', () => {
  const names = summary(axModel(frames(recorded.main)));
  assert.ok(names.indexOf('button:Inner button') === names.indexOf('button:Shadow action') + 1, names.join(', '));
  const inner = axModel(frames(recorded.main)).entries.find((e) => e.element.text === 'Inner button')!;
  assert.is(inner.frameId, recorded.childFrameId);
  assert.is(inner.element.frame, 'Inner frame');
  assert.ok(
    !summary(axModel(frames(recorded.main).slice(0, 1))).includes('button:Inner button'),
    'without the frame tree nothing is made up',
  );
});

model('an open modal scopes the listing; what is behind it keeps a flagged entry', () => {
  const scoped = axModel(frames(recorded.modal));
  assert.equal(scoped.modal, { role: 'alertdialog', name: 'Delete your account?' });
  assert.equal(summary(scoped), ['button:Cancel', 'button:Delete']);
  assert.ok(scoped.entries.find((e) => e.element.text === 'Behind the dialog')?.behindModal);
});

model('DOM attributes the tree lacks (aria-sort, aria-current, target) come from extras', () => {
  const header = recorded.main.find(
    (n) => n.role?.value === 'columnheader' && n.name?.value === 'Mo',
  )!.backendDOMNodeId!;
  const link = recorded.main.find((n) => n.role?.value === 'link')!.backendDOMNodeId!;
  const plain = axModel(frames(recorded.main));
  assert.ok(
    !plain.entries.some((e) => e.backendId === header),
    'a header that is neither sortable nor focusable is not listed',
  );
  const { entries } = axModel(
    frames(recorded.main),
    new Map([
      [header, { sort: 'ascending' as const }],
      [link, { current: 'page', target: '_blank' }],
    ]),
  );
  assert.is(entries.find((e) => e.backendId === header)?.element.sort, 'ascending');
  const home = entries.find((e) => e.backendId === link)!.element;
  assert.equal([home.current, home.target, home.tag], ['page', '_blank', 'a']);
  const city = recorded.main.find((n) => n.name?.value === 'City')!.backendDOMNodeId!;
  const asPassword = axModel(frames(recorded.main), new Map([[city, { type: 'password' }]])).entries.find(
    (e) => e.backendId === city,
  )!.element;
  assert.equal(
    [asPassword.tag, asPassword.type],
    ['input', 'password'],
    'a password field is typed as one, so the runtime keeps what is typed secret',
  );
});

model('a label whose control is not in the tree (display:none behind it) is listed as the thing to operate', () => {
  const hidden = JSON.parse(readFileSync(new URL('./ax/hidden-controls.ax.json', import.meta.url), 'utf8')) as {
    frameId: string;
    nodes: AxNode[];
  };
  const { entries } = axModel([{ frameId: hidden.frameId, nodes: hidden.nodes }]);
  const labels = entries.filter((e) => e.element.tag === 'label').map((e) => e.element.text);
  assert.ok(labels.includes('I accept the terms'), JSON.stringify(labels));
  assert.not.ok(labels.includes('Send me the newsletter'), 'a label of a listed checkbox is not listed again');
  assert.ok(
    entries.some(
      (e) =>
        e.element.role === 'checkbox' && e.element.label === 'Send me the newsletter' && e.element.checked === false,
    ),
    'a clipped (sr-only) checkbox is in the tree',
  );
});

model(
  'a native <select multiple> (a listbox in the tree) is one select entry with its options; names and types come from extras',
  () => {
    const nodes = [
      node('1', 'RootWebArea', 'Pets', { childIds: ['2', '5'] }),
      node('2', 'listbox', 'Pets', {
        parentId: '1',
        childIds: ['3', '4'],
        properties: [{ name: 'multiselectable', value: { type: 'boolean', value: true } }],
      }),
      node('3', 'option', 'Dog', {
        parentId: '2',
        properties: [{ name: 'selected', value: { type: 'boolean', value: true } }],
      }),
      node('4', 'option', 'Cat', { parentId: '2' }),
      node('5', 'slider', 'Price', { parentId: '1', value: { type: 'number', value: 5 } }),
    ];
    const { entries } = axModel(
      [{ frameId: 'F', nodes }],
      new Map([
        [2, { multipleSelect: true as const, name: 'pets' }],
        [5, { type: 'range' }],
      ]),
    );
    assert.equal(
      entries.map((e) => e.element.tag),
      ['select', 'input'],
    );
    assert.equal(entries[0]!.element.options, [
      { value: 'Dog', label: 'Dog', selected: true },
      { value: 'Cat', label: 'Cat' },
    ]);
    assert.equal([entries[0]!.element.multiple, entries[0]!.element.name], [true, 'pets']);
    assert.equal([entries[1]!.element.type, entries[1]!.element.valueNow], ['range', 5]);
  },
);

model('frames nested in an out-of-process frame are inlined at their <iframe>s, by process', () => {
  const page = (iframeId: string, button: string, iframeName: string): AxNode[] => [
    node('1', 'RootWebArea', '', { childIds: ['2', iframeId] }),
    node('2', 'button', button, { parentId: '1' }),
    node(iframeId, 'Iframe', iframeName, { parentId: '1' }),
  ];
  // Backend ids repeat from process to process: 3 in the top page, in the cross-site frame and in
  // the frame nested in it (the cross-site frame's process) are three different <iframe>s.
  const { entries } = axModel([
    { frameId: 'TOP', nodes: page('3', 'Top', 'Outer') },
    { frameId: 'OOP', nodes: page('3', 'Outer button', 'Nested'), ownerBackendId: 3, sessionId: 'S1' },
    {
      frameId: 'NESTED',
      nodes: page('4', 'Nested button', 'Third'),
      ownerBackendId: 3,
      sessionId: 'S1',
      ownerSessionId: 'S1',
      sessionFrameId: 'OOP',
    },
    {
      frameId: 'THIRD',
      nodes: page('5', 'Third button', ''),
      ownerBackendId: 4,
      sessionId: 'S2',
      ownerSessionId: 'S1',
    },
  ]);
  assert.equal(
    entries.map((e) => [e.element.text, e.element.frame, e.frameId, e.sessionId, e.sessionFrameId]),
    [
      ['Top', undefined, 'TOP', undefined, undefined],
      ['Outer button', 'Outer', 'OOP', 'S1', undefined],
      ['Nested button', 'Nested', 'NESTED', 'S1', 'OOP'],
      ['Third button', 'Third', 'THIRD', 'S2', undefined],
    ],
  );
});

model('a native select lists its options through the ignored node and the groups Chromium puts above them', () => {
  const nodes = [
    node('1', 'RootWebArea', '', { childIds: ['2'] }),
    node('2', 'combobox', 'Colour', { parentId: '1', childIds: ['3'], value: { type: 'string', value: 'Red' } }),
    node('3', 'MenuListPopup', '', { parentId: '2', childIds: ['4'] }),
    { ...node('4', 'none', ''), ignored: true, parentId: '3', childIds: ['5', '6'] },
    node('5', 'option', 'Red', {
      parentId: '4',
      properties: [{ name: 'selected', value: { type: 'boolean', value: true } }],
    }),
    node('6', 'group', 'Dark', { parentId: '4', childIds: ['7'] }),
    node('7', 'option', 'Navy', { parentId: '6' }),
  ];
  const { entries } = axModel([{ frameId: 'F', nodes }]);
  assert.equal(
    entries.map((e) => [e.element.tag, e.element.options]),
    [
      [
        'select',
        [
          { value: 'Red', label: 'Red', selected: true },
          { value: 'Navy', label: 'Navy' },
        ],
      ],
    ],
  );
});

model('no tree, no entries', () => {
  assert.equal(axModel([]), { entries: [] });
});

model.run();

const refs = suite('element refs of the accessibility-tree index');

refs('a node keeps its clickId across indexes of the same document; a new document gets new ids', async () => {
  const table = createElementRefs(undefined);
  const first = await table.recordAx(7, 'loader-1', [
    { b: 10, f: 'F' },
    { b: 11, f: 'F' },
  ]);
  const second = await table.recordAx(7, 'loader-1', [
    { b: 11, f: 'F' },
    { b: 12, f: 'F' },
  ]);
  assert.is(second[0], first[1], 'node 11 lived: same id');
  assert.ok(second[1]! > first[1]!, 'node 12 is new: a new id');
  const gone = await table.check(7, first[0]!);
  assert.equal(gone.ok ? 'ok' : gone.reason, 'stale');
  const live = await table.check(7, second[0]!);
  assert.ok(live.ok && live.ref.ax?.nodes[second[0]!]?.b === 11);
  const never = await table.check(7, 999);
  assert.equal(never.ok ? 'ok' : never.reason, 'not_found');
  const navigated = await table.recordAx(7, 'loader-2', [{ b: 11, f: 'F' }]);
  assert.ok(navigated[0]! > second[1]!, 'the same backend id in a new document is a new element');
});

refs.run();
