// Seed 001 §4.1: two exec timeouts in a row mark the plugin `unhealthy`. The action
// machine reports, per action, the exec timeouts since the plugin last answered
// (`execTimeoutStreak`) and whether it answered at all (`answered`); the registry folds
// those outputs in order with `nextExecTimeoutStreak` and checks `isPluginUnhealthy`.
import type { ActionOutput } from './action-types.ts';

export const unhealthyAfterExecTimeouts = 2;

/**
 * The plugin's streak after one more action. An answer (any RESULT, even an error)
 * breaks the streak, so only the timeouts after it count; otherwise they add up.
 * Actions that never reached the plugin (ack timeout, offline) leave the streak as is.
 */
export function nextExecTimeoutStreak(
  previous: number,
  output: Pick<ActionOutput, 'answered' | 'execTimeoutStreak'>,
): number {
  return output.answered ? output.execTimeoutStreak : previous + output.execTimeoutStreak;
}

export function isPluginUnhealthy(streak: number): boolean {
  return streak >= unhealthyAfterExecTimeouts;
}
