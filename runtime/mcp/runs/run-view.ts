// How a stored run looks to MCP clients: get_task_run / sync run_task_template (seed 003 §4.1,
// §4.2: same shape, result and artifacts once terminal), list_task_runs rows (§4.3), and the
// run machine's terminal output turned into the seed's error format.
import { isTerminalRunStatus, type RunOutput } from '../../../machines/index.ts';
import { seedError, type SeedError } from '../tools/tool-errors.ts';
import type { RunRecord, RunStepRecord } from './run-store.ts';

export function runView(run: RunRecord, now: number): Record<string, unknown> {
  const terminal = isTerminalRunStatus(run.status);
  const elapsedMs = run.startedAt === undefined ? 0 : Math.max(0, (run.endedAt ?? now) - run.startedAt);
  return {
    runId: run.runId,
    templateId: run.templateId,
    templateVersion: run.templateVersion,
    status: run.status,
    sessionId: run.sessionId,
    mode: run.mode,
    trustLevel: run.trustLevel,
    timeoutMs: run.timeoutMs,
    concurrency: run.concurrency,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    cancelRequested: run.cancelRequested,
    progress: run.progress,
    metrics: { elapsedMs },
    steps: run.steps,
    ...(terminal && run.result ? { result: run.result } : {}),
    ...(terminal
      ? {
          artifacts: (run.artifacts ?? []).map((a) => ({
            artifactId: a.artifactId,
            type: a.type,
            mimeType: a.mimeType,
            size: a.size,
            expiresAt: a.expiresAt,
          })),
        }
      : {}),
    ...(run.error ? { error: run.error } : {}),
  };
}

export function runListRow(run: RunRecord): Record<string, unknown> {
  return {
    runId: run.runId,
    templateId: run.templateId,
    status: run.status,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** The run's error in the seed format, or undefined for succeeded / partial_success. */
export function runErrorOf(output: RunOutput, timeoutMs: number): SeedError | undefined {
  if (output.status === 'succeeded' || output.status === 'partial_success') return undefined;
  const error = output.error;
  if (output.status === 'canceled') return seedError('RUN_CANCELED', 'the run was canceled', { runId: output.runId });
  if (error?.code === 'RUN_TIMEOUT')
    return seedError('RUN_TIMEOUT', `the run exceeded its timeout of ${timeoutMs} ms`, {
      runId: output.runId,
      timeoutMs,
    });
  const failed = output.steps.find((s) => s.status === 'failed');
  return seedError('STEP_EXECUTION_FAILED', 'step failed', {
    runId: output.runId,
    failedStep: failed?.stepId,
    stepErrorCode: failed?.error?.code,
    ...(failed?.error?.message ? { stepError: failed.error.message } : {}),
    summary: output.summary,
  });
}

/** A machine step as stored (no inputs or outputs: those may be large or secret). */
export function stepRecord(s: {
  stepId: string;
  status: RunStepRecord['status'];
  error?: { code: string; message: string } | undefined;
}): RunStepRecord {
  return {
    stepId: s.stepId,
    status: s.status,
    ...(s.error ? { error: { code: s.error.code, message: s.error.message } } : {}),
  };
}

/**
 * A run a restart interrupted (its tabs are gone), or, in cluster mode, a run whose node died
 * (another node marks it: node_lost): it ends canceled with what it had.
 */
export function markInterrupted(run: RunRecord, now: number, lost?: { nodeId: string | null }): void {
  run.status = 'canceled';
  run.endedAt = now;
  run.updatedAt = now;
  run.steps = run.steps.map((s) =>
    s.status === 'pending' || s.status === 'running' ? { ...s, status: 'skipped' as const } : s,
  );
  run.error = lost
    ? seedError(
        'RUN_CANCELED',
        `the run was interrupted: the node that ran it (${lost.nodeId ?? 'unknown'}) stopped`,
        { runId: run.runId, reason: 'node_lost', nodeId: lost.nodeId },
        'create a new run',
      )
    : seedError(
        'RUN_CANCELED',
        'the run was interrupted by a server restart',
        { runId: run.runId, reason: 'server_restart' },
        'create a new run',
      );
}
