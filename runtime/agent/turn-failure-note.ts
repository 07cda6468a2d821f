// The stored trace of a turn that did not end well: a system message whose meta carries the
// outcome and its cause (transport/contracts TurnOutcomeNote), so the web shows "Failed" or
// "Interrupted" with the same cause after a reload as it did live. It sorts at the seq of the
// live notice it stores (per-task order).
import type { ErrorValue } from '../../machines/index.ts';
import type { TurnOutcome } from '../../transport/contracts/index.ts';
import type { Message } from '../store/task-types.ts';

/** How a turn that put its task in `error` ended: cut short by a restart or a failover, or failed. */
export const turnOutcomeOf = (error: Pick<ErrorValue, 'code'> | null | undefined): TurnOutcome =>
  error?.code === 'TASK_INTERRUPTED' ? 'interrupted' : 'error';

export function failureNoteOf(
  error: ErrorValue,
  at: { id: string; timestamp: number; traceId?: string; seq?: number },
  outcome: TurnOutcome = 'error',
): Message {
  const cause = { code: error.code, message: error.message, retryable: error.retryable ?? false };
  const content = outcome === 'error' ? `The task failed: ${error.message}` : error.message;
  return {
    id: at.id,
    role: 'system',
    content,
    timestamp: at.timestamp,
    meta: {
      outcome,
      error: cause,
      ...(at.traceId ? { traceId: at.traceId } : {}),
      ...(at.seq !== undefined ? { seq: at.seq } : {}),
    },
  };
}
