// Types of the task machine's input, events, context and output (seed 000 §2.1).
import type { ActionInput, ActionOutput } from './action-types.ts';
import type { PagePrepInput, PagePrepOutput } from './page-prep.machine.ts';
import type { ErrorValue } from '../spec/error-value.ts';

export type TaskStatus = 'created' | 'running' | 'ongoing' | 'takeover' | 'completed' | 'error';

export interface TaskMessage {
  id: string;
  content: string;
  /** Follows the message through the store, the LLM calls, plugin frames and frontend events. */
  traceId?: string;
}

export interface TaskInput {
  taskId: string;
}

export interface TurnInput {
  taskId: string;
  message: TaskMessage;
}

export type TaskEvent =
  | { type: 'USER_MESSAGE'; message: TaskMessage }
  | { type: 'TAKEOVER'; reason?: string }
  | { type: 'RESUME' }
  /** `closeTab: false`: the tab stays (an MCP session's cancel: the session goes on with it). */
  | { type: 'STOP'; closeTab?: boolean }
  | { type: 'FAIL'; error: ErrorValue }
  /** The turn asks for a browser action: this actor's action actor runs it when the task may act. */
  | { type: 'ACTION_REQUESTED'; action: ActionInput }
  /** The action actor settled the action in flight. */
  | { type: 'ACTION_DONE'; output: ActionOutput }
  /** The turn asks for a page preparation: it runs as this actor's child. */
  | { type: 'PAGE_PREP_REQUESTED'; prepId: string; input: PagePrepInput };

/** A page preparation in flight: its id (the runtime's) and its child actor's id (a reused slot). */
export interface PagePrepChild {
  prepId: string;
  child: string;
}

export interface TaskContext {
  taskId: string;
  /** The message the current (or last) turn works on. */
  currentMessage: TaskMessage | null;
  /** Messages that arrived while a turn was running, oldest first. */
  queue: TaskMessage[];
  /** The one browser action in flight for this task (in the child actor `ACTION_CHILD_ID`), if any. */
  inFlightActionId: string | null;
  /** Actions requested while one was in flight or during takeover, oldest first. */
  pendingActions: ActionInput[];
  /** Page preparations running as children: each prep's id and the child slot it runs in. */
  pagePreps: PagePrepChild[];
  /** Turns started so far. */
  turns: number;
  error: ErrorValue | null;
  /** The status last handed to persistStatus/notifyStatus (keeps them change-only). */
  reportedStatus: TaskStatus | null;
}

export interface TaskOutput {
  taskId: string;
  status: 'completed' | 'error';
  error?: ErrorValue;
  /** Messages still queued when the task ended (never dropped silently). */
  unprocessed: TaskMessage[];
}

export interface StatusParams {
  taskId: string;
  status: TaskStatus;
}

export interface ActionSettledParams {
  actionId: string;
  output: ActionOutput;
}

export interface PagePrepSettledParams {
  prepId: string;
  output: PagePrepOutput;
}
