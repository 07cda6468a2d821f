// What the socket gateways ask of the agent side (the orchestrator implements it).
import type { ErrorValue } from '../../spec/index.ts';
import type {
  ConfirmationDecision,
  PluginConfirmationAnswer,
  FrontendEvent,
  NormalizedActionResult,
  OverlayCommand,
  PageInterruption,
  SocketAck,
  TakeoverReport,
  UserMessage,
} from '../../transport/contracts/index.ts';
import type { NavigationBlockedReport } from '../socket/navigation-check.ts';

/** The one error value (spec/). */
export type ControlError = ErrorValue;

/** The Socket.IO ack of the contract (transport/contracts/socket-ack.ts). */
export type ControlResult = SocketAck;

/** A command that succeeded, with its data if any. */
export const controlOk = (data?: Record<string, unknown>): ControlResult => ({ ok: true, ...(data ? { data } : {}) });

/** A command for a task that does not exist. */
export const taskNotFound = (taskId: string): ControlResult => ({
  ok: false,
  error: { code: 'NOT_FOUND', message: `task ${taskId} does not exist` },
});

export interface TaskControl {
  /** Idempotent task create, persist, then start or queue the turn. Resolves once persisted. */
  userMessage(message: UserMessage, context: { traceId?: string }): Promise<ControlResult>;
  resume(taskId: string, source: 'web' | 'plugin'): Promise<ControlResult>;
  stop(taskId: string, source: 'web' | 'plugin', reason?: string): Promise<ControlResult>;
  takeover(taskId: string, source: 'web' | 'plugin', reason: string): Promise<ControlResult>;
  /** select_extension: validate, persist as the task's selectedClientId, honour at the next dispatch. */
  selectExtension?(taskId: string, clientId: string): Promise<ControlResult>;
  /** The plugin saw the user act on the task tab. */
  takeoverReport?(report: TakeoverReport): Promise<ControlResult>;
  overlayCommand?(command: OverlayCommand): Promise<ControlResult>;
  /** A page in a task tab tried to interrupt (dialog, pop-up, permission, ...): relayed to the task's events. */
  pageInterruption?(report: PageInterruption): Promise<ControlResult>;
  /** The browser refused a task tab's navigation under the URL policy (it never loaded). */
  navigationBlocked?(report: NavigationBlockedReport): void;
  /** Live machine inspection for a task: `inspection` frontend events to one listener; returns unsubscribe. */
  inspect?(taskId: string, listener: (envelope: FrontendEvent) => void): () => void;
  /** The `toolUsed` start envelopes of the task's actions still in flight (replayed to a subscriber, so a reload shows them). */
  stepsInFlight?(taskId: string): FrontendEvent[];
  /** A browser_action_result for an action that had already settled (a Stop canceled it): it may say what really happened. */
  lateResult?(result: NormalizedActionResult): void;
  /** The plugin and tab serving the task now (the live view streams that tab); null before it has one. */
  liveTarget?(taskId: string): { clientId: string; tabId: number } | null;
  /** The person's answer to a held step. */
  confirmationAnswer?(
    taskId: string,
    requestId: string,
    decision: ConfirmationDecision,
    by?: 'web' | 'overlay',
  ): Promise<ControlResult>;
  /** The person's edit of the task's scope. */
  setTaskScope?(taskId: string, sites: readonly string[]): Promise<ControlResult>;
  /** A `{{secret:name}}` for the task (kept in memory). */
  setTaskSecret?(taskId: string, name: string, value: string): Promise<ControlResult>;
  /** The person's answer to a held step, given on the page overlay. */
  overlayConfirmation?(answer: PluginConfirmationAnswer): Promise<ControlResult>;
  /** "Show the tab": the plugin brings the task's tab forward. */
  showTaskTab?(taskId: string): Promise<ControlResult>;
}
