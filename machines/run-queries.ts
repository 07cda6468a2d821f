// Pure reads of a run actor's snapshot for get_task_run / list_task_runs (seed 003 §4).
import type { SnapshotFrom } from 'xstate';
import type { RunStatus, runMachine } from './run.machine.ts';

export type RunSnapshot = SnapshotFrom<typeof runMachine>;

const terminal: ReadonlyArray<RunStatus> = ['succeeded', 'failed', 'partial_success', 'canceled'];

export function runStatusOf(snapshot: RunSnapshot): RunStatus {
  for (const status of terminal) if (snapshot.matches(status)) return status;
  return snapshot.matches('running') ? 'running' : 'queued';
}

export function isTerminalRunStatus(status: RunStatus): boolean {
  return terminal.includes(status);
}

/** 003 §4.2 `progress`: doneSteps counts succeeded, failed and skipped steps. */
export function runProgressOf(snapshot: RunSnapshot): { totalSteps: number; doneSteps: number } {
  const steps = snapshot.context.steps;
  const doneSteps = steps.filter((s) => s.status !== 'pending' && s.status !== 'running').length;
  return { totalSteps: steps.length, doneSteps };
}

/** 003 §4.4 `cancelRequested`. */
export function cancelRequestedOf(snapshot: RunSnapshot): boolean {
  return snapshot.context.cancelRequested;
}
