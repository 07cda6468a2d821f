// A page read again without a change (same text, same DOM index) reuses what was made of the
// previous read (its text and elements) and the step's context cut from them; any change, and any
// other budget or focus, gives exactly what a fresh page gives.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fitPage } from '../agent/context-budget.ts';
import { fullPageOf, type BBox, type FullPage, type IndexedElement } from '../agent/page-context.ts';

const s = suite('page reuse');

/** A fresh parse of the captured SQLite page, as a read brings it (new objects every time). */
function read(change?: (input: { text: string; elements: IndexedElement[] }) => void) {
  const raw = JSON.parse(
    readFileSync(new URL('../../bench/runtime/captured/lang_select.page.json', import.meta.url), 'utf8'),
  ) as FullPage & { boxes: Array<[number, BBox]> };
  const boxes = new Map(raw.boxes);
  const input = {
    tabId: raw.tabId,
    url: raw.url,
    title: raw.title,
    text: `${raw.text}`,
    elements: raw.elements.map((e) => ({ ...e, ...(boxes.get(e.clickId) ? { bbox: boxes.get(e.clickId) } : {}) })),
    viewport: raw.viewport,
  } as Parameters<typeof fullPageOf>[0];
  change?.(input);
  return input;
}

s('the same content: the text and elements of the previous page are reused, the cut is the same', () => {
  const first = fullPageOf(read());
  const again = fullPageOf(read(), first);
  assert.ok(again.elements === first.elements && again.boxes === first.boxes, 'elements reused');
  assert.is(again.text, first.text);
  const fresh = fullPageOf(read());
  assert.ok(fresh.elements !== first.elements, 'no previous page: made anew');
  for (const budget of [1500, 4000]) {
    const cut = fitPage(first, { budgetTokens: budget });
    assert.equal(fitPage(again, { budgetTokens: budget }), cut);
    assert.equal(fitPage(fresh, { budgetTokens: budget }), cut);
  }
  const focus = first.boxes.get(first.elements.at(-1)!.clickId)!;
  assert.equal(fitPage(again, { budgetTokens: 1500, focus }), fitPage(fresh, { budgetTokens: 1500, focus }));
  assert.not.equal(fitPage(again, { budgetTokens: 1500, focus }), fitPage(again, { budgetTokens: 1500 }));
});

s('a changed element, text or title is not reused: the cut is what a fresh page gives', () => {
  const first = fullPageOf(read());
  fitPage(first, { budgetTokens: 1500 });
  const renamed = (input: { elements: IndexedElement[] }) => (input.elements[0]!.text = 'Renamed link');
  const changed = fullPageOf(read(renamed), first);
  assert.ok(changed.elements !== first.elements);
  assert.equal(fitPage(changed, { budgetTokens: 1500 }), fitPage(fullPageOf(read(renamed)), { budgetTokens: 1500 }));
  assert.ok(fitPage(changed, { budgetTokens: 1500 }).elements.some((e) => e.text === 'Renamed link'));

  const retitled = fullPageOf(
    read((i) => Object.assign(i, { title: 'Other', text: `New first line\n${i.text}` })),
    first,
  );
  assert.ok(retitled.elements === first.elements, 'the DOM index did not change');
  const cut = fitPage(retitled, { budgetTokens: 1500 });
  assert.is(cut.title, 'Other');
  assert.ok(cut.text?.startsWith('New first line'));
});

s('a caller changing its cut does not change the next one', () => {
  const page = fullPageOf(read());
  const cut = fitPage(page, { budgetTokens: 1500 });
  const copy = structuredClone(cut);
  cut.elements.length = 0;
  cut.text = '';
  if (cut.paging) cut.paging.textEnd = -1;
  assert.equal(fitPage(fullPageOf(read(), page), { budgetTokens: 1500 }), copy);
});

s.run();
