// Response headers for serving an artifact. Artifacts are untrusted bytes served from the
// server's own origin (an `html` artifact is a captured page), so the browser is told not to
// sniff types and to render documents in a sandbox with no scripts and no network access.
import type { OpenedArtifact } from './artifact-types.ts';

export function artifactResponseHeaders(
  artifact: Pick<OpenedArtifact, 'contentType' | 'size'>,
): Record<string, string> {
  return {
    'content-type': artifact.contentType,
    'content-length': String(artifact.size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
  };
}
