// Task status (seed 000 §2.1) and the plugin overlay's UI state (seed 000 §2.2).
import * as v from 'valibot';

export const taskStatuses = ['created', 'running', 'ongoing', 'takeover', 'completed', 'error'] as const;
export const TaskStatusSchema = v.picklist(taskStatuses);
export type TaskStatus = v.InferOutput<typeof TaskStatusSchema>;

export const pluginUiStates = ['idle', 'hidden', 'ongoing', 'takeover'] as const;
export const PluginUiStateSchema = v.picklist(pluginUiStates);
export type PluginUiState = v.InferOutput<typeof PluginUiStateSchema>;
