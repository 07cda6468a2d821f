// The PostgreSQL ArtifactStore of cluster mode (runtime/artifacts/artifact-store.ts): metadata in
// mimo_artifacts, bytes in mimo_artifact_chunks as 256 KiB bytea rows (migration 2). Any node
// presigns, accepts the upload, serves and sweeps any artifact, and no shared folder is needed.
// - Memory stays bounded: an upload is written chunk by chunk as it streams in (at most one
//   chunk buffered), a download reads one chunk per pull, a range read only the chunks it covers.
// - Single use across nodes: the upload claim is one conditional upsert (no row or pending ->
//   uploading with a fresh claim id; a presign writes no row); a second request, on any node,
//   finds the row claimed or ready. A claim whose
//   node died is taken over once it is older than `staleClaimMs`; chunks are keyed by claim, so
//   a stale uploader's rows never mix with the new one's, and its commit (WHERE upload_claim =
//   its claim) fails.
// - The sweep is one DELETE ... RETURNING: each expired artifact is removed by exactly one node.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { ArtifactStore, StoredBytes, UploadSink } from '../artifacts/artifact-store.ts';
import type { ArtifactMeta, SweepResult } from '../artifacts/artifact-types.ts';
import { inTransaction } from './postgres-transaction.ts';

export const ARTIFACT_CHUNK_BYTES = 256 * 1024;

interface Row {
  artifact_id: string;
  task_id: string;
  kind: string;
  content_type: string;
  created_at: string;
  state: 'pending' | 'uploading' | 'ready';
  upload_expires_at: string;
  expires_at: string;
  size: string | null;
  uploaded_at: string | null;
  upload_claim: string | null;
}

function metaOf(row: Row): ArtifactMeta {
  return {
    version: 1,
    artifactId: row.artifact_id,
    taskId: row.task_id,
    kind: row.kind,
    contentType: row.content_type,
    createdAt: Number(row.created_at),
    state: row.state === 'ready' ? 'ready' : 'pending',
    uploadExpiresAt: Number(row.upload_expires_at),
    expiresAt: Number(row.expires_at),
    ...(row.size !== null ? { size: Number(row.size) } : {}),
    ...(row.uploaded_at !== null ? { uploadedAt: Number(row.uploaded_at) } : {}),
  };
}

