// `wait --url` globs (runtime/mcp/shell/url-glob.ts): the same answers as the old regex on
// ordinary patterns, and linear cost on the pathological ones that froze the server (issue 12).
// Cost is counted in steps (character comparisons), not wall time.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseShellCommand } from '../mcp/shell/shell-command.ts';
import { globMatches, urlMatchesPattern, type GlobCounter } from '../mcp/shell/url-glob.ts';

const test = suite('url glob');

/** The old matcher, as a reference for what the answers must be (on small inputs only). */
const reference = (pattern: string, text: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*')}$`, 's').test(text);

test('answers like the regex reference on ordinary and random patterns', () => {
  const cases: Array<[string, string]> = [
    ['https://example.com/*', 'https://example.com/a/b?c=1'],
    ['*example.com*', 'https://example.com/'],
    ['*/done', 'https://x.test/flow/done'],
    ['*/done', 'https://x.test/flow/done/'],
    ['https://*.test/*/b', 'https://a.test/x/y/b'],
    ['a*b*c', 'abc'],
    ['a*b*c', 'acb'],
    ['a**b', 'ab'],
    ['*', ''],
    ['', ''],
    ['abc', 'abc'],
    ['ab*ab', 'ab'],
    ['ab*ab', 'abab'],
    ['*aab*', 'aaab'],
  ];
  for (const [p, t] of cases) assert.is(globMatches(p, t), reference(p, t), `${p} ~ ${t}`);
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let i = 0; i < 3000; i++) {
    const p = Array.from({ length: rand(8) }, () => 'ab*/'[rand(4)]).join('');
    const t = Array.from({ length: rand(10) }, () => 'ab/'[rand(3)]).join('');
    assert.is(globMatches(p, t), reference(p, t), `${JSON.stringify(p)} ~ ${JSON.stringify(t)}`);
  }
});

test('a 2,000-character pathological pattern against an 8 KiB URL costs steps linear in their sizes', () => {
  // The issue's `*a*a*a...*!`, with a piece that never matches in the middle so the whole URL is
  // scanned (the suffix check alone would refuse the plain form at once: see the next case).
  const pattern = `${'*a'.repeat(998)}*b*!`;
  assert.is(pattern.length, 2000);
  const url = `https://x.test/${'a'.repeat(8192 - 16)}!`;
  const counter: GlobCounter = { steps: 0 };
  assert.is(urlMatchesPattern(url, pattern, counter), false);
  assert.ok(counter.steps >= url.length - 1000, `it did scan the URL: ${counter.steps} steps`);
  assert.ok(counter.steps <= 4 * (url.length + pattern.length), `${counter.steps} steps`);
  // The cost grows linearly: doubling the URL at most doubles the steps (plus the pattern).
  const half = `https://x.test/${'a'.repeat(4096 - 16)}!`;
  const small: GlobCounter = { steps: 0 };
  assert.is(urlMatchesPattern(half, pattern, small), false);
  assert.ok(counter.steps <= 2 * small.steps + 4 * pattern.length, `${small.steps} -> ${counter.steps}`);
  // The plain form is refused by its suffix without a scan.
  const plain: GlobCounter = { steps: 0 };
  assert.is(urlMatchesPattern(url.slice(0, -1), `${'*a'.repeat(999)}*!`, plain), false);
  assert.ok(plain.steps <= 4 * (url.length + 2000));
});

test('KMP-hostile pieces (aaaa...b) stay linear too', () => {
  const pattern = `*${'a'.repeat(1000)}b*`;
  const url = 'a'.repeat(8000);
  const counter: GlobCounter = { steps: 0 };
  assert.is(globMatches(pattern, url, counter), false);
  assert.ok(counter.steps <= 4 * (url.length + pattern.length), `${counter.steps} steps`);
});

test('wait <ms> is bounded and validated; wait --url takes the pattern', () => {
  assert.equal(parseShellCommand('wait', ['1500']), { ok: true, command: { kind: 'wait', ms: 1500 } });
  assert.equal(parseShellCommand('wait', ['120000']), { ok: true, command: { kind: 'wait', ms: 120000 } });
  for (const bad of ['120001', '2147483648', '99999999999999999999', '1e9', '-1', '1.5', '0x10']) {
    const parsed = parseShellCommand('wait', [bad]);
    assert.is(parsed.ok, false, bad);
  }
  assert.equal(parseShellCommand('wait', ['--url', '*a*!']), {
    ok: true,
    command: { kind: 'wait', urlPattern: '*a*!' },
  });
});

test.run();
