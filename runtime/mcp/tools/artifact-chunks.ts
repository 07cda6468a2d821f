// get_artifact (seed 003 §5): a byte range of an artifact as base64, at most
// maxArtifactInlineBytes (256 KB) per call, with `complete` when the range reaches the end.
// Only artifacts MCP produced (run results, browser-shell screenshots) are readable here.
import type { ArtifactService } from '../../artifacts/index.ts';
import { isArtifactError } from '../../artifacts/index.ts';
import { seedError, type SeedError } from './tool-errors.ts';

export const MAX_ARTIFACT_INLINE_BYTES = 262_144;

export interface ArtifactAccess {
  /** Known to MCP: its expiry, or undefined when MCP never handed it out. */
  expiresAt(artifactId: string): number | undefined | Promise<number | undefined>;
}

export interface ArtifactChunk {
  artifactId: string;
  mimeType: string;
  size: number;
  data: string;
  offset: number;
  bytesReturned: number;
  complete: boolean;
}

export async function readArtifactChunk(
  deps: { artifacts: ArtifactService; access: ArtifactAccess; now: number },
  request: { artifactId: string; offset?: number | undefined; limit?: number | undefined },
): Promise<{ ok: true; value: ArtifactChunk } | { ok: false; error: SeedError }> {
  const { artifactId } = request;
  const expiresAt = await deps.access.expiresAt(artifactId);
  if (expiresAt === undefined)
    return { ok: false, error: seedError('ARTIFACT_NOT_FOUND', `no artifact ${artifactId}`, { artifactId }) };
  if (expiresAt <= deps.now)
    return {
      ok: false,
      error: seedError('ARTIFACT_EXPIRED', `artifact ${artifactId} expired at ${new Date(expiresAt).toISOString()}`, {
        artifactId,
        expiresAt,
      }),
    };
  let opened;
  try {
    opened = await deps.artifacts.open(artifactId);
  } catch (error) {
    if (isArtifactError(error) && error.reason === 'expired')
      return { ok: false, error: seedError('ARTIFACT_EXPIRED', `artifact ${artifactId} has expired`, { artifactId }) };
    return {
      ok: false,
      error: seedError('ARTIFACT_NOT_FOUND', `artifact ${artifactId} is not available`, { artifactId }),
    };
  }
  const offset = request.offset ?? 0;
  if (offset > opened.size)
    return {
      ok: false,
      error: seedError('INVALID_PARAMETER', `offset ${offset} is past the end (${opened.size} bytes)`, {
        artifactId,
        offset,
        size: opened.size,
      }),
    };
  const length = Math.min(request.limit ?? MAX_ARTIFACT_INLINE_BYTES, MAX_ARTIFACT_INLINE_BYTES, opened.size - offset);
  // The store reads the range (a file, or PostgreSQL chunks in cluster mode).
  const data = length > 0 ? Buffer.from(await opened.read(offset, length)) : Buffer.alloc(0);
  const read = data.length;
  return {
    ok: true,
    value: {
      artifactId,
      mimeType: opened.contentType,
      size: opened.size,
      data: data.toString('base64'),
      offset,
      bytesReturned: read,
      complete: offset + read >= opened.size,
    },
  };
}