const INSERT = `INSERT INTO mimo_artifacts (artifact_id, task_id, kind, content_type, created_at, state, upload_expires_at, expires_at, size, uploaded_at, upload_claim, upload_claimed_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;

export interface PostgresArtifactStoreOptions {
  pool: pg.Pool;
  /** An upload claim older than this is abandoned (its node died): another upload may take it. */
  staleClaimMs?: number;
}

export function createPostgresArtifactStore({
  pool,
  staleClaimMs = 5 * 60_000,
}: PostgresArtifactStoreOptions): ArtifactStore {
  async function chunk(artifactId: string, seq: number): Promise<Buffer | null> {
    const result = await pool.query<{ bytes: Buffer }>(
      `SELECT c.bytes FROM mimo_artifact_chunks c JOIN mimo_artifacts a ON a.artifact_id = c.artifact_id AND a.upload_claim = c.claim
       WHERE c.artifact_id = $1 AND c.seq = $2 AND a.state = 'ready'`,
      [artifactId, seq],
    );
    return result.rows[0]?.bytes ?? null;
  }

  return {
    kind: 'postgres',

    async readMeta(artifactId) {
      const result = await pool.query<Row>('SELECT * FROM mimo_artifacts WHERE artifact_id = $1', [artifactId]);
      return result.rows[0] ? metaOf(result.rows[0]) : null;
    },

    async claimUpload(meta, now) {
      const artifactId = meta.artifactId;
      const claim = randomBytes(9).toString('base64url');
      // One statement: recorded as uploading if there is no row yet (a presign writes none), or
      // taken over from pending (or from a stale claim); a ready or freshly claimed row is left alone.
      const taken = await pool.query(
        `${INSERT}
         ON CONFLICT (artifact_id) DO UPDATE SET state = 'uploading', upload_claim = EXCLUDED.upload_claim, upload_claimed_at = EXCLUDED.upload_claimed_at
         WHERE mimo_artifacts.state = 'pending' OR (mimo_artifacts.state = 'uploading' AND mimo_artifacts.upload_claimed_at <= $13)`,
        [
          artifactId,
          meta.taskId,
          meta.kind,
          meta.contentType,
          meta.createdAt,
          'uploading',
          meta.uploadExpiresAt,
          meta.expiresAt,
          null,
          null,
          claim,
          now,
          now - staleClaimMs,
        ],
      );
      if (taken.rowCount !== 1) {
        const state = (
          await pool.query<{ state: string }>('SELECT state FROM mimo_artifacts WHERE artifact_id = $1', [artifactId])
        ).rows[0]?.state;
        return {
          ok: false,
          reason: state === 'ready' ? 'already_uploaded' : state === 'uploading' ? 'upload_in_progress' : 'not_found',
        };
      }
      let pending = Buffer.alloc(0);
      let seq = 0;
      const flush = async (bytes: Buffer) => {
        await pool.query('INSERT INTO mimo_artifact_chunks (artifact_id, claim, seq, bytes) VALUES ($1, $2, $3, $4)', [
          artifactId,
          claim,
          seq,
          bytes,
        ]);
        seq += 1;
      };
      const dropChunks = () =>
        pool.query('DELETE FROM mimo_artifact_chunks WHERE artifact_id = $1 AND claim = $2', [artifactId, claim]);
      const sink: UploadSink = {
        async write(bytes) {
          pending = pending.length === 0 ? Buffer.from(bytes) : Buffer.concat([pending, bytes]);
          while (pending.length >= ARTIFACT_CHUNK_BYTES) {
            const head = pending.subarray(0, ARTIFACT_CHUNK_BYTES);
            pending = pending.subarray(ARTIFACT_CHUNK_BYTES);
            await flush(head);
          }
        },
        async commit(ready) {
          if (pending.length > 0) await flush(pending);
          pending = Buffer.alloc(0);
          await inTransaction(pool, async (client) => {
            const done = await client.query(
              `UPDATE mimo_artifacts SET state = 'ready', size = $3, uploaded_at = $4, expires_at = $5, upload_claimed_at = NULL
               WHERE artifact_id = $1 AND upload_claim = $2 AND state = 'uploading'`,
              [artifactId, claim, ready.size ?? 0, ready.uploadedAt ?? null, ready.expiresAt],
            );
            if (done.rowCount !== 1)
              throw new Error(`the upload claim of ${artifactId} was lost (taken over or swept)`);
            // Leftovers of an abandoned claim that this one replaced.
            await client.query('DELETE FROM mimo_artifact_chunks WHERE artifact_id = $1 AND claim <> $2', [
              artifactId,
              claim,
            ]);
          });
        },
        async abort() {
          pending = Buffer.alloc(0);
          await dropChunks();
          await pool.query(
            `UPDATE mimo_artifacts SET state = 'pending', upload_claim = NULL, upload_claimed_at = NULL WHERE artifact_id = $1 AND upload_claim = $2 AND state = 'uploading'`,
            [artifactId, claim],
          );
        },
      };
      return { ok: true, sink };
    },

    async putReady(meta, bytes) {
      const claim = 'put';
      await inTransaction(pool, async (client) => {
        await client.query(INSERT, [
          meta.artifactId,
          meta.taskId,
          meta.kind,
          meta.contentType,
          meta.createdAt,
          'ready',
          meta.uploadExpiresAt,
          meta.expiresAt,
          meta.size ?? bytes.byteLength,
          meta.uploadedAt ?? null,
          claim,
          null,
        ]);
        for (let offset = 0, seq = 0; offset < bytes.byteLength; offset += ARTIFACT_CHUNK_BYTES, seq += 1) {
          const part = Buffer.from(
            bytes.buffer,
            bytes.byteOffset + offset,
            Math.min(ARTIFACT_CHUNK_BYTES, bytes.byteLength - offset),
          );
          await client.query(
            'INSERT INTO mimo_artifact_chunks (artifact_id, claim, seq, bytes) VALUES ($1, $2, $3, $4)',
            [meta.artifactId, claim, seq, part],
          );
        }
      });
    },

    async openBytes(meta) {
      const row = (
        await pool.query<{ size: string | null; state: string }>(
          'SELECT size, state FROM mimo_artifacts WHERE artifact_id = $1',
          [meta.artifactId],
        )
      ).rows[0];
      if (!row || row.state !== 'ready') return null;
      const size = Number(row.size ?? 0);
      const artifactId = meta.artifactId;
      const bytes: StoredBytes = {
        size,
        stream() {
          let seq = 0;
          let sent = 0;
          return new ReadableStream<Uint8Array>({
            async pull(controller) {
              if (sent >= size) return controller.close();
              const part = await chunk(artifactId, seq);
              if (!part) return controller.error(new Error(`artifact ${artifactId} was removed while it was read`));
              seq += 1;
              sent += part.length;
              controller.enqueue(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
            },
          });
        },
        async read(offset, length) {
          const end = Math.min(size, offset + length);
          if (end <= offset) return new Uint8Array(0);
          const first = Math.floor(offset / ARTIFACT_CHUNK_BYTES);
          const last = Math.floor((end - 1) / ARTIFACT_CHUNK_BYTES);
          const result = await pool.query<{ seq: number; bytes: Buffer }>(
            `SELECT c.seq, c.bytes FROM mimo_artifact_chunks c JOIN mimo_artifacts a ON a.artifact_id = c.artifact_id AND a.upload_claim = c.claim
             WHERE c.artifact_id = $1 AND c.seq BETWEEN $2 AND $3 AND a.state = 'ready' ORDER BY c.seq`,
            [artifactId, first, last],
          );
          if (result.rows.length !== last - first + 1)
            throw new Error(`artifact ${artifactId} was removed while it was read`);
          const joined = Buffer.concat(result.rows.map((r) => r.bytes));
          const start = offset - first * ARTIFACT_CHUNK_BYTES;
          return joined.subarray(start, start + (end - offset));
        },
      };
      return bytes;
    },

    async sweep(now): Promise<SweepResult> {
      // Expired artifacts (kept until their upload token has expired too), abandoned pending ones
      // past their upload expiry, but not an upload in flight (unless its claim is stale: its node
      // died). One statement: one node wins each row.
      const removed = await pool.query<{ artifact_id: string }>(
        `DELETE FROM mimo_artifacts WHERE expires_at <= $1 AND upload_expires_at <= $1 AND (state <> 'uploading' OR upload_claimed_at <= $2) RETURNING artifact_id`,
        [now, now - staleClaimMs],
      );
      // Chunks of a claim that lost (its node died, another upload committed): no longer reachable.
      const leftovers = await pool.query(
        `DELETE FROM mimo_artifact_chunks c USING mimo_artifacts a
         WHERE c.artifact_id = a.artifact_id AND a.state = 'ready' AND c.claim <> a.upload_claim`,
      );
      return {
        removed: removed.rows.map((r) => r.artifact_id).sort(),
        tempFilesRemoved: leftovers.rowCount ?? 0,
        errors: [],
      };
    },
  };
}
