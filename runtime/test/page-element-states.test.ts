// The agent's element list from the accessibility-tree page model (issue 21): ARIA states reach
// the LLM's context, and without boxes the elements keep the page's order (stable refs are not in
// document order after a re-index).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { elementPriority } from '../agent/context-budget.ts';
import { fullPageOf, pageElementOf } from '../agent/page-context.ts';

const s = suite('page element states');

s('tristate, expanded, selected, level, value range, sort, current and frame are passed on', () => {
  assert.equal(pageElementOf({ clickId: 3, tag: 'checkbox', role: 'checkbox', label: 'All', checked: 'mixed' }), {
    clickId: 3,
    tag: 'checkbox',
    role: 'checkbox',
    text: 'All',
    checked: 'mixed',
  });
  const item = pageElementOf({
    clickId: 4,
    tag: 'treeitem',
    role: 'treeitem',
    text: 'lib',
    expanded: false,
    selected: true,
    level: 2,
    frame: 'Files',
  });
  assert.equal([item.expanded, item.selected, item.level, item.frame], [false, true, 2, 'Files']);
  const slider = pageElementOf({ clickId: 5, tag: 'slider', role: 'slider', valueNow: 30, valueMin: 0, valueMax: 100 });
  assert.equal([slider.valueNow, slider.valueMin, slider.valueMax], [30, 0, 100]);
  const header = pageElementOf({
    clickId: 6,
    tag: 'columnheader',
    role: 'columnheader',
    text: 'Date',
    sort: 'ascending',
    current: 'page',
  });
  assert.equal([header.sort, header.current], ['ascending', 'page']);
});

s('elements without boxes keep the order of the page, not of their ids', () => {
  const page = fullPageOf({
    tabId: 1,
    url: 'https://example.test/',
    text: '',
    elements: [
      { clickId: 40, tag: 'button', text: 'New, first on the page' },
      { clickId: 2, tag: 'button', text: 'Old, second' },
      { clickId: 17, tag: 'a', text: 'Third' },
    ],
  });
  assert.equal(
    elementPriority(page).map((e) => e.clickId),
    [40, 2, 17],
  );
});

s.run();
