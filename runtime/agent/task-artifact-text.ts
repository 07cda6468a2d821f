// The text a page read stored as an artifact (readability results of 256 KB or more), read back
// for the task that made it: the agent's page read and MCP's page driver both name the artifact
// the extension reported, and an artifact of another task is never read (a plugin that names
// one gets a refusal, not that task's page text).
import type { ArtifactService } from '../artifacts/index.ts';

export type ArtifactText = { ok: true; text: string } | { ok: false; reason: string };

export async function readTaskArtifactText(
  artifacts: Pick<ArtifactService, 'open'>,
  taskId: string,
  artifactId: string,
): Promise<ArtifactText> {
  try {
    const opened = await artifacts.open(artifactId);
    if (opened.taskId !== taskId) return { ok: false, reason: `artifact ${artifactId} belongs to another task` };
    return { ok: true, text: await new Response(opened.stream()).text() };
  } catch (error) {
    return {
      ok: false,
      reason: `artifact ${artifactId} could not be read back: ${(error as Error)?.message ?? String(error)}`,
    };
  }
}
