// Task status (seed 000 §2.1) and the plugin overlay's UI state (seed 000 §2.2).
import * as v from 'valibot';
import { ProtocolErrorSchema } from './error-codes.ts';

export const taskStatuses = ['created', 'running', 'ongoing', 'takeover', 'completed', 'error'] as const;
export const TaskStatusSchema = v.picklist(taskStatuses);
export type TaskStatus = v.InferOutput<typeof TaskStatusSchema>;

export const pluginUiStates = ['idle', 'hidden', 'ongoing', 'takeover'] as const;
export const PluginUiStateSchema = v.picklist(pluginUiStates);
export type PluginUiState = v.InferOutput<typeof PluginUiStateSchema>;

/**
 * How a task's last turn ended when it did not end well, as the `meta` of the system message the
 * server stores with it (so a reload shows the same cause): `error` is a failed turn (status
 * `error`, web "Failed" with Retry); `interrupted` is a turn cut short by a server restart (web
 * "Interrupted" with Resume), never shown as done.
 */
export const turnOutcomes = ['error', 'interrupted'] as const;
export const TurnOutcomeSchema = v.picklist(turnOutcomes);
export type TurnOutcome = v.InferOutput<typeof TurnOutcomeSchema>;
export const TurnOutcomeNoteSchema = v.object({ outcome: TurnOutcomeSchema, error: ProtocolErrorSchema });
export type TurnOutcomeNote = v.InferOutput<typeof TurnOutcomeNoteSchema>;

/** The outcome note in a stored message's meta, or null (any other meta). */
export function turnOutcomeNoteOf(meta: unknown): TurnOutcomeNote | null {
  const parsed = v.safeParse(
    TurnOutcomeNoteSchema,
    meta && typeof meta === 'object'
      ? { outcome: (meta as Record<string, unknown>).outcome, error: (meta as Record<string, unknown>).error }
      : meta,
  );
  return parsed.success ? parsed.output : null;
}
