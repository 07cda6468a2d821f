// The one token check of every way in (HTTP /api and /mcp, the Socket.IO CONNECT, the Stately
// bridge): which token a request presents, and a constant-time comparison over SHA-256 digests,
// so neither the content nor the length of the expected token leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'X-Mimo-Token';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Equal non-empty strings only; anything else (undefined, numbers, objects, '') is refused. */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given === '') return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token a request presents: `Authorization: Bearer <token>`, else the `X-Mimo-Token` header. */
export function presentedToken(
  authorization: string | null | undefined,
  header: string | null | undefined,
): string | undefined {
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  return bearer ?? (header === null || header === undefined || header === '' ? undefined : header);
}

/** No token configured (undefined or empty) means no token is asked for. */
export const tokenRequired = (token: string | undefined): token is string => token !== undefined && token !== '';
