// Optional shared-secret auth for /api/* (seed 001 §0.3 UNAUTHORIZED). With `config.token` set,
// a request needs `Authorization: Bearer <token>` or `X-Mimo-Token: <token>`, except:
// - artifact uploads (`PUT|POST /api/artifacts/:id/upload?token=...`): the plugin sends them to
//   the presigned URL it was given, which carries its own signed, expiring, single-use token;
// - artifact downloads (`GET|HEAD /api/artifacts/:id`): the id (`art-` + 21 random chars) is the
//   capability, and the web renders screenshots with <img src>, which cannot send a header;
// - CORS preflights (OPTIONS), which browsers send without credentials.
// The comparison is constant-time over SHA-256 digests, so the token's length does not leak.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './envelope-response.ts';

export const TOKEN_HEADER = 'X-Mimo-Token';

const DOWNLOAD_PATH = /^\/api\/artifacts\/([^/]+)\/?$/;
const UPLOAD_PATH = /^\/api\/artifacts\/[^/]+\/upload\/?$/;

export function isTokenExempt(method: string, path: string): boolean {
  if (method === 'OPTIONS') return true;
  if ((method === 'PUT' || method === 'POST') && UPLOAD_PATH.test(path)) return true;
  const download = DOWNLOAD_PATH.exec(path);
  return (method === 'GET' || method === 'HEAD') && download !== null && download[1] !== 'presign';
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function presentedToken(authorization: string | undefined, header: string | undefined): string | undefined {
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  return bearer ?? (header === undefined || header === '' ? undefined : header);
}

export function tokenAuth(options: { token: string | undefined }): MiddlewareHandler {
  const expected = options.token === undefined || options.token === '' ? undefined : digest(options.token);
  return async function tokenAuthMiddleware(c, next) {
    if (expected === undefined || isTokenExempt(c.req.method, c.req.path)) return next();
    const given = presentedToken(c.req.header('Authorization'), c.req.header(TOKEN_HEADER));
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return next();
    return errorResponse(
      c,
      {
        code: 'UNAUTHORIZED',
        message: given === undefined ? `missing token: send "Authorization: Bearer <token>" or "${TOKEN_HEADER}: <token>"` : 'invalid token',
      },
      401,
      { 'WWW-Authenticate': 'Bearer realm="mimo"' },
    );
  };
}
