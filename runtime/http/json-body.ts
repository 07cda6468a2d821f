// JSON request bodies: media type, size limit, parse, schema. The validated value is
// `c.get('body')` in the route handler. Failures are envelopes with code BAD_REQUEST:
//   415 reason `unsupported_media_type`: Content-Type is not application/json (or +json). Requiring
//       it also means a cross-site page cannot post a "simple" text/plain request without a
//       CORS preflight;
//   413 reason `too_large`: declared or streamed size above the limit (reading stops there);
//   400 reason `invalid_json`: empty, not UTF-8, or not JSON;
//   400 with `details.fieldErrors` from `validate` when the schema refuses the value.
import type { MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { validate } from '../../transport/contracts/index.ts';
import { errorResponse } from './envelope-response.ts';

export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

type BodyRead = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'invalid_json' };

async function readLimited(request: Request, maxBytes: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes)
    return { ok: false, reason: 'too_large' };
  if (request.body === null) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'too_large' };
      }
      parts.push(value);
    }
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts)) };
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
}

export function jsonBody<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  options: { maxBytes: number },
): MiddlewareHandler<{ Variables: { body: v.InferOutput<TSchema> } }> {
  return async function jsonBodyMiddleware(c, next) {
    const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim();
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      const got = mediaType === '' ? 'none' : mediaType;
      return errorResponse(
        c,
        {
          code: 'BAD_REQUEST',
          message: `Content-Type must be application/json (got ${got})`,
          details: { reason: 'unsupported_media_type' },
        },
        415,
      );
    }
    const read = await readLimited(c.req.raw, options.maxBytes);
    if (!read.ok && read.reason === 'too_large') {
      return errorResponse(
        c,
        {
          code: 'BAD_REQUEST',
          message: `request body exceeds ${options.maxBytes} bytes`,
          details: { reason: 'too_large' },
        },
        413,
      );
    }
    let parsed: unknown;
    try {
      if (!read.ok) throw new Error('unreadable body');
      parsed = JSON.parse(read.text);
    } catch {
      return errorResponse(c, {
        code: 'BAD_REQUEST',
        message: 'request body is not valid JSON',
        details: { reason: 'invalid_json' },
      });
    }
    const checked = validate(schema, parsed);
    if (!checked.ok) {
      return errorResponse(c, {
        code: 'BAD_REQUEST',
        message: checked.error.message,
        details: { fieldErrors: checked.error.fieldErrors },
      });
    }
    c.set('body', checked.value);
    await next();
  };
}
