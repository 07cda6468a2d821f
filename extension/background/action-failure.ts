// ActionFailure: how handler code reports a seed error code. Thrown inside a handler and
// caught by the action runner (background/action-runner.ts), which turns it into a
// `browser_action_result` with status "error"; it never escapes the background.
import { protocolError } from '../../transport/contracts/index.ts';
import type { ActionErrorCode, ProtocolError } from '../../transport/contracts/index.ts';

export class ActionFailure extends Error {
  readonly error: ProtocolError;
  constructor(code: ActionErrorCode, message: string, details?: Record<string, unknown>, retryable?: boolean) {
    super(message);
    this.name = 'ActionFailure';
    const extra: { details?: Record<string, unknown>; retryable?: boolean } = {};
    if (details !== undefined) extra.details = details;
    if (retryable !== undefined) extra.retryable = retryable;
    this.error = protocolError(code, message, extra);
  }
}

export function fail(code: ActionErrorCode, message: string, details?: Record<string, unknown>): never {
  throw new ActionFailure(code, message, details);
}

/** The message of anything thrown (extension API errors are plain Errors or strings). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error)
    return String((error as { message: unknown }).message);
  return String(error);
}
