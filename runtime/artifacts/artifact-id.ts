// Artifact ids: `art-` + 21 random characters of nanoid's URL-safe alphabet. An id names a file
// in the artifact folder, so anything else (`../x`, `%2e%2e`, `/etc/passwd`, NUL, backslashes,
// dots, wrong length) is refused before it comes near a path.
import { nanoid } from 'nanoid';

const ARTIFACT_ID = /^art-[A-Za-z0-9_-]{21}$/;

export function newArtifactId(): string {
  return `art-${nanoid(21)}`;
}

export function isValidArtifactId(value: unknown): value is string {
  return typeof value === 'string' && ARTIFACT_ID.test(value);
}
