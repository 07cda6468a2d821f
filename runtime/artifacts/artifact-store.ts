// Where the artifact service keeps metadata and bytes: the adapter behind createArtifactService.
//   folder (default, artifact-folder-store.ts): `<dir>/<id>` + `<dir>/<id>.json`, one process.
//   PostgreSQL (cluster mode, runtime/store/postgres-artifact-store.ts): metadata rows and the
//   bytes in 256 KiB bytea chunks, so every node presigns, accepts, serves and sweeps any artifact.
// The single-use upload is the store's: `claimUpload` takes the one upload slot atomically
// (a Set in the folder store, a conditional upsert in PostgreSQL), so a token cannot be redeemed
// twice, not even on two nodes at once. A ready artifact's record stays until its upload token
// has expired too (the sweep keeps it to max(expiresAt, uploadExpiresAt)), so a token can never
// find "no record" again after its upload landed.
import type { ArtifactMeta, SweepResult } from './artifact-types.ts';

/** Where an accepted upload's bytes go while they stream in. */
export interface UploadSink {
  write(chunk: Uint8Array): Promise<void>;
  /** Every byte is in: the artifact becomes `ready` with this metadata. */
  commit(ready: ArtifactMeta): Promise<void>;
  /** The upload failed: what was written is dropped and the artifact is `pending` again (its URL works until it expires). */
  abort(): Promise<void>;
}

export type UploadClaim =
  { ok: true; sink: UploadSink } | { ok: false; reason: 'already_uploaded' | 'upload_in_progress' | 'not_found' };

/** The bytes of a ready artifact. */
export interface StoredBytes {
  size: number;
  /** The file, when the store keeps one (folder store only). */
  path?: string;
  /** A fresh stream of the bytes, read in bounded pieces. */
  stream(): ReadableStream<Uint8Array>;
  /** Up to `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface ArtifactStore {
  readonly kind: 'folder' | 'postgres';
  /** null: no such artifact; 'damaged': present but unreadable. */
  readMeta(artifactId: string): Promise<ArtifactMeta | null | 'damaged'>;
  /**
   * Takes the artifact's one upload slot (`now` for the staleness of an abandoned claim). `pending`
   * is the artifact as its token describes it: recorded here if the store has no record of it yet
   * (a presign writes nothing).
   */
  claimUpload(pending: ArtifactMeta, now: number): Promise<UploadClaim>;
  /** A server-side write: metadata (state ready) and bytes at once. */
  putReady(meta: ArtifactMeta, bytes: Uint8Array): Promise<void>;
  /** null: the bytes are gone (swept meanwhile). */
  openBytes(meta: ArtifactMeta): Promise<StoredBytes | null>;
  /** Deletes what expired by `now` (and leftovers); each artifact is removed by exactly one sweep. */
  sweep(now: number): Promise<SweepResult>;
}
