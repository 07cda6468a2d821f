// Uploads screenshots, HTML and long readability text as artifacts (seed 001 §2.4): to the
// presigned URL the server sent with the action, or to one this plugin asks for via
// POST /api/artifacts/presign. Transient failures (network, 5xx, 408, 429) are retried a
// capped number of times; anything else is ARTIFACT_UPLOAD_FAILED.
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../transport/contracts/index.ts';
import type { ArtifactKind } from '../../transport/contracts/index.ts';
import { retryTransient } from '../shared/retry.ts';
import { ActionFailure, fail, messageOf } from './action-failure.ts';

export const UPLOAD_RETRY_DELAYS_MS = [300, 1_000] as const;

export interface UploadInput {
  taskId: string;
  kind: ArtifactKind;
  contentType: string;
  bytes: Uint8Array | string;
  /** Presigned upload URL from the action (screenshotPresignedUrl), if any. */
  uploadUrl?: string;
}

export interface UploadedArtifact {
  artifactId: string;
  /** Where the artifact can be downloaded. */
  url: string;
}

/** Where an artifact goes: the presigned upload URL and what the server said about it. */
export interface UploadTarget {
  artifactId: string;
  uploadUrl: string;
  downloadUrl: string;
}

export interface ArtifactUploader {
  /**
   * Asks the server for an upload URL (or uses `uploadUrl` when the action brought one). Start
   * it early: the screenshot handler presigns while the capture runs.
   */
  reserve(input: Pick<UploadInput, 'taskId' | 'kind' | 'contentType' | 'uploadUrl'>): Promise<UploadTarget>;
  /** Uploads to `target` (or reserves one first). */
  upload(input: UploadInput, target?: Promise<UploadTarget>): Promise<UploadedArtifact>;
}

export interface ArtifactUploaderDeps {
  fetch: typeof fetch;
  serverUrl(): string;
  token(): string;
  sleep(ms: number): Promise<void>;
}

class TransientHttpError extends Error {}

function isTransient(error: unknown): boolean {
  return error instanceof TransientHttpError || error instanceof TypeError;
}

function headers(token: string, contentType: string): Record<string, string> {
  const out: Record<string, string> = { 'Content-Type': contentType, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
  if (token) out.Authorization = `Bearer ${token}`;
  return out;
}

async function readEnvelope(response: Response, what: string): Promise<Record<string, unknown>> {
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    throw new TransientHttpError(`${what}: HTTP ${response.status}`);
  }
  const body = (await response.json().catch(() => null)) as {
    ok?: boolean;
    data?: unknown;
    error?: { code?: string; message?: string };
  } | null;
  if (!response.ok || !body || body.ok !== true) {
    const reason = body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`;
    fail('ARTIFACT_UPLOAD_FAILED', `${what} failed (${reason})`, { status: response.status });
  }
  return (body.data ?? {}) as Record<string, unknown>;
}

/** `.../api/artifacts/<id>/upload?token=` -> `<id>` and the download URL `.../api/artifacts/<id>`. */
export function parseUploadUrl(uploadUrl: string): { artifactId: string; downloadUrl: string } | null {
  try {
    const url = new URL(uploadUrl);
    const match = /^(.*\/api\/artifacts\/)([^/]+)\/upload$/.exec(url.pathname);
    if (!match) return null;
    return { artifactId: decodeURIComponent(match[2]!), downloadUrl: `${url.origin}${match[1]}${match[2]}` };
  } catch {
    return null;
  }
}

export function createArtifactUploader(deps: ArtifactUploaderDeps): ArtifactUploader {
  const retry = <T>(attempt: () => Promise<T>) =>
    retryTransient(attempt, { delaysMs: UPLOAD_RETRY_DELAYS_MS, isTransient, sleep: deps.sleep });

  async function presign(input: Pick<UploadInput, 'taskId' | 'kind' | 'contentType'>): Promise<UploadTarget> {
    const data = await retry(async () => {
      const response = await deps.fetch(`${deps.serverUrl()}/api/artifacts/presign`, {
        method: 'POST',
        headers: headers(deps.token(), 'application/json'),
        body: JSON.stringify({ taskId: input.taskId, kind: input.kind, contentType: input.contentType }),
      });
      return readEnvelope(response, 'artifact presign');
    });
    if (typeof data.artifactId !== 'string' || typeof data.uploadUrl !== 'string') {
      fail('ARTIFACT_UPLOAD_FAILED', 'artifact presign answered without artifactId/uploadUrl');
    }
    return {
      artifactId: data.artifactId,
      uploadUrl: data.uploadUrl,
      downloadUrl: typeof data.downloadUrl === 'string' ? data.downloadUrl : '',
    };
  }

  async function reserve(
    input: Pick<UploadInput, 'taskId' | 'kind' | 'contentType' | 'uploadUrl'>,
  ): Promise<UploadTarget> {
    if (input.uploadUrl) {
      const parsed = parseUploadUrl(input.uploadUrl);
      return {
        artifactId: parsed?.artifactId ?? '',
        uploadUrl: input.uploadUrl,
        downloadUrl: parsed?.downloadUrl ?? '',
      };
    }
    try {
      return await presign(input);
    } catch (error) {
      if (error instanceof ActionFailure) throw error;
      throw new ActionFailure('ARTIFACT_UPLOAD_FAILED', `artifact presign failed: ${messageOf(error)}`);
    }
  }

  return {
    reserve,
    async upload(input, reserved) {
      const target = await (reserved ?? reserve(input));
      try {
        const stored = await retry(async () => {
          const response = await deps.fetch(target.uploadUrl, {
            method: 'PUT',
            headers: headers(deps.token(), input.contentType),
            body: input.bytes as BodyInit,
          });
          return readEnvelope(response, 'artifact upload');
        });
        const artifactId = typeof stored.artifactId === 'string' ? stored.artifactId : target.artifactId;
        const url = typeof stored.downloadUrl === 'string' ? stored.downloadUrl : target.downloadUrl;
        if (!artifactId || !url)
          fail('ARTIFACT_UPLOAD_FAILED', 'the upload answer names no artifactId or download URL');
        return { artifactId, url };
      } catch (error) {
        if (error instanceof ActionFailure) throw error;
        throw new ActionFailure('ARTIFACT_UPLOAD_FAILED', `artifact upload failed: ${messageOf(error)}`);
      }
    },
  };
}
