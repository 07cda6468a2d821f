// The LLM gateway contract (seed 000 §5) as the orchestrator uses it: one streaming call per
// LLM step, yielding text deltas, parsed tool calls, then `done` or `error`. Two implementations:
// the `openai` SDK against any OpenAI-compatible endpoint, and the embedded offline planner.

import type { DomIndexElement } from '../../transport/contracts/actions.ts';
export type LlmDelta = { type: 'delta'; content: string };
export type LlmToolCall = {
  type: 'tool_call';
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Set when the model's JSON arguments did not parse; arguments is then {}. The orchestrator feeds a tool error back. */
  argumentsError?: string;
};
export type LlmError = { type: 'error'; code: string; message: string; retryable?: boolean };
export type LlmDone = {
  type: 'done';
  usage?: {
    promptTokens: number;
    completionTokens: number;
    totalTokens: number;
    /** Prompt tokens read from the provider's prompt cache (Anthropic), part of promptTokens. */
    cacheReadTokens?: number;
    /** Prompt tokens written to the provider's prompt cache (Anthropic), part of promptTokens. */
    cacheWriteTokens?: number;
  };
  finishReason?: string;
};
export type LlmEvent = LlmDelta | LlmToolCall | LlmDone | LlmError;

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** assistant turns that called tools */
  toolCalls?: Array<{ toolCallId: string; name: string; arguments: Record<string, unknown> }>;
  /** tool turns: which call this answers */
  toolCallId?: string;
  name?: string;
}

export interface LlmTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments */
  schema: unknown;
}

/**
 * One element of the page model as the model and the planner see it: the contract's
 * DomIndexElement (transport/contracts/actions.ts) without what only the extension needs
 * (its XPath, its box, the index generation).
 */
export type PageElement = Omit<DomIndexElement, 'xpath' | 'bbox' | 'generation'>;

export interface PageContext {
  tabId: number;
  url: string;
  title?: string;
  /** readability text, already truncated */
  text?: string;
  truncated?: boolean;
  elements: PageElement[];
  warnings?: string[];
  missing?: string[];
  /** What of the page this context leaves out (it is held to a token budget) and how to read it. */
  paging?: PagePaging;
}

/** The parts of a page left out of a budgeted context, reachable by the paging tools. */
export interface PagePaging {
  /** Characters of the readable text shown: [textOffset, textEnd) of textTotal. */
  textOffset: number;
  textEnd: number;
  textTotal: number;
  elementsShown: number;
  elementsTotal: number;
  /** One sentence for the model: which tool and arguments read the rest. */
  howTo: string;
}

export interface BrowserTab {
  tabId: number;
  windowId: number;
  url?: string;
  title?: string;
  active: boolean;
  groupId?: number;
}

export interface BrowserContext {
  tabs: BrowserTab[];
  activeTabId: number | null;
  taskTabId: number | null;
  omittedTabs?: number;
}

export interface StreamChatInput {
  taskId: string;
  messages: LlmMessage[];
  tools: LlmTool[];
  context?: { snapshot?: BrowserContext; page?: PageContext };
  /** default 90_000 */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The user message's traceId: sent to the endpoint as the `x-mimo-trace-id` header. */
  traceId?: string;
}

export interface LlmGateway {
  readonly kind: 'openai' | 'anthropic' | 'offline';
  readonly model: string;
  streamChat(input: StreamChatInput): AsyncIterable<LlmEvent>;
}

/** Default per-attempt timeout of one streamChat call (seed 000 §5). */
export const DEFAULT_LLM_TIMEOUT_MS = 90_000;
