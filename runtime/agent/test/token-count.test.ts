// countTokens remembers the counts of recent texts (a step counts the same state message several
// times): a remembered count is the tokenizer's own, and what is held stays under its bound.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens, heldCountChars } from '../token-count.ts';

const test = suite('token count');

test("a count, first or remembered, is the tokenizer's count of the same text", () => {
  const texts = [
    '',
    'hello world',
    '{"clickId":1,"tag":"a","text":"Next page"}',
    'Ünïcödé — 東京 🚀 '.repeat(50),
    'x'.repeat(10_000),
  ];
  for (const text of texts) {
    const expected = text.length === 0 ? 0 : countO200k(text);
    assert.is(countTokens(text), expected, `first: ${text.slice(0, 20)}`);
    assert.is(countTokens(text), expected, `again: ${text.slice(0, 20)}`);
  }
  const value = { tabs: [{ tabId: 1, title: 'A page', url: 'https://example.com/' }] };
  assert.is(countTokens(value), countO200k(JSON.stringify(value)));
});

test('what is held stays under about a million characters, however many texts are counted', () => {
  for (let i = 0; i < 400; i++) countTokens(`page ${i} `.repeat(1_000)); // ~8-9 KB each, ~3.5 M chars in all
  assert.ok(heldCountChars() <= 1_000_000, `held ${heldCountChars()} chars`);
  assert.ok(heldCountChars() > 500_000, 'recent texts are held');
  // A text too long to hold is counted, not held.
  const before = heldCountChars();
  const huge = 'word '.repeat(40_000);
  assert.is(countTokens(huge), countO200k(huge));
  assert.is(heldCountChars(), before);
});

test.run();
