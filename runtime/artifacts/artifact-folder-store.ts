// The folder ArtifactStore (the default): metadata beside the bytes in one local folder
// (artifact-folder.ts for the layout, artifact-sweep.ts for the sweep). The upload slot is a Set
// of this process, so it is single-use within one process only: cluster mode uses PostgreSQL.
import { createReadStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ioError } from './artifact-error.ts';
import { createArtifactFolder, type ArtifactFolder } from './artifact-folder.ts';
import type { ArtifactStore, UploadSink } from './artifact-store.ts';
import { sweepFolder } from './artifact-sweep.ts';

/** Upload bytes gathered in memory before a write (bounded per upload). */
const FLUSH_BYTES = 512 * 1024;

async function writeAll(handle: FileHandle, chunks: Uint8Array[]): Promise<void> {
  let buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  while (buffer.byteLength > 0) {
    const { bytesWritten } = await handle.write(buffer, 0, buffer.byteLength);
    buffer = buffer.subarray(bytesWritten);
  }
}

export function createFolderArtifactStore(dir: string): ArtifactStore & { folder: ArtifactFolder } {
  const folder = createArtifactFolder(dir);
  /** Artifacts with an upload or a server-side write in flight: never swept, never uploaded twice. */
  const busy = new Set<string>();

  async function ensureDir(): Promise<void> {
    try {
      await folder.ensureDir();
    } catch (error) {
      throw ioError('create its folder', error);
    }
  }

  return {
    kind: 'folder',
    folder,
    readMeta: (artifactId) => folder.readMeta(artifactId),
    async claimUpload({ artifactId }) {
      if (busy.has(artifactId)) return { ok: false, reason: 'upload_in_progress' };
      busy.add(artifactId); // synchronously after the check: a concurrent upload now sees it
      const release = () => busy.delete(artifactId);
      // The bytes go straight to their final path: the artifact exists only once its metadata is
      // written (atomically, after the bytes), so a reader never sees a partial upload; bytes left
      // without metadata by a crash are swept (artifact-sweep.ts), and `busy` keeps the sweep away
      // meanwhile. Bytes already there are either an artifact uploaded through another instance on
      // this folder (its metadata says ready: refused) or the leftover of a crashed upload (overwritten).
      const path = folder.dataPath(artifactId);
      let file: FileHandle | undefined;
      try {
        await ensureDir();
        file = await open(path, 'wx').catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
          const meta = await folder.readMeta(artifactId);
          if (meta !== null && meta !== 'damaged' && meta.state === 'ready') return undefined;
          return open(path, 'w');
        });
      } catch (error) {
        release();
        throw ioError('create the upload file', error, { artifactId });
      }
      if (!file) {
        release();
        return { ok: false, reason: 'already_uploaded' };
      }
      const handle = file;
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await handle.close();
      };
      // Chunks are gathered up to FLUSH_BYTES and written in one call (a screenshot: one write).
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        const chunks = pending;
        pending = [];
        pendingBytes = 0;
        await writeAll(handle, chunks);
      };
      const sink: UploadSink = {
        async write(chunk) {
          if (chunk.byteLength === 0) return;
          pending.push(chunk);
          pendingBytes += chunk.byteLength;
          if (pendingBytes >= FLUSH_BYTES) await flush();
        },
        async commit(ready) {
          try {
            await flush();
            await close();
            await folder.writeMeta(ready);
          } catch (error) {
            await close().catch(() => undefined);
            await rm(path, { force: true }).catch(() => undefined);
            throw error;
          } finally {
            release();
          }
        },
        async abort() {
          try {
            await close().catch(() => undefined);
            await rm(path, { force: true }).catch(() => undefined);
          } finally {
            release();
          }
        },
      };
      return { ok: true, sink };
    },
    async putReady(meta, bytes) {
      await ensureDir();
      busy.add(meta.artifactId);
      try {
        await folder.writeData(meta.artifactId, bytes);
        await folder.writeMeta(meta);
      } catch (error) {
        await rm(folder.dataPath(meta.artifactId), { force: true }).catch(() => undefined);
        throw error;
      } finally {
        busy.delete(meta.artifactId);
      }
    },
    async openBytes(meta) {
      const path = folder.dataPath(meta.artifactId);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return {
        size,
        path,
        stream: () => Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>,
        async read(offset, length) {
          const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
          let read = 0;
          if (buffer.length === 0) return buffer;
          const file = await open(path, 'r');
          try {
            while (read < buffer.length) {
              const { bytesRead } = await file.read(buffer, read, buffer.length - read, offset + read);
              if (bytesRead === 0) break;
              read += bytesRead;
            }
          } finally {
            await file.close();
          }
          return buffer.subarray(0, read);
        },
      };
    },
    sweep: (now) => sweepFolder(folder, now, busy),
  };
}
