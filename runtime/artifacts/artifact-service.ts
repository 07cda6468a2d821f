// The seed 000 §1 / seed 001 §2.4 ArtifactService: presigned uploads, downloads until expiry,
// server-side writes, and a sweeper, over an ArtifactStore (artifact-store.ts): a local folder by
// default, PostgreSQL in cluster mode. The HTTP routes are thin wrappers:
//   POST /api/artifacts/presign           -> presign(body)
//   PUT|POST /api/artifacts/:id/upload    -> acceptUpload(id, query.token, request body, { contentLength, contentType })
//   GET /api/artifacts/:id                -> open(id), answered with artifactResponseHeaders()
// Every method rejects with an ArtifactError (`code`, HTTP `status`, `reason`).
// A presign writes nothing: its token carries the task, kind, content type and times, signed, and
// the artifact is recorded when the upload is accepted (so a presigned URL works after a restart,
// and on any node of a cluster, as long as the secret is the same). The store still holds
// pending records written by an older version, and the PostgreSQL store one after a failed upload.
import { ArtifactError, ioError, isArtifactError } from './artifact-error.ts';
import { createFolderArtifactStore } from './artifact-folder-store.ts';
import { isValidArtifactId, newArtifactId } from './artifact-id.ts';
import { checkArtifactInput, isValidContentType, mediaType } from './artifact-inputs.ts';
import type { UploadSink } from './artifact-store.ts';
import type {
  ArtifactMeta,
  ArtifactService,
  ArtifactServiceOptions,
  OpenedArtifact,
  StoredArtifact,
} from './artifact-types.ts';
import { discardBody, receiveBody } from './receive-body.ts';
import { createNodeScheduler } from './scheduler.ts';
import {
  isPresignToken,
  isRecordToken,
  signPresignToken,
  verifyPresignToken,
  verifyUploadToken,
} from './upload-token.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`createArtifactService: ${name} must be a positive number`);
  return value;
}

/**
 * Throws a TypeError (at construction, never later) when `secret` is shorter than 16 bytes,
 * `publicBaseUrl` is not an http(s) URL, or a limit is not a positive number.
 */
