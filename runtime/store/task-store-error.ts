// The error value every task store method rejects with. Codes and HTTP statuses follow
// seed 001 §0.3, so the HTTP layer can put `toJSON()` straight into its error envelope.

export type TaskStoreErrorCode = 'BAD_REQUEST' | 'NOT_FOUND' | 'CONFLICT' | 'INTERNAL';

const STATUS: Record<TaskStoreErrorCode, number> = {
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INTERNAL: 500,
};

export interface TaskStoreErrorDetails {
  retryable?: boolean;
  context?: Record<string, unknown>;
  fieldErrors?: Array<{ field: string; message: string }>;
}

export class TaskStoreError extends Error {
  readonly code: TaskStoreErrorCode;
  readonly status: number;
  readonly details: TaskStoreErrorDetails | undefined;

  constructor(code: TaskStoreErrorCode, message: string, details?: TaskStoreErrorDetails, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'TaskStoreError';
    this.code = code;
    this.status = STATUS[code];
    this.details = details;
  }

  toJSON(): { code: TaskStoreErrorCode; message: string; details?: TaskStoreErrorDetails } {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

export function isTaskStoreError(value: unknown): value is TaskStoreError {
  return value instanceof TaskStoreError;
}

/** Wraps a failed disk operation: INTERNAL, retryable, the errno kept in `details` (no paths). */
export function internalError(action: string, taskId: string | undefined, cause: unknown): TaskStoreError {
  const errno = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const context: Record<string, unknown> = {};
  if (taskId !== undefined) context.taskId = taskId;
  if (errno !== undefined) context.errno = errno;
  return new TaskStoreError(
    'INTERNAL',
    `task store could not ${action}${errno ? ` (${errno})` : ''}`,
    { retryable: true, context },
    cause,
  );
}
