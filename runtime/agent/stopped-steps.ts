// Steps a Stop cut short after their frame was sent: the action settles `canceled` at
// once (the turn must not wait), but the browser may have done it anyway (the text was typed,
// then the task stopped). The extension still answers such an action; that answer arrives as a
// late result. Until it does (or a grace period on the runtime's clock passes), the step is held
// back from the history; then it is reported as what happened: done, then stopped, or stopped
// with no answer (it may have taken effect). Never "canceled" for an effect that took place.
import { errorValue } from '../../machines/index.ts';
import type { ToolUsedEvent } from '../../transport/contracts/index.ts';
import type { Clock } from '../clock/index.ts';
import { compactResult } from './action-outcome.ts';
import type { StepRecord } from './task-browser-types.ts';

/** How long a stopped step waits for the browser's own answer before it is stored as stopped. */
export const STOPPED_STEP_GRACE_MS = 3_000;
export const STOPPED_AFTER_EFFECT = 'the task was stopped right after this step took effect';

type ToolUsedFields = Omit<ToolUsedEvent, 'id' | 'timestamp' | 'type'>;

export interface LateAnswer {
  status: 'success' | 'partial' | 'error';
  result?: Record<string, unknown> | undefined;
  error?: { code: string; message: string; retryable?: boolean } | undefined;
}

export function createStoppedSteps(deps: {
  clock?: Clock | undefined;
  store(record: StepRecord): void;
  show(event: ToolUsedFields): { seq?: number } | void;
}) {
  const held = new Map<string, { record: StepRecord; event: ToolUsedFields; timer: unknown }>();

  function storeStopped(actionId: string): void {
    const entry = held.get(actionId);
    if (!entry) return;
    held.delete(actionId);
    const error = errorValue(
      'TASK_STOPPED',
      `${entry.record.actionName} was stopped while it ran; the browser did not say whether it took effect`,
      { retryable: false },
    );
    deps.store({ ...entry.record, error });
  }

  return {
    /** A step canceled after its frame was sent: shown as stopped now, stored when its outcome is known. */
    hold(record: StepRecord, event: ToolUsedFields): void {
      if (!deps.clock) {
        deps.store(record);
        return;
      }
      const timer = deps.clock.setTimeout(() => storeStopped(record.actionId), STOPPED_STEP_GRACE_MS);
      held.set(record.actionId, { record, event, timer });
    },
    /** The browser's own answer for a held step: it is what happened. False when the step is not held. */
    answer(actionId: string, answer: LateAnswer): boolean {
      const entry = held.get(actionId);
      if (!entry) return false;
      held.delete(actionId);
      deps.clock?.clearTimeout(entry.timer);
      const ok = answer.status !== 'error';
      const small = compactResult(answer.result);
      const warnings = ok ? [STOPPED_AFTER_EFFECT] : undefined;
      const error = ok
        ? undefined
        : errorValue(answer.error?.code ?? 'PLUGIN_ERROR', answer.error?.message ?? 'the action failed', {
            retryable: answer.error?.retryable ?? false,
          });
      const { error: _stopped, ...base } = entry.event;
      const shown = deps.show({
        ...base,
        phase: !ok ? 'error' : answer.status === 'partial' ? 'partial' : 'success',
        ...(small ? { result: small } : {}),
        ...(warnings ? { warnings } : {}),
        ...(error ? { error: { code: error.code, message: error.message, retryable: error.retryable ?? false } } : {}),
      });
      const { error: _e, ...record } = entry.record;
      // Sorted where the step started; its settle is now the late answer's event (per-task seq).
      const settleSeq = shown && shown.seq !== undefined ? { settleSeq: shown.seq } : {};
      deps.store({
        ...record,
        ok,
        ...(small || warnings ? { result: { ...small, ...(warnings ? { warnings } : {}) } } : {}),
        ...(error ? { error } : {}),
        ...settleSeq,
      });
      return true;
    },
  };
}
