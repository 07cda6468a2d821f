// Checks on what callers pass to presign/putArtifact. The content type is echoed back as a
// response header on download, so it must be a plain `type/subtype[; param=value]` (no CR/LF).
import { ArtifactError } from './artifact-error.ts';

const TOKEN_CHARS = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const CONTENT_TYPE = new RegExp(
  `^${TOKEN_CHARS}/${TOKEN_CHARS}(?:[ \\t]*;[ \\t]*${TOKEN_CHARS}=(?:${TOKEN_CHARS}|"[^"\\\\\\r\\n]*"))*$`,
);
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const KIND = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

export function isValidContentType(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && CONTENT_TYPE.test(value);
}

/** `Text/HTML; charset=utf-8` -> `text/html`. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export function checkArtifactInput(
  input: unknown,
): { taskId: string; kind: string; contentType: string } | ArtifactError {
  const fieldErrors: Array<{ field: string; message: string }> = [];
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (typeof record.taskId !== 'string' || !TASK_ID.test(record.taskId))
    fieldErrors.push({ field: 'taskId', message: 'expected 1-128 characters of [A-Za-z0-9_-]' });
  if (typeof record.kind !== 'string' || !KIND.test(record.kind))
    fieldErrors.push({ field: 'kind', message: 'expected 1-64 characters of [a-z0-9_-], e.g. "screenshot"' });
  if (!isValidContentType(record.contentType))
    fieldErrors.push({ field: 'contentType', message: 'expected a media type such as "image/png"' });
  if (fieldErrors.length > 0)
    return new ArtifactError('BAD_REQUEST', 'invalid_input', 'invalid artifact request', { fieldErrors });
  return {
    taskId: record.taskId as string,
    kind: record.kind as string,
    contentType: (record.contentType as string).trim(),
  };
}
