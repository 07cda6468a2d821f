// One cleaning pass over the artifact folder: deletes expired artifacts (ready ones past their
// download expiry, pending ones past their upload expiry), artifacts with damaged metadata,
// data files without metadata (a crash between the two writes), and temp files no write of this
// process is using. Artifacts with an upload in flight are left alone. Unknown files are kept.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactFolder } from './artifact-folder.ts';
import { classifyEntry } from './artifact-folder.ts';
import type { SweepResult } from './artifact-types.ts';

const errnoOf = (error: unknown) => String((error as NodeJS.ErrnoException)?.code ?? 'UNKNOWN');

export async function sweepFolder(
  folder: ArtifactFolder,
  now: number,
  busy: ReadonlySet<string>,
): Promise<SweepResult> {
  const result: SweepResult = { removed: [], tempFilesRemoved: 0, errors: [] };
  let names: string[];
  try {
    names = await readdir(folder.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  const present = new Set(names);

  const removeArtifact = async (artifactId: string) => {
    try {
      await rm(folder.dataPath(artifactId), { force: true });
      await rm(folder.metaPath(artifactId), { force: true });
      result.removed.push(artifactId);
    } catch (error) {
      result.errors.push({ name: artifactId, errno: errnoOf(error) });
    }
  };

  for (const name of names) {
    const entry = classifyEntry(name);
    if (entry.type === 'temp') {
      const path = join(folder.dir, name);
      if (folder.inUse.has(path)) continue;
      try {
        await rm(path, { force: true });
        result.tempFilesRemoved++;
      } catch (error) {
        result.errors.push({ name, errno: errnoOf(error) });
      }
    } else if (entry.type === 'meta') {
      if (busy.has(entry.artifactId)) continue;
      let meta;
      try {
        meta = await folder.readMeta(entry.artifactId);
      } catch (error) {
        result.errors.push({ name, errno: errnoOf(error) });
        continue;
      }
      if (meta === null) continue; // deleted meanwhile
      // Kept until its upload token has expired too: a still valid token must find the record.
      if (meta === 'damaged' || now >= Math.max(meta.expiresAt, meta.uploadExpiresAt))
        await removeArtifact(entry.artifactId);
    } else if (entry.type === 'data') {
      if (busy.has(entry.artifactId) || present.has(`${name}.json`)) continue;
      // The listing may be stale: a write that finished since then has its metadata now.
      const hasMeta = await stat(folder.metaPath(entry.artifactId)).then(
        () => true,
        () => false,
      );
      if (!hasMeta && !busy.has(entry.artifactId)) await removeArtifact(entry.artifactId);
    }
  }
  return result;
}
