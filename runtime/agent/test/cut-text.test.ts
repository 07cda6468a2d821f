// cutText remembers the cuts of recent page texts (successive steps fit the same page to the same
// budget): a remembered cut is the one computed for the same text, offset and budget, and what is
// held stays under its bound.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { cutText, heldCutChars } from '../context-budget.ts';

const test = suite('cut text');

const pageText = (seed: number) =>
  Array.from({ length: 900 }, (_, i) => `Line ${seed}-${i}: some readable words of the page, Ünïcödé 東京.`).join('\n');

test('a cut, first or remembered, is within its budget, and a different budget or offset is cut anew', () => {
  const text = pageText(1);
  const first = cutText(text, 0, 1500);
  assert.ok(first > 0 && first < text.length);
  assert.ok(countO200k(text.slice(0, first)) <= 1500, 'within the budget');
  assert.is(cutText(text, 0, 1500), first, 'remembered');
  assert.is(cutText(`${text}`.slice(0), 0, 1500), first, 'an equal text (another string) gets the same cut');
  const smaller = cutText(text, 0, 700);
  assert.ok(smaller < first && countO200k(text.slice(0, smaller)) <= 700, 'another budget: its own cut');
  const later = cutText(text, first, 1500);
  assert.ok(later > first && countO200k(text.slice(first, later)) <= 1500, 'another offset: its own cut');
  assert.is(cutText(text, 0, 700), smaller);
  assert.is(cutText(text, first, 1500), later);
});

test('what is held stays under about two million characters, however many texts are cut', () => {
  for (let i = 0; i < 60; i++) cutText(pageText(100 + i), 0, 200); // ~60 KB each, ~3.6 M chars in all
  assert.ok(heldCutChars() <= 2_000_000, `held ${heldCutChars()} chars`);
  assert.ok(heldCutChars() > 1_000_000, 'recent texts are held');
});

test.run();
