// The one error value every decoder in this folder returns instead of throwing.
// `type: 'error'` lets callers tell it apart from a packet with a single check.

export type CodecErrorCode =
  | 'EMPTY'
  | 'UNKNOWN_TYPE'
  | 'TOO_LARGE'
  | 'BAD_JSON'
  | 'BAD_NAMESPACE'
  | 'BAD_ID'
  | 'BAD_PAYLOAD'
  | 'TOO_MANY_ATTACHMENTS'
  | 'BAD_ATTACHMENTS'
  | 'BAD_BASE64';

export interface CodecError {
  type: 'error';
  code: CodecErrorCode;
  message: string;
}

export function codecError(code: CodecErrorCode, message: string): CodecError {
  return { type: 'error', code, message };
}

export function isCodecError(value: unknown): value is CodecError {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { type?: unknown }).type === 'error' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}
