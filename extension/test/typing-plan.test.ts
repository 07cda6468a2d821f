// browser_type's typing plan: short texts key by key; long ones as Input.insertText chunks with
// key events only at newlines and for the last character; the own-input guard sized by the plan.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { INSERT_CHUNK_CHARS, KEY_BY_KEY_MAX_CHARS, typingGuardMs, typingPlan } from '../background/typing-plan.ts';
import type { KeyStroke } from '../background/key-events.ts';

const plan = suite('typing plan (issue 22: long text entered fast)');

const shape = (strokes: KeyStroke[]) =>
  strokes.map((s) => (s.kind === 'key' ? `key:${s.down.key}` : `insert:${s.text.length}`));
/** What the plan enters, as text (Enter as a newline). */
const entered = (strokes: KeyStroke[]) =>
  strokes.map((s) => (s.kind === 'insert' ? s.text : s.down.key === 'Enter' ? '\n' : String(s.down.text))).join('');

plan('a short text is typed key by key, as a person types it', () => {
  const strokes = typingPlan('hello world');
  assert.is(strokes.length, 11);
  assert.ok(strokes.every((s) => s.kind === 'key'));
  assert.is(typingPlan('x'.repeat(KEY_BY_KEY_MAX_CHARS)).length, KEY_BY_KEY_MAX_CHARS);
});

plan('2,000 characters: four insertText chunks and one real key stroke at the end', () => {
  const text = 'abcdefghij'.repeat(200);
  const strokes = typingPlan(text);
  assert.equal(shape(strokes), [`insert:${INSERT_CHUNK_CHARS}`, 'insert:500', 'insert:500', 'insert:499', 'key:j']);
  assert.is(entered(strokes), text);
});

plan('newlines stay Enter keys (a line break in a textarea, as when typed); the text is entered exactly', () => {
  const text = `${'first line of a long message '.repeat(3)}\n\nsecond paragraph, long enough to be inserted`;
  const strokes = typingPlan(text);
  assert.equal(shape(strokes).filter((s) => s === 'key:Enter').length, 2);
  assert.is(entered(strokes), text);
  assert.is(strokes.at(-1)!.kind, 'key');
});

plan('non-ASCII text goes through insertText; the characters are never split', () => {
  const text = '你好，世界。'.repeat(20) + '😀';
  const strokes = typingPlan(text);
  assert.is(entered(strokes), text);
  assert.equal(shape(strokes).at(-1), 'insert:2', 'the emoji (a surrogate pair) stays whole');
});

plan('the own-input guard covers the plan, not 40 ms per character', () => {
  const long = typingGuardMs(typingPlan('a'.repeat(2_000)));
  assert.ok(long <= 6_000, `${long} ms for 2,000 characters (40 ms a character would be 81 s)`);
  assert.ok(typingGuardMs(typingPlan('hello')) >= 1_000 + 5 * 40);
});

plan.run();
