// Public shapes of the artifact service (seed 001 §2.4).

export type ArtifactKind = 'screenshot' | 'html' | 'readability' | 'log' | (string & {});

/** The runtime's one clock type (runtime/clock); this module only reads `now()`. */
import type { WallClock } from '../clock/index.ts';
export type Clock = WallClock;

/** Timers, injectable so tests drive the upload timeout and the sweeper without sleeping. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface ArtifactServiceOptions {
  /** Folder for artifact files (seed: `./uploads/artifacts`); created on first use. Unused when `store` is given. */
  dir: string;
  /** Where metadata and bytes live (artifact-store.ts); default: the folder store on `dir`. */
  store?: import('./artifact-store.ts').ArtifactStore;
  /** HMAC key for upload tokens; at least 16 bytes (a shorter one throws a TypeError). */
  secret: string | Uint8Array;
  clock: Clock;
  /** Origin the browser and the plugin reach the server at, e.g. `http://localhost:6006`. */
  publicBaseUrl: string;
  /** How long an upload URL is valid; default 15 min. */
  uploadTtlMs?: number;
  /** How long an uploaded artifact stays downloadable, from the end of its upload; default 24 h. */
  downloadTtlMs?: number;
  /** Default 25 MB (25 * 1024 * 1024 bytes). */
  maxUploadBytes?: number;
  /** One upload must finish within this time; default 60 s. */
  uploadTimeoutMs?: number;
  scheduler?: Scheduler;
}

export interface PresignInput {
  taskId: string;
  kind: ArtifactKind;
  contentType: string;
}

export interface PresignResult {
  artifactId: string;
  uploadUrl: string;
  downloadUrl: string;
  /** When `uploadUrl` stops working (epoch ms). */
  expiresAt: number;
}

/** The folder store keeps it beside the file as `<artifactId>.json`; PostgreSQL as a row of mimo_artifacts. */
export interface ArtifactMeta {
  version: 1;
  artifactId: string;
  taskId: string;
  kind: string;
  contentType: string;
  createdAt: number;
  /** `pending` until the upload completes. */
  state: 'pending' | 'ready';
  /** When the presigned upload URL expires. */
  uploadExpiresAt: number;
  /** When the artifact stops being served and becomes sweepable (pending: = uploadExpiresAt). */
  expiresAt: number;
  size?: number;
  uploadedAt?: number;
}

export interface UploadOptions {
  /** The request's Content-Length, if any: checked against the limit before reading, and against the bytes received. */
  contentLength?: number;
  /** The request's Content-Type, if any: must match the presigned one (media type, case-insensitive). */
  contentType?: string;
}

export interface StoredArtifact {
  artifactId: string;
  downloadUrl: string;
  contentType: string;
  size: number;
  /** When the artifact stops being downloadable. */
  expiresAt: number;
}

export interface OpenedArtifact {
  artifactId: string;
  taskId: string;
  kind: string;
  contentType: string;
  size: number;
  createdAt: number;
  expiresAt: number;
  /** Absolute path of the file (inside the service's folder); absent when the bytes are in PostgreSQL. */
  path?: string;
  /** A fresh web stream of the bytes (fails if the artifact was swept in the meantime). */
  stream(): ReadableStream<Uint8Array>;
  /** Up to `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface PutArtifactInput {
  taskId: string;
  kind: ArtifactKind;
  contentType: string;
  bytes: Uint8Array | string;
}

export interface SweepResult {
  /** Artifacts deleted (expired, abandoned pending uploads, damaged metadata, files without metadata). */
  removed: string[];
  /** Leftover temp files deleted. */
  tempFilesRemoved: number;
  /** Entries that could not be deleted this time. */
  errors: Array<{ name: string; errno: string }>;
}

export interface SweeperOptions {
  /** Default 6 h (seed 001 §2.4). A first sweep runs at once. */
  intervalMs?: number;
  onResult?(result: SweepResult): void;
  onError?(error: unknown): void;
}

export interface ArtifactService {
  presign(input: PresignInput): Promise<PresignResult>;
  /** `token` is the `token` query parameter as received (missing or malformed: FORBIDDEN invalid_token). */
  acceptUpload(
    artifactId: string,
    token: string | null | undefined,
    body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
    options?: UploadOptions,
  ): Promise<StoredArtifact>;
  open(artifactId: string): Promise<OpenedArtifact>;
  putArtifact(input: PutArtifactInput): Promise<StoredArtifact>;
  sweep(): Promise<SweepResult>;
  /** Returns `stop()`. */
  startSweeper(options?: SweeperOptions): () => void;
}
