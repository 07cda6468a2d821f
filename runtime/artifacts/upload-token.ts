// Upload tokens. The current form carries what the upload needs to record the artifact, so a
// presign writes nothing (the artifact is recorded when its upload is accepted):
//   `<expiresAt>.<fields>.<mac>`: fields = base64url(JSON [taskId, kind, contentType, createdAt]),
//   mac = base64url(HMAC-SHA256(secret, purpose, v2, artifact id, expiry, fields)).
// The older form `<expiresAt>.<mac>` (mac over artifact id, expiry, content type) needs the
// pending record a presign used to write; it is still accepted for such records.
// The expiry travels in the token and is covered by the MAC, so it cannot be extended; the
// artifact id and fields are covered too, so a token cannot be moved to another artifact, task,
// kind or type. The whole token is compared byte for byte with the canonical one (constant-time),
// so `0<expiresAt>.<mac>` or any other spelling is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOKEN = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/;
const PRESIGN_TOKEN = /^(\d{1,16})\.([A-Za-z0-9_-]{1,4096})\.([A-Za-z0-9_-]{43})$/;

function mac(secret: Uint8Array, artifactId: string, expiresAt: number, contentType: string): Buffer {
  return createHmac('sha256', secret)
    .update(`mimo-artifact-upload\nv1\n${artifactId}\n${expiresAt}\n${contentType}`)
    .digest();
}

export function signUploadToken(
  secret: Uint8Array,
  artifactId: string,
  expiresAt: number,
  contentType: string,
): string {
  return `${expiresAt}.${mac(secret, artifactId, expiresAt, contentType).toString('base64url')}`;
}

export type TokenCheck = { ok: true; expiresAt: number } | { ok: false; reason: 'invalid_token' | 'token_expired' };

function sameText(a: string, b: string): boolean {
  const given = Buffer.from(a, 'utf8');
  const expected = Buffer.from(b, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The older token form (a pending record holds the rest). */
export function verifyUploadToken(
  secret: Uint8Array,
  token: unknown,
  artifactId: string,
  contentType: string,
  now: number,
): TokenCheck {
  const match = typeof token === 'string' ? TOKEN.exec(token) : null;
  if (!match) return { ok: false, reason: 'invalid_token' };
  const expiresAt = Number(match[1]);
  if (!Number.isSafeInteger(expiresAt)) return { ok: false, reason: 'invalid_token' };
  // Compare the whole token, byte for byte, with the one we would issue: the expiry must be
  // written exactly as we write it (no leading zeros, no other spelling of the same number), and
  // base64url's last character has spare bits, so decoded bytes are not enough either.
  if (!sameText(token as string, signUploadToken(secret, artifactId, expiresAt, contentType)))
    return { ok: false, reason: 'invalid_token' };
  if (now >= expiresAt) return { ok: false, reason: 'token_expired' };
  return { ok: true, expiresAt };
}

/** What a presign token says about the artifact it may upload. */
export interface PresignFields {
  taskId: string;
  kind: string;
  contentType: string;
  createdAt: number;
}

function encodeFields(f: PresignFields): string {
  return Buffer.from(JSON.stringify([f.taskId, f.kind, f.contentType, f.createdAt]), 'utf8').toString('base64url');
}

export function signPresignToken(
  secret: Uint8Array,
  artifactId: string,
  expiresAt: number,
  fields: PresignFields,
): string {
  const encoded = encodeFields(fields);
  const digest = createHmac('sha256', secret)
    .update(`mimo-artifact-upload\nv2\n${artifactId}\n${expiresAt}\n${encoded}`)
    .digest('base64url');
  return `${expiresAt}.${encoded}.${digest}`;
}

/** True when `token` has the older form (checked against a pending record by verifyUploadToken). */
export const isRecordToken = (token: unknown): boolean => typeof token === 'string' && TOKEN.test(token);

/** True when `token` has the presign form (the older form goes to verifyUploadToken). */
export const isPresignToken = (token: unknown): boolean => typeof token === 'string' && PRESIGN_TOKEN.test(token);

export type PresignCheck =
  { ok: true; expiresAt: number; fields: PresignFields } | { ok: false; reason: 'invalid_token' | 'token_expired' };

export function verifyPresignToken(secret: Uint8Array, token: unknown, artifactId: string, now: number): PresignCheck {
  const match = typeof token === 'string' ? PRESIGN_TOKEN.exec(token) : null;
  if (!match) return { ok: false, reason: 'invalid_token' };
  const expiresAt = Number(match[1]);
  if (!Number.isSafeInteger(expiresAt)) return { ok: false, reason: 'invalid_token' };
  let fields: PresignFields;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(match[2]!, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 4) return { ok: false, reason: 'invalid_token' };
    const [taskId, kind, contentType, createdAt] = decoded as unknown[];
    if (
      typeof taskId !== 'string' ||
      typeof kind !== 'string' ||
      typeof contentType !== 'string' ||
      !Number.isSafeInteger(createdAt)
    )
      return { ok: false, reason: 'invalid_token' };
    fields = { taskId, kind, contentType, createdAt: createdAt as number };
  } catch {
    return { ok: false, reason: 'invalid_token' };
  }
  // Re-issued from the decoded fields: any other spelling of the same values is refused.
  if (!sameText(token as string, signPresignToken(secret, artifactId, expiresAt, fields)))
    return { ok: false, reason: 'invalid_token' };
  if (now >= expiresAt) return { ok: false, reason: 'token_expired' };
  return { ok: true, expiresAt, fields };
}
