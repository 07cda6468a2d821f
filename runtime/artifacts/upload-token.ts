// Upload tokens: `<expiresAt>.<mac>`, where mac = base64url(HMAC-SHA256(secret, purpose, artifact
// id, expiry, content type)). The expiry travels in the token and is covered by the MAC, so it
// cannot be extended; the artifact id and content type are covered too, so a token cannot be
// moved to another artifact or type. Comparison is constant-time.
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
  // Compare the canonical text, not decoded bytes: base64url's last character has spare bits,
  // and a token that is not byte-for-byte the one we issued is not ours.
  const given = Buffer.from(match[2]!, 'ascii');
  const expected = Buffer.from(mac(secret, artifactId, expiresAt, contentType).toString('base64url'), 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid_token' };
  if (now >= expiresAt) return { ok: false, reason: 'token_expired' };
  return { ok: true, expiresAt };
}
