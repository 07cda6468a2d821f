// What the socket gateways ask of the agent side (the orchestrator implements it).
import type { FrontendEvent, OverlayCommand, TakeoverReport, UserMessage } from '../../transport/contracts/index.ts';

export interface ControlError {
  code: string;
  message: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export type ControlResult = { ok: true; data?: Record<string, unknown> } | { ok: false; error: ControlError };

export interface TaskControl {
  /** Idempotent task create, persist, then start or queue the turn. Resolves once persisted. */
  userMessage(message: UserMessage, context: { traceId?: string }): Promise<ControlResult>;
  resume(taskId: string, source: 'web' | 'plugin'): Promise<ControlResult>;
  stop(taskId: string, source: 'web' | 'plugin', reason?: string): Promise<ControlResult>;
  takeover(taskId: string, source: 'web' | 'plugin', reason: string): Promise<ControlResult>;
  /** The plugin saw the user act on the task tab. */
  takeoverReport?(report: TakeoverReport): Promise<ControlResult>;
  overlayCommand?(command: OverlayCommand): Promise<ControlResult>;
  /** Live machine inspection for a task: `inspection` frontend events to one listener; returns unsubscribe. */
  inspect?(taskId: string, listener: (envelope: FrontendEvent) => void): () => void;
  /** The `toolUsed` start envelopes of the task's actions still in flight (replayed to a subscriber, so a reload shows them). */
  stepsInFlight?(taskId: string): FrontendEvent[];
  /** The plugin and tab serving the task now (the live view streams that tab); null before it has one. */
  liveTarget?(taskId: string): { clientId: string; tabId: number } | null;
}
