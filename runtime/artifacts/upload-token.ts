// Upload tokens: `<expiresAt>.<mac>`, where mac = base64url(HMAC-SHA256(secret, purpose, artifact
// id, expiry, content type)). The expiry travels in the token and is covered by the MAC, so it
// cannot be extended; the artifact id and content type are covered too, so a token cannot be
// moved to another artifact or type. The whole token is compared byte for byte with the canonical
// one (constant-time), so `0<expiresAt>.<mac>` or any other spelling is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOKEN = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

function mac(secret: Uint8Array, artifactId: string, expiresAt: number, contentType: string): Buffer {
  return createHmac('sha256', secret).update(`mimo-artifact-upload\nv1\n${artifactId}\n${expiresAt}\n${contentType}`).digest();
}

export function signUploadToken(secret: Uint8Array, artifactId: string, expiresAt: number, contentType: string): string {
  return `${expiresAt}.${mac(secret, artifactId, expiresAt, contentType).toString('base64url')}`;
}

export type TokenCheck = { ok: true; expiresAt: number } | { ok: false; reason: 'invalid_token' | 'token_expired' };

export function verifyUploadToken(secret: Uint8Array, token: unknown, artifactId: string, contentType: string, now: number): TokenCheck {
  const match = typeof token === 'string' ? TOKEN.exec(token) : null;
  if (!match) return { ok: false, reason: 'invalid_token' };
  const expiresAt = Number(match[1]);
  if (!Number.isSafeInteger(expiresAt)) return { ok: false, reason: 'invalid_token' };
  // Compare the whole token, byte for byte, with the one we would issue: the expiry must be
  // written exactly as we write it (no leading zeros, no other spelling of the same number), and
  // base64url's last character has spare bits, so decoded bytes are not enough either.
  const given = Buffer.from(token as string, 'utf8');
  const expected = Buffer.from(signUploadToken(secret, artifactId, expiresAt, contentType), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid_token' };
  if (now >= expiresAt) return { ok: false, reason: 'token_expired' };
  return { ok: true, expiresAt };
}
