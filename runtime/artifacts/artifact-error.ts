// The error value every artifact service method rejects with: a seed 001 §0.3 `code`, the HTTP
// `status` to answer with (which may differ from the code's default: 410 for an expired
// artifact, 413 for an oversize upload, 408 for an upload that took too long) and a `reason`.

export type ArtifactErrorCode = 'BAD_REQUEST' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'INTERNAL';

export type ArtifactErrorReason =
  | 'invalid_id'
  | 'invalid_input'
  | 'invalid_token'
  | 'token_expired'
  | 'not_found'
  | 'pending'
  | 'expired'
  | 'already_uploaded'
  | 'upload_in_progress'
  | 'content_type_mismatch'
  | 'too_large'
  | 'length_mismatch'
  | 'upload_timeout'
  | 'body_error'
  | 'io_error';

const DEFAULT_STATUS: Record<ArtifactErrorCode, number> = {
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INTERNAL: 500,
};

export interface ArtifactErrorOptions {
  status?: number;
  retryable?: boolean;
  context?: Record<string, unknown>;
  fieldErrors?: Array<{ field: string; message: string }>;
  cause?: unknown;
}

export class ArtifactError extends Error {
  readonly code: ArtifactErrorCode;
  readonly status: number;
  readonly reason: ArtifactErrorReason;
  readonly retryable: boolean | undefined;
  readonly context: Record<string, unknown> | undefined;
  readonly fieldErrors: Array<{ field: string; message: string }> | undefined;

  constructor(
    code: ArtifactErrorCode,
    reason: ArtifactErrorReason,
    message: string,
    options: ArtifactErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ArtifactError';
    this.code = code;
    this.reason = reason;
    this.status = options.status ?? DEFAULT_STATUS[code];
    this.retryable = options.retryable;
    this.context = options.context;
    this.fieldErrors = options.fieldErrors;
  }

  /** The `error` object of the seed 001 §0.3 envelope; `details.reason` says why (e.g. "expired"). */
  toJSON(): { code: ArtifactErrorCode; message: string; details: Record<string, unknown> } {
    const details: Record<string, unknown> = { reason: this.reason };
    if (this.retryable !== undefined) details.retryable = this.retryable;
    if (this.context) details.context = this.context;
    if (this.fieldErrors) details.fieldErrors = this.fieldErrors;
    return { code: this.code, message: this.message, details };
  }
}

export function isArtifactError(value: unknown): value is ArtifactError {
  return value instanceof ArtifactError;
}

/** A failed disk operation: INTERNAL 500, the errno kept in `context` (no paths in the message). */
export function ioError(action: string, cause: unknown, context: Record<string, unknown> = {}): ArtifactError {
  const errno = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  return new ArtifactError(
    'INTERNAL',
    'io_error',
    `artifact storage could not ${action}${errno ? ` (${errno})` : ''}`,
    {
      retryable: true,
      context: errno ? { ...context, errno } : context,
      cause,
    },
  );
}
