// The folder ArtifactStore (the default): metadata beside the bytes in one local folder
// (artifact-folder.ts for the layout, artifact-sweep.ts for the sweep). The upload slot is a Set
// of this process, so it is single-use within one process only: cluster mode uses PostgreSQL.
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ioError } from './artifact-error.ts';
import { createArtifactFolder, type ArtifactFolder } from './artifact-folder.ts';
import type { ArtifactStore, UploadSink } from './artifact-store.ts';
import { sweepFolder } from './artifact-sweep.ts';

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
      const temp = folder.tempPath(artifactId, 'upload');
      folder.inUse.add(temp);
      const release = () => {
        folder.inUse.delete(temp);
        busy.delete(artifactId);
      };
      let file: FileHandle | undefined;
      try {
        await ensureDir();
        file = await open(temp, 'wx');
      } catch (error) {
        release();
        throw ioError('create the upload file', error, { artifactId });
      }
      const handle = file;
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await handle.close();
      };
      const sink: UploadSink = {
        async write(chunk) {
          let offset = 0;
          while (offset < chunk.byteLength)
            offset += (await handle.write(chunk, offset, chunk.byteLength - offset)).bytesWritten;
        },
        async commit(ready) {
          try {
            await close();
            await rename(temp, folder.dataPath(artifactId));
            await folder.writeMeta(ready);
          } catch (error) {
            await rm(temp, { force: true }).catch(() => undefined);
            throw error;
          } finally {
            release();
          }
        },
        async abort() {
          try {
            await close().catch(() => undefined);
            await rm(temp, { force: true }).catch(() => undefined);
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
