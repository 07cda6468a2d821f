// The planner's memory is the conversation itself: the last user message is the request, and
// the tool calls answered since then (seed 000 §5 tool-result JSON) are the progress so far.
import { unmarkUntrusted } from '../untrusted-content.ts';
import type { LlmMessage, PageContext } from '../llm-types.ts';

export interface ToolStep {
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
  /** undefined when the tool message was not the seed's JSON. */
  ok: boolean | undefined;
  result?: unknown;
  error?: { code: string; message: string };
  /** What the planner said when it made the call ("clicking "Clear completed" (element 9)"): what it actually targeted. */
  narration?: string;
}

export interface Conversation {
  /** Text of the last user message; undefined when there is none. */
  request: string | undefined;
  /** Tool calls made for this request, with their results, in order. */
  steps: ToolStep[];
  /** Number of user messages (the request is the turn-th), for unique call ids across turns. */
  turn: number;
}

export function readConversation(messages: LlmMessage[]): Conversation {
  let requestIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      requestIndex = i;
      break;
    }
  }
  const turn = messages.filter((m) => m.role === 'user').length;
  const steps: ToolStep[] = [];
  if (requestIndex >= 0) {
    const calls = new Map<string, { name: string; arguments: Record<string, unknown>; narration: string }>();
    for (const message of messages.slice(requestIndex + 1)) {
      if (message.role === 'assistant') {
        for (const call of message.toolCalls ?? [])
          calls.set(call.toolCallId, {
            name: call.name,
            arguments: call.arguments ?? {},
            narration: message.content.trim(),
          });
      } else if (message.role === 'tool') {
        const id = message.toolCallId ?? '';
        const call = calls.get(id);
        steps.push({
          toolCallId: id,
          name: call?.name ?? message.name ?? 'unknown',
          arguments: call?.arguments ?? {},
          ...parseToolContent(message.content),
          ...(call?.narration ? { narration: call.narration } : {}),
        });
      }
    }
  }
  return { request: requestIndex >= 0 ? messages[requestIndex]!.content : undefined, steps, turn };
}

function parseToolContent(content: string): Pick<ToolStep, 'ok' | 'result' | 'error'> {
  let value: unknown;
  try {
    // A page-bearing result comes marked as untrusted page data (untrusted-content.ts).
    value = JSON.parse(unmarkUntrusted(content)?.inner ?? content);
  } catch {
    return { ok: undefined, result: content };
  }
  if (typeof value !== 'object' || value === null) return { ok: undefined, result: value };
  const record = value as Record<string, unknown>;
  if (record.ok === false) {
    const error = record.error as { code?: unknown; message?: unknown } | undefined;
    return {
      ok: false,
      error: {
        code: typeof error?.code === 'string' ? error.code : 'UNKNOWN',
        message: typeof error?.message === 'string' ? error.message : 'the tool failed',
      },
    };
  }
  if (record.ok === true) return { ok: true, result: record.result };
  return { ok: undefined, result: record };
}

/** A page carried by a tool result (`result.page`, or the result itself when it is a page). */
export function pageOfResult(result: unknown): PageContext | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const candidate = (result as { page?: unknown }).page ?? result;
  return isPageContext(candidate) ? candidate : undefined;
}

export function isPageContext(value: unknown): value is PageContext {
  if (typeof value !== 'object' || value === null) return false;
  const page = value as Partial<PageContext>;
  return typeof page.url === 'string' && Array.isArray(page.elements);
}

/** The freshest page: the orchestrator's context page, else the newest page in the tool results. */
export function latestPage(steps: ToolStep[], contextPage: PageContext | undefined): PageContext | undefined {
  if (contextPage && isPageContext(contextPage)) return contextPage;
  for (let i = steps.length - 1; i >= 0; i--) {
    const page = steps[i]!.ok === true ? pageOfResult(steps[i]!.result) : undefined;
    if (page) return page;
  }
  return undefined;
}
