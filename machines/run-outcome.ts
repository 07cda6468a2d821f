// Seed 003 §6: how step states map to a run's terminal status. Pure, so the run machine's
// guards, the MCP layer and tests share one reading.
export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';

export const defaultPartialSuccessThreshold = 0.5;

export interface StepCounts {
  total: number;
  pending: number;
  running: number;
  succeeded: number;
  failed: number;
  skipped: number;
}

export interface PartialSuccessPolicy {
  /** Template metadata `supportsPartialSuccess` (003 §6). */
  supportsPartialSuccess: boolean;
  /** Success ratio needed for partial_success; template value, else 0.5. */
  threshold: number;
}

export function countSteps(steps: ReadonlyArray<{ status: StepStatus }>): StepCounts {
  const counts: StepCounts = { total: steps.length, pending: 0, running: 0, succeeded: 0, failed: 0, skipped: 0 };
  for (const step of steps) counts[step.status] += 1;
  return counts;
}

/**
 * The terminal status once every step has finished, or null while some step is pending
 * or running. All succeeded -> succeeded. Some failed: partial_success when the
 * template supports it and succeeded/total >= threshold (and at least one succeeded),
 * else failed. Skipped steps only arise from cancel or timeout, which the run machine
 * decides before asking this.
 */
export function decideRunOutcome(
  steps: ReadonlyArray<{ status: StepStatus }>,
  policy: PartialSuccessPolicy,
): 'succeeded' | 'partial_success' | 'failed' | null {
  const counts = countSteps(steps);
  if (counts.pending > 0 || counts.running > 0) return null;
  if (counts.succeeded === counts.total) return 'succeeded';
  const ratio = counts.succeeded / counts.total;
  if (policy.supportsPartialSuccess && counts.succeeded > 0 && ratio >= policy.threshold) return 'partial_success';
  return 'failed';
}
