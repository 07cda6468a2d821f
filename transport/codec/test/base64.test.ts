import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBase64, encodeBase64 } from '../base64.ts';
import { createRandom } from './seeded-random.ts';

const s = suite('base64');

s('encodes exactly like Node Buffer for every length 0..300', () => {
  const random = createRandom(7);
  for (let length = 0; length <= 300; length++) {
    const bytes = Uint8Array.from({ length }, () => random.int(256));
    const expected = Buffer.from(bytes).toString('base64');
    assert.is(encodeBase64(bytes), expected, `length ${length}`);
    assert.equal([...decodeBase64(expected)!], [...bytes], `decode length ${length}`);
  }
});

s('encodes a large buffer in one piece', () => {
  const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 31) & 255);
  assert.is(encodeBase64(bytes), Buffer.from(bytes).toString('base64'));
});

s('pins known vectors (RFC 4648 §10)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='],
    ['foobar', 'Zm9vYmFy'],
  ];
  for (const [plain, encoded] of vectors) {
    assert.is(encodeBase64(new TextEncoder().encode(plain)), encoded);
    assert.is(new TextDecoder().decode(decodeBase64(encoded)!), plain);
  }
});

s('accepts missing padding', () => {
  assert.equal([...decodeBase64('Zg')!], [102]);
  assert.equal([...decodeBase64('Zm8')!], [102, 111]);
});

s('rejects what is not base64', () => {
  for (const bad of [
    'Z',
    'Zg=',
    'Z===',
    '=',
    '====',
    'Zm9v=',
    'Zm 9v',
    'Zm9v\n',
    'Zm-v',
    'Zm_v',
    'Zm9vé',
    'Zg==Zg==',
    '*',
  ]) {
    assert.is(decodeBase64(bad), null, JSON.stringify(bad));
  }
});

s.run();