export function createArtifactService(options: ArtifactServiceOptions): ArtifactService {
  const { clock, scheduler = createNodeScheduler() } = options;
  const secret = typeof options.secret === 'string' ? Buffer.from(options.secret, 'utf8') : Buffer.from(options.secret);
  if (secret.length < 16) throw new TypeError('createArtifactService: secret must be at least 16 bytes');
  const base = new URL(options.publicBaseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new TypeError('createArtifactService: publicBaseUrl must be http(s)');
  const baseUrl = `${base.origin}${base.pathname}`.replace(/\/+$/, '');
  const uploadTtlMs = positive('uploadTtlMs', options.uploadTtlMs ?? 15 * MINUTE);
  const downloadTtlMs = positive('downloadTtlMs', options.downloadTtlMs ?? 24 * HOUR);
  const maxUploadBytes = positive('maxUploadBytes', options.maxUploadBytes ?? 25 * 1024 * 1024);
  const uploadTimeoutMs = positive('uploadTimeoutMs', options.uploadTimeoutMs ?? MINUTE);

  const store = options.store ?? createFolderArtifactStore(options.dir);
  let sweeping: Promise<unknown> | undefined;

  const downloadUrl = (artifactId: string) => `${baseUrl}/api/artifacts/${artifactId}`;
  const stored = (meta: ArtifactMeta): StoredArtifact => ({
    artifactId: meta.artifactId,
    downloadUrl: downloadUrl(meta.artifactId),
    contentType: meta.contentType,
    size: meta.size ?? 0,
    expiresAt: meta.expiresAt,
  });

  function invalidId(): ArtifactError {
    return new ArtifactError('BAD_REQUEST', 'invalid_id', 'invalid artifact id', {
      fieldErrors: [{ field: 'artifactId', message: 'expected art- followed by 21 characters of [A-Za-z0-9_-]' }],
    });
  }

  // Presigned and not uploaded yet, in this process: `open` answers `pending` for them (after a
  // restart or on another node, `not_found`: 404 either way). Expiry order is insertion order
  // (one TTL), so expired entries are dropped from the head; bounded.
  const presigned = new Map<string, number>();
  const PRESIGNED_KEPT = 100_000;
  /** Presigned ids with an upload of this process claimed (in flight or committed, until dropped from `presigned`). */
  const claimedHere = new Set<string>();
  function notePresigned(artifactId: string, uploadExpiresAt: number, now: number): void {
    for (const [id, expiresAt] of presigned) {
      if (expiresAt > now && presigned.size < PRESIGNED_KEPT) break;
      presigned.delete(id);
      claimedHere.delete(id);
    }
    presigned.set(artifactId, uploadExpiresAt);
  }

  const notFound = (artifactId: string) =>
    new ArtifactError('NOT_FOUND', 'not_found', `artifact ${artifactId} not found`, { context: { artifactId } });

  async function readStoredMeta(artifactId: string): Promise<ArtifactMeta | null | 'damaged'> {
    try {
      return await store.readMeta(artifactId);
    } catch (error) {
      throw ioError('read the artifact metadata', error, { artifactId });
    }
  }

  async function readMeta(artifactId: string): Promise<ArtifactMeta> {
    const meta = await readStoredMeta(artifactId);
    if (meta === null || meta === 'damaged') throw notFound(artifactId);
    return meta;
  }

  function forbidden(artifactId: string, reason: 'invalid_token' | 'token_expired'): ArtifactError {
    const message = reason === 'token_expired' ? 'upload token expired' : 'upload token is not valid for this artifact';
    return new ArtifactError('FORBIDDEN', reason, message, { context: { artifactId } });
  }

  /** The artifact a valid token may upload: its stored record, or the pending one its token describes. */
  async function uploadTarget(artifactId: string, token: string | null | undefined): Promise<ArtifactMeta> {
    if (isPresignToken(token)) {
      const check = verifyPresignToken(secret, token, artifactId, clock.now());
      if (!check.ok) throw forbidden(artifactId, check.reason);
      // Presigned by this process and not claimed since: nothing can be stored under its id yet (a
      // presign writes nothing, and only a claim of this process could have written it), so the
      // lookup is skipped. After a restart, or once claimed, the store is asked.
      const unclaimedHere = presigned.has(artifactId) && !claimedHere.has(artifactId);
      const stored = unclaimedHere ? null : await readStoredMeta(artifactId);
      if (stored === 'damaged') throw notFound(artifactId);
      const { taskId, kind, contentType, createdAt } = check.fields;
      return (
        stored ?? {
          version: 1,
          artifactId,
          taskId,
          kind,
          contentType,
          createdAt,
          state: 'pending',
          uploadExpiresAt: check.expiresAt,
          expiresAt: check.expiresAt,
        }
      );
    }
    // Neither form: refused before any lookup.
    if (!isRecordToken(token)) throw forbidden(artifactId, 'invalid_token');
    // The older token form: the pending record written at presign holds the content type.
    const meta = await readMeta(artifactId);
    const check = verifyUploadToken(secret, token, artifactId, meta.contentType, clock.now());
    if (!check.ok) throw forbidden(artifactId, check.reason);
    return meta;
  }

  async function acceptUploadChecked(
    artifactId: string,
    token: string | null | undefined,
    body: Parameters<ArtifactService['acceptUpload']>[2],
    opts: Parameters<ArtifactService['acceptUpload']>[3] = {},
  ): Promise<StoredArtifact> {
    if (!isValidArtifactId(artifactId)) throw invalidId();
    const meta = await uploadTarget(artifactId, token);
    if (meta.state === 'ready') throw alreadyUploaded(artifactId);
    // Take the one upload slot before anything else can interleave (atomic in the store: across
    // nodes too); every refusal below hands it back.
    let claim: Awaited<ReturnType<typeof store.claimUpload>>;
    try {
      claim = await store.claimUpload(meta, clock.now());
    } catch (error) {
      throw isArtifactError(error) ? error : ioError('start the upload', error, { artifactId });
    }
    if (!claim.ok) {
      if (claim.reason === 'already_uploaded') throw alreadyUploaded(artifactId);
      if (claim.reason === 'upload_in_progress')
        throw new ArtifactError('CONFLICT', 'upload_in_progress', 'an upload to this URL is already in progress', {
          context: { artifactId },
        });
      throw new ArtifactError('NOT_FOUND', 'not_found', `artifact ${artifactId} not found`, {
        context: { artifactId },
      });
    }
    const sink: UploadSink = claim.sink;
    const noted = presigned.has(artifactId);
    if (noted) claimedHere.add(artifactId); // synchronously after the claim: a later upload asks the store
    try {
      if (
        opts.contentType !== undefined &&
        (!isValidContentType(opts.contentType) || mediaType(opts.contentType) !== mediaType(meta.contentType))
      ) {
        throw new ArtifactError('BAD_REQUEST', 'content_type_mismatch', `expected content type ${meta.contentType}`, {
          status: 415,
          context: { artifactId },
        });
      }
      const declared = opts.contentLength;
      if (declared !== undefined && (!Number.isSafeInteger(declared) || declared < 0)) {
        throw new ArtifactError('BAD_REQUEST', 'invalid_input', 'invalid content length', {
          fieldErrors: [{ field: 'contentLength', message: 'expected a non-negative integer' }],
        });
      }
      if (declared !== undefined && declared > maxUploadBytes) {
        throw new ArtifactError('BAD_REQUEST', 'too_large', `upload exceeds the limit of ${maxUploadBytes} bytes`, {
          status: 413,
          context: { artifactId, maxUploadBytes },
        });
      }
      const size = await receiveBody({ body, sink, maxBytes: maxUploadBytes, timeoutMs: uploadTimeoutMs, scheduler });
      if (declared !== undefined && size !== declared) {
        throw new ArtifactError('BAD_REQUEST', 'length_mismatch', `received ${size} bytes, expected ${declared}`, {
          retryable: true,
          context: { artifactId },
        });
      }
      const now = clock.now();
      const ready: ArtifactMeta = { ...meta, state: 'ready', size, uploadedAt: now, expiresAt: now + downloadTtlMs };
      try {
        await sink.commit(ready);
      } catch (error) {
        throw isArtifactError(error) ? error : ioError('store the upload', error, { artifactId });
      }
      presigned.delete(artifactId);
      claimedHere.delete(artifactId);
      return stored(ready);
    } catch (error) {
      await sink.abort().catch(() => undefined);
      if (noted) claimedHere.delete(artifactId); // aborted: the store holds nothing for it (again)
      throw error;
    }
  }

  function alreadyUploaded(artifactId: string): ArtifactError {
    return new ArtifactError('CONFLICT', 'already_uploaded', 'this upload URL has already been used', {
      context: { artifactId },
    });
  }

  async function sweep() {
    try {
      return await store.sweep(clock.now());
    } catch (error) {
      throw isArtifactError(error) ? error : ioError(store.kind === 'folder' ? 'sweep its folder' : 'sweep', error);
    }
  }

  return {
    async presign(input) {
      const checked = checkArtifactInput(input);
      if (isArtifactError(checked)) throw checked;
      const now = clock.now();
      const artifactId = newArtifactId();
      const uploadExpiresAt = now + uploadTtlMs;
      // Nothing is written: the token carries what acceptUpload records (see the top of this file).
      const token = signPresignToken(secret, artifactId, uploadExpiresAt, {
        taskId: checked.taskId,
        kind: checked.kind,
        contentType: checked.contentType,
        createdAt: now,
      });
      notePresigned(artifactId, uploadExpiresAt, now);
      return {
        artifactId,
        uploadUrl: `${downloadUrl(artifactId)}/upload?token=${encodeURIComponent(token)}`,
        downloadUrl: downloadUrl(artifactId),
        expiresAt: uploadExpiresAt,
      };
    },

    async acceptUpload(artifactId, token, body, opts) {
      try {
        return await acceptUploadChecked(artifactId, token, body, opts);
      } catch (error) {
        discardBody(body); // refused before or while streaming: stop the sender
        throw error;
      }
    },

    async open(artifactId) {
      if (!isValidArtifactId(artifactId)) throw invalidId();
      const found = await readStoredMeta(artifactId);
      const meta = found === null && (presigned.get(artifactId) ?? 0) > clock.now() ? 'presigned' : found;
      if (meta === null || meta === 'damaged') throw notFound(artifactId);
      if (meta === 'presigned' || meta.state !== 'ready')
        throw new ArtifactError('NOT_FOUND', 'pending', `artifact ${artifactId} has not been uploaded yet`, {
          context: { artifactId },
        });
      if (clock.now() >= meta.expiresAt)
        throw new ArtifactError('NOT_FOUND', 'expired', `artifact ${artifactId} has expired`, {
          status: 410,
          context: { artifactId },
        });
      let data: Awaited<ReturnType<typeof store.openBytes>>;
      try {
        data = await store.openBytes(meta);
      } catch (error) {
        throw ioError('read the artifact', error, { artifactId });
      }
      if (!data)
        throw new ArtifactError('NOT_FOUND', 'not_found', `artifact ${artifactId} not found`, {
          context: { artifactId },
        });
      const opened: OpenedArtifact = {
        artifactId,
        taskId: meta.taskId,
        kind: meta.kind,
        contentType: meta.contentType,
        size: data.size,
        createdAt: meta.createdAt,
        expiresAt: meta.expiresAt,
        ...(data.path !== undefined ? { path: data.path } : {}),
        stream: data.stream,
        read: data.read,
      };
      return opened;
    },

    async putArtifact(input) {
      const checked = checkArtifactInput(input);
      if (isArtifactError(checked)) throw checked;
      const bytes = input.bytes;
      if (typeof bytes !== 'string' && !(bytes instanceof Uint8Array)) {
        throw new ArtifactError('BAD_REQUEST', 'invalid_input', 'bytes must be a Uint8Array or a string', {
          fieldErrors: [{ field: 'bytes', message: 'expected Uint8Array or string' }],
        });
      }
      const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength;
      if (size > maxUploadBytes)
        throw new ArtifactError('BAD_REQUEST', 'too_large', `artifact exceeds the limit of ${maxUploadBytes} bytes`, {
          status: 413,
          context: { maxUploadBytes },
        });
      const artifactId = newArtifactId();
      const now = clock.now();
      const meta: ArtifactMeta = {
        version: 1,
        artifactId,
        ...checked,
        createdAt: now,
        state: 'ready',
        uploadExpiresAt: now,
        expiresAt: now + downloadTtlMs,
        size,
        uploadedAt: now,
      };
      try {
        await store.putReady(meta, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
      } catch (error) {
        throw isArtifactError(error) ? error : ioError('store the artifact', error, { artifactId });
      }
      return stored(meta);
    },

    sweep,

    startSweeper({ intervalMs = 6 * HOUR, onResult, onError } = {}) {
      positive('intervalMs', intervalMs);
      const run = () => {
        if (sweeping) return; // the previous pass is still running
        sweeping = sweep()
          .then((result) => onResult?.(result))
          .catch((error: unknown) => onError?.(error))
          .catch(() => undefined) // a throwing onError must not become an unhandled rejection
          .finally(() => {
            sweeping = undefined;
          });
      };
      run(); // seed 001 §2.4: sweep at startup, then every 6 hours
      const handle = scheduler.setInterval(run, intervalMs);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        scheduler.clearInterval(handle);
      };
    },
  };
}
