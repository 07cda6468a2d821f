// Seed 001 §2.4: POST /api/artifacts/presign, PUT|POST /api/artifacts/:artifactId/upload?token=,
// GET /api/artifacts/:artifactId. The artifact service decides every outcome; its errors carry
// their status (403 token, 408 timeout, 409 reused, 410 expired, 413 too large, 415 type) and
// reach the client through app.onError as envelopes.
// Two groups: the open routes (an upload carries its own signed, expiring, single-use token in the
// presigned URL; a download's id, `art-` + 21 random characters, is the capability, and the web
// renders screenshots with <img src>, which cannot send a header) are registered before the
// token middleware, so they answer first; presign and the 405s are registered after it.
import type { IncomingMessage } from 'node:http';
import type { Hono } from 'hono';
import { ArtifactPresignRequestSchema } from '../../transport/contracts/index.ts';
import { artifactResponseHeaders } from '../artifacts/index.ts';
import { okResponse } from './envelope-response.ts';
import type { HttpAppDeps, HttpEnv } from './http-types.ts';
import { jsonBody } from './json-body.ts';
import { onlyAllow } from './method-not-allowed.ts';
import { nodeRequestBody } from './node-request-body.ts';

async function* noBytes(): AsyncGenerator<Uint8Array> {}

function contentLengthOf(header: string | undefined): number | undefined {
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** Any one segment but `presign` (its own route, behind the token); a malformed id is the service's 400 invalid_id. */
const ARTIFACT_ID = ':artifactId{(?!presign$)[^/]+}';

/** Upload and download: open routes, registered before the token middleware. */
export function registerOpenArtifactRoutes(app: Hono<HttpEnv>, deps: Pick<HttpAppDeps, 'artifacts'>): void {
  const { artifacts } = deps;
  app.on(['PUT', 'POST'], `/api/artifacts/${ARTIFACT_ID}/upload`, async (c) => {
    const options: { contentLength?: number; contentType?: string } = {};
    const contentLength = contentLengthOf(c.req.header('Content-Length'));
    const contentType = c.req.header('Content-Type');
    if (contentLength !== undefined) options.contentLength = contentLength;
    if (contentType !== undefined) options.contentType = contentType;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const body = incoming ? nodeRequestBody(incoming) : (c.req.raw.body ?? noBytes());
    return okResponse(c, await artifacts.acceptUpload(c.req.param('artifactId'), c.req.query('token'), body, options));
  });

  // HEAD reaches this handler too (Hono routes it as GET and drops the body); answer it
  // without opening the file.
  app.get(`/api/artifacts/${ARTIFACT_ID}`, async (c) => {
    const opened = await artifacts.open(c.req.param('artifactId'));
    const headers = artifactResponseHeaders(opened);
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(opened.stream(), 200, headers);
  });
}

/** Presign and the 405s of every artifact path: behind the token. */
export function registerArtifactRoutes(
  app: Hono<HttpEnv>,
  deps: Pick<HttpAppDeps, 'artifacts'>,
  options: { maxJsonBytes: number },
): void {
  const { artifacts } = deps;
  const presignBody = jsonBody(ArtifactPresignRequestSchema, { maxBytes: options.maxJsonBytes });
  app.post('/api/artifacts/presign', presignBody, async (c) => okResponse(c, await artifacts.presign(c.get('body'))));
  onlyAllow(app, '/api/artifacts/presign', ['POST']);
  onlyAllow(app, '/api/artifacts/:artifactId/upload', ['PUT', 'POST']);
  onlyAllow(app, '/api/artifacts/:artifactId', ['GET']);
}
