// Types of the task machine's input, events, context and output (seed 000 §2.1).
import type { ActionEvent, ActionInput, ActionOutput, ActionSlotContext } from './action-types.ts';
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
  /** The turn asks for a browser action: the task's `action` region runs it when the task may act. */
  | { type: 'ACTION_REQUESTED'; action: ActionInput }
  /** The plugin's side of the action in flight (ACK, RESULT, ...), its deadlines, a CANCEL of it alone. */
  | Exclude<ActionEvent, { type: 'START' }>
  /** The turn asks for a page preparation: this actor runs it (its provided `preparePage`). */
  | { type: 'PAGE_PREP_REQUESTED'; prepId: string; input: PagePrepInput }
  /** The outcome of the page preparation `prepId` (both captures, retries included). */
  | { type: 'PAGE_PREP_DONE'; prepId: string; output: PagePrepOutput };

/** A page preparation in flight (its id is the runtime's). */
export interface RunningPagePrep {
  prepId: string;
}

/** What the provided `preparePage` action receives: it answers PAGE_PREP_DONE { prepId }. */
export interface PreparePageParams {
  prepId: string;
  input: PagePrepInput & { prepId: string };
}

/** The task's context; the action slot's fields (`current`, `waitId`, ...) are its `action` region's. */
export interface TaskContext extends ActionSlotContext {
  taskId: string;
  /** The message the current (or last) turn works on. */
  currentMessage: TaskMessage | null;
  /** Messages that arrived while a turn was running, oldest first. */
  queue: TaskMessage[];
  /** Actions requested while one was in flight or during takeover, oldest first. */
  pendingActions: ActionInput[];
  /** Page preparations running now (their captures are actions like any other). */
  pagePreps: RunningPagePrep[];
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
