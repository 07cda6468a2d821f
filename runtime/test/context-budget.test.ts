// The budget's pure parts: token counts, the env setting, priorities (in view, near the last
// action), and paging that reaches every element and every character exactly once.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DEFAULT_CONTEXT_TOKENS,
  fitPage,
  listElements,
  parseContextTokens,
  readTextWindow,
} from '../agent/context-budget.ts';
import { estimateTokens, type BBox, type FullPage } from '../agent/page-context.ts';
import { countTokens } from '../agent/token-count.ts';
import { readConfig } from '../config.ts';

const test = suite('context budget');

const sqlite = (): FullPage => {
  const raw = JSON.parse(
    readFileSync(new URL('../../bench/runtime/captured/lang_select.page.json', import.meta.url), 'utf8'),
  ) as FullPage & { boxes: Array<[number, BBox]> };
  return { ...raw, boxes: new Map(raw.boxes) };
};

test('o200k counts, not chars / 4: element JSON of a real page costs more than the estimate', () => {
  assert.is(countTokens('hello world'), 2);
  assert.is(countTokens(''), 0);
  const elements = sqlite().elements;
  const real = countTokens(elements);
  const estimate = estimateTokens(elements);
  assert.ok(real > estimate * 1.1, `real ${real} vs chars/4 ${estimate}`);
});

test('MIMO_CONTEXT_TOKENS: default 4000, integers from 1000, bad values are config errors', () => {
  assert.equal(parseContextTokens(undefined), { ok: true, value: DEFAULT_CONTEXT_TOKENS });
  assert.equal(parseContextTokens('8000'), { ok: true, value: 8000 });
  for (const bad of ['abc', '999', '4000.5', '-1']) assert.is(parseContextTokens(bad).ok, false, bad);
  const config = readConfig({ MIMO_CONTEXT_TOKENS: 'lots' });
  assert.is(config.ok, false);
  assert.match(!config.ok ? config.errors.join() : '', /MIMO_CONTEXT_TOKENS must be an integer/);
  const good = readConfig({ MIMO_CONTEXT_TOKENS: '3000' });
  assert.is(good.ok && good.config.contextTokens, 3000);
});

test('a real 1.58 MB page fits any budget; elements in view come first, then those near the last action', () => {
  const page = sqlite();
  for (const budget of [1000, 2000, 4000])
    assert.ok(countTokens(fitPage(page, { budgetTokens: budget })) <= budget, `budget ${budget}`);
  const small = fitPage(page, { budgetTokens: 1500 });
  const inView = page.elements.filter(
    (e) =>
      (page.boxes.get(e.clickId)?.y ?? 1e9) < (page.viewport?.height ?? 800) &&
      (page.boxes.get(e.clickId)?.y ?? -1) >= 0,
  );
  assert.ok(inView.length > 0);
  for (const e of inView.slice(0, 5))
    assert.ok(
      small.elements.some((s) => s.clickId === e.clickId),
      `in-view element ${e.clickId} kept`,
    );
  const far = page.elements.at(-1)!;
  assert.not.ok(
    small.elements.some((e) => e.clickId === far.clickId),
    'the last element is not in the small context',
  );
  const focused = fitPage(page, { budgetTokens: 1500, focus: page.boxes.get(far.clickId)! });
  assert.ok(
    focused.elements.some((e) => e.clickId === far.clickId),
    'near the last action it is',
  );
  assert.equal(small.paging?.elementsTotal, page.elements.length);
});

test('paging reaches every element once and every character once', () => {
  const page = sqlite();
  const first = listElements(page, {}, 800);
  const seen: number[] = [];
  for (let n = 1; n <= first.pages; n++)
    seen.push(...listElements(page, { page: n }, 800).elements.map((e) => e.clickId));
  assert.equal(
    seen,
    page.elements.map((e) => e.clickId),
  );
  let text = '';
  for (let offset = 0, guard = 0; guard < 1000; guard++) {
    const window = readTextWindow(page, offset, 800);
    assert.ok(countTokens(window) <= 800);
    text += window.text;
    if (!('nextOffset' in window)) break;
    offset = window.nextOffset;
  }
  assert.is(text, page.text);
  assert.equal(
    listElements(page, { query: 'VALUES clause' }, 800).elements.map((e) => e.text),
    ['6. The VALUES clause', 'VALUES clause'],
  );
});

test.run();
