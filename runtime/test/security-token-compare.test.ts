// Token comparisons (issue 12): upload tokens are compared byte for byte with the canonical one
// (any other spelling of the expiry is refused); the access token compare is constant-time over
// digests and refuses non-strings.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { signUploadToken, verifyUploadToken } from '../artifacts/upload-token.ts';
import { sameToken } from '../../transport/mimo/access-token-check.ts';

const test = suite('token compare');
const secret = new Uint8Array(32).fill(7);
const id = 'art-0123456789abcdefghijk';
const NOW = 1_700_000_000_000;
const EXP = NOW + 60_000;

test('the issued token verifies', () => {
  assert.equal(verifyUploadToken(secret, signUploadToken(secret, id, EXP, 'image/png'), id, 'image/png', NOW), {
    ok: true,
    expiresAt: EXP,
  });
});

test('leading zeros, plus signs or other spellings of the expiry are refused, though they name the same number', () => {
  const token = signUploadToken(secret, id, EXP, 'image/png');
  const mac = token.split('.')[1]!;
  for (const spelled of [`0${EXP}`, `00${EXP}`, `000000${EXP}`]) {
    assert.equal(
      verifyUploadToken(secret, `${spelled}.${mac}`, id, 'image/png', NOW),
      { ok: false, reason: 'invalid_token' },
      spelled,
    );
  }
  for (const bad of [
    `+${EXP}.${mac}`,
    `${EXP}.${mac}=`,
    ` ${token}`,
    `${token} `,
    `${EXP}.${mac.slice(0, -1)}${mac.at(-1) === 'A' ? 'B' : 'A'}`,
  ]) {
    assert.equal(verifyUploadToken(secret, bad, id, 'image/png', NOW), { ok: false, reason: 'invalid_token' }, bad);
  }
  assert.equal(verifyUploadToken(secret, token, id, 'image/jpeg', NOW), { ok: false, reason: 'invalid_token' });
  assert.equal(verifyUploadToken(secret, token, id, 'image/png', EXP), { ok: false, reason: 'token_expired' });
});

test('base64url spare bits: a last character that decodes to the same bytes is still refused', () => {
  const token = signUploadToken(secret, id, EXP, 'image/png');
  const last = token.at(-1)!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const index = alphabet.indexOf(last);
  const sibling = alphabet[index ^ 1]!; // 43 chars carry 258 bits: the lowest 2 bits of the last one are spare
  const forged = token.slice(0, -1) + sibling;
  assert.ok(Buffer.from(forged.split('.')[1]!, 'base64url').equals(Buffer.from(token.split('.')[1]!, 'base64url')));
  assert.equal(verifyUploadToken(secret, forged, id, 'image/png', NOW), { ok: false, reason: 'invalid_token' });
});

test('sameToken: equal strings only; non-strings and empty refused', () => {
  assert.ok(sameToken('abcdefgh-secret', 'abcdefgh-secret'));
  assert.not.ok(sameToken('abcdefgh-secreT', 'abcdefgh-secret'));
  assert.not.ok(sameToken('abcdefgh-secret ', 'abcdefgh-secret'));
  for (const bad of [undefined, null, 42, ['abcdefgh-secret'], { toString: () => 'abcdefgh-secret' }, ''])
    assert.not.ok(sameToken(bad, 'abcdefgh-secret'));
});

test.run();
