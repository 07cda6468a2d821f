// The artifact folder's layout (flat):
//   <dir>/<artifactId>          the bytes
//   <dir>/<artifactId>.json     its ArtifactMeta
//   <dir>/.<artifactId>.<nonce>.tmp / .upload   temp files of atomic writes (.upload: older versions)
// Metadata and server-side writes go to a temp file first and are renamed into place (an upload
// writes its bytes in place, then its metadata: artifact-folder-store.ts). Temp files in use are
// listed in `inUse`, so a sweep removes only the ones left behind by a crash.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isValidArtifactId } from './artifact-id.ts';
import type { ArtifactMeta } from './artifact-types.ts';

export type EntryKind =
  { type: 'data'; artifactId: string } | { type: 'meta'; artifactId: string } | { type: 'temp' } | { type: 'other' };

export function classifyEntry(name: string): EntryKind {
  const isId = (text: string): boolean => isValidArtifactId(text); // no type narrowing of `name`
  if (isId(name)) return { type: 'data', artifactId: name };
  if (name.endsWith('.json') && isId(name.slice(0, -5))) return { type: 'meta', artifactId: name.slice(0, -5) };
  if (/^\.art-[A-Za-z0-9_-]{21}\.[0-9a-f]{12}\.(tmp|upload)$/.test(name)) return { type: 'temp' };
  return { type: 'other' };
}

export interface ArtifactFolder {
  readonly dir: string;
  /** Temp files currently being written by this process. */
  readonly inUse: Set<string>;
  dataPath(artifactId: string): string;
  metaPath(artifactId: string): string;
  tempPath(artifactId: string, kind: 'tmp' | 'upload'): string;
  ensureDir(): Promise<void>;
  /** null: no metadata; 'damaged': present but not an ArtifactMeta. */
  readMeta(artifactId: string): Promise<ArtifactMeta | null | 'damaged'>;
  writeMeta(meta: ArtifactMeta): Promise<void>;
  writeData(artifactId: string, bytes: Uint8Array | string): Promise<void>;
}

function isMeta(value: unknown, artifactId: string): value is ArtifactMeta {
  const meta = value as Partial<ArtifactMeta> | null;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    meta.artifactId === artifactId &&
    (meta.state === 'pending' || meta.state === 'ready') &&
    typeof meta.contentType === 'string' &&
    typeof meta.expiresAt === 'number' &&
    typeof meta.uploadExpiresAt === 'number'
  );
}

export function createArtifactFolder(dir: string): ArtifactFolder {
  const root = resolve(dir);
  const inUse = new Set<string>();
  let made: Promise<void> | undefined;

  async function atomicWrite(artifactId: string, target: string, content: Uint8Array | string): Promise<void> {
    const temp = folder.tempPath(artifactId, 'tmp');
    inUse.add(temp);
    try {
      await writeFile(temp, content);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw error;
    } finally {
      inUse.delete(temp);
    }
  }

  const folder: ArtifactFolder = {
    dir: root,
    inUse,
    dataPath: (artifactId) => join(root, artifactId),
    metaPath: (artifactId) => join(root, `${artifactId}.json`),
    tempPath: (artifactId, kind) => join(root, `.${artifactId}.${randomBytes(6).toString('hex')}.${kind}`),
    ensureDir() {
      made ??= mkdir(root, { recursive: true }).then(
        () => undefined,
        (error: unknown) => {
          made = undefined;
          throw error;
        },
      );
      return made;
    },
    async readMeta(artifactId) {
      let text: string;
      try {
        text = await readFile(folder.metaPath(artifactId), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      try {
        const value: unknown = JSON.parse(text);
        return isMeta(value, artifactId) ? value : 'damaged';
      } catch {
        return 'damaged';
      }
    },
    writeMeta: (meta) => atomicWrite(meta.artifactId, folder.metaPath(meta.artifactId), JSON.stringify(meta)),
    writeData: (artifactId, bytes) => atomicWrite(artifactId, folder.dataPath(artifactId), bytes),
  };
  return folder;
}
