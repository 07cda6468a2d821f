// Typed builders of the frames the server sends a plugin: what comes out is a ServerToPluginMessage
// by construction, so no caller assembles an untyped object (a test validates each one on the wire).
import type { ActionCall } from './action-call.ts';
import type { BrowserAction, PluginUiStateMessage } from './plugin.ts';

export interface BrowserActionFrameInput {
  actionId: string;
  taskId: string;
  clientId: string;
  timestamp: number;
  actionName: string;
  params: Record<string, unknown>;
  /** T_exec for this action (seed 001 §3.5 `timeoutMs`): the plugin bounds its own work by it. */
  timeoutMs?: number;
  traceId?: string;
  screenshotPresignedUrl?: string;
}

export function browserActionFrame(input: BrowserActionFrameInput): BrowserAction {
  return {
    v: 1,
    type: 'browser_action',
    id: input.actionId,
    taskId: input.taskId,
    clientId: input.clientId,
    timestamp: input.timestamp,
    action: { [input.actionName]: input.params } as unknown as ActionCall,
    ...(input.screenshotPresignedUrl ? { screenshotPresignedUrl: input.screenshotPresignedUrl } : {}),
    ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
    ...(input.traceId ? { traceId: input.traceId } : {}),
  };
}

export function pluginUiStateFrame(input: Omit<PluginUiStateMessage, 'v' | 'type'>): PluginUiStateMessage {
  return { v: 1, type: 'plugin_ui_state', ...input };
}
