// `snapshot -i` lines and refs from the accessibility-tree page model (issue 21): ARIA states in
// words, tristate checked, the frame an element sits in, the model's source and the modal that
// scopes it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fitSnapshot } from '../shell/shell-snapshot.ts';
import { buildSnapshot } from '../shell/snapshot-refs.ts';

const states = suite('snapshot states');

states('each line says the states a screen reader would; the refs map carries them as values', () => {
  const snap = buildSnapshot([
    { clickId: 4, tag: 'treeitem', role: 'treeitem', text: 'src', expanded: true, level: 1 },
    { clickId: 5, tag: 'checkbox', role: 'checkbox', label: 'All toppings', checked: 'mixed' },
    { clickId: 6, tag: 'button', role: 'button', text: 'Bold', pressed: false },
    { clickId: 7, tag: 'columnheader', role: 'columnheader', text: 'Date', sort: 'descending' },
    { clickId: 8, tag: 'slider', role: 'slider', label: 'Volume', valueNow: 30, valueMin: 0, valueMax: 100 },
    { clickId: 9, tag: 'button', role: 'button', text: 'Inner', frame: 'Inner frame' },
    { clickId: 10, tag: 'a', role: 'link', text: 'Home', current: 'page', href: 'https://example.test/' },
  ]);
  assert.equal(snap.lines, [
    '- treeitem "src" [ref=e4] (expanded, level=1)',
    '- checkbox "All toppings" [ref=e5] (checked=mixed)',
    '- button "Bold" [ref=e6] (not pressed)',
    '- columnheader "Date" [ref=e7] (sort=descending)',
    '- slider "Volume" [ref=e8] (valuenow=30 (0..100))',
    '- button "Inner" [ref=e9] (in frame: Inner frame)',
    '- link "Home" [ref=e10] (href: https://example.test/, current=page)',
  ]);
  assert.equal(snap.refs.e5, { role: 'checkbox', name: 'All toppings', tag: 'checkbox', checked: 'mixed' });
  assert.equal(snap.refs.e6!.pressed, false);
  assert.equal(snap.refs.e4!.level, 1);
});

states('the snapshot says which page model it is and which modal scopes it', () => {
  const fitted = fitSnapshot(
    {
      url: 'https://example.test/',
      elements: [{ clickId: 1, tag: 'button', role: 'button', text: 'Cancel' }],
      source: 'ax',
      modal: { role: 'alertdialog', name: 'Delete?' },
    },
    64_000,
    1_000,
  );
  assert.is(fitted.data.source, 'ax');
  assert.equal(fitted.data.modal, { role: 'alertdialog', name: 'Delete?' });
  const fallback = fitSnapshot({ url: 'https://example.test/', elements: [], source: 'dom' }, 64_000, 1_000);
  assert.is(fallback.data.source, 'dom');
  assert.is(fallback.data.modal, undefined);
});

states.run();
