// What the chat shows, one entry per row: the person's messages, assistant text (streamed or
// from history), tool steps and structured notices. `seq` is the item's place in the task's one
// order (the seq of the event that first showed it, or the stored message's `meta.seq`); the
// chat is sorted by it wherever it is known (chat-order.ts).
import type { ProtocolError } from '../../../transport/contracts/error-codes.ts';
import type { ToolArtifact, ToolPhase } from '../../../transport/contracts/frontend-event.ts';
import type { AckError } from '../io/ack.ts';

export type Delivery = 'sending' | 'sent' | 'failed';

export interface UserItem {
  kind: 'user';
  key: string;
  id: string;
  content: string;
  timestamp: number;
  delivery: Delivery;
  error?: AckError;
  seq?: number;
}

export interface AssistantItem {
  kind: 'assistant';
  key: string;
  /** History message id, or the id of the first chatDelta of the segment. */
  id: string;
  /** The user message this answers (live segments). */
  targetEventId?: string;
  content: string;
  timestamp: number;
  /** More text may still arrive. */
  streaming: boolean;
  fromHistory: boolean;
  /** The user message id of the turn this belongs to. */
  turn?: string;
  seq?: number;
}

export interface ToolItem {
  kind: 'tool';
  key: string;
  toolCallId: string;
  /** The browser action this step ran, when it is one. */
  actionId?: string;
  actionName: string;
  paramsSummary: string;
  /** What the action acted on, in words (element label, page title), when the server named it. */
  target?: string;
  /** The small fields of the action's result, live (toolUsed) or from history. */
  result?: Record<string, unknown>;
  phase: ToolPhase;
  timestamp: number;
  /** From the event, else measured between the start and the last step. */
  durationMs?: number;
  artifacts: ToolArtifact[];
  warnings: string[];
  error?: ProtocolError;
  /** The task ended (stop or error) while this step was in flight: it will not finish. */
  canceled?: boolean;
  /** A tool message from history (the result text the model saw), when no live step exists. */
  resultText?: string;
  turn?: string;
  seq?: number;
}

export interface NoticeItem {
  kind: 'notice';
  key: string;
  id: string;
  status: 'error' | 'success' | 'info';
  code?: string;
  message: string;
  retryable?: boolean;
  /** The whole error of an error notice (its details name e.g. the URL policy's reason). */
  error?: ProtocolError;
  /** Short preview of structured `data`, when there is some. */
  detail?: string;
  timestamp: number;
  turn?: string;
  seq?: number;
}

export type ChatItem = UserItem | AssistantItem | ToolItem | NoticeItem;

/** Whitespace-insensitive form used to recognise the same text from two sources. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
