// The open task's conversation: the person's messages, streamed assistant text assembled per
// targetEventId, tool steps, structured notices and token usage. Every event id counts once.
// Items are kept in the task's order: each takes the seq of the event that first showed it.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type {
  ChatDeltaEvent,
  FrontendEventPayload,
  StructuredOutputEvent,
  ToolUsedEvent,
  UserMessageEvent,
} from '../../../transport/contracts/frontend-event.ts';
import type { TaskMessage } from '../../../transport/contracts/http.ts';
import type { AckError } from '../io/ack.ts';
import type { AssistantItem, ChatItem, Delivery, NoticeItem, ToolItem, UserItem } from './chat-items.ts';
import { mergeHistory } from './chat-history-merge.ts';
import { placeBySeq, sortBySeq } from './chat-order.ts';
import { createUsageModel, type Pricing, type UsageModel } from './usage-model.ts';

export interface ChatModel {
  items: ReadonlySignal<readonly ChatItem[]>;
  /** True while some assistant text is still arriving. */
  streaming: ReadonlySignal<boolean>;
  usage: UsageModel;
  addUserMessage(id: string, content: string, timestamp: number): void;
  setDelivery(id: string, delivery: Delivery, error?: AckError): void;
  /**
   * Applies a userMessage, chatDelta, toolUsed, structuredOutput or usage event, with the seq of
   * its envelope; false when ignored or already seen.
   */
  applyEvent(event: FrontendEventPayload, seq?: number): boolean;
  loadHistory(messages: readonly TaskMessage[]): void;
  /** The task ended: steps still marked running are shown as canceled. */
  cancelRunning(): void;
  reset(): void;
  find(key: string): ChatItem | undefined;
}

const PREVIEW_LIMIT = 400;

function preview(data: unknown): string | undefined {
  if (data === undefined) return undefined;
  let text: string;
  try {
    text = typeof data === 'string' ? data : JSON.stringify(data);
  } catch {
    return undefined;
  }
  return text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}…` : text;
}

export function createChatModel(deps: { pricing?: Pricing } = {}): ChatModel {
  const items = signal<readonly ChatItem[]>([]);
  const usage = createUsageModel(deps.pricing ? { pricing: deps.pricing } : {});
  let seen = new Set<string>();
  /** targetEventId -> key of the assistant segment still taking text for it. */
  let open = new Map<string, string>();
  let toolKeys = new Map<string, string>();
  /** The user message the agent is answering now. */
  let currentTurn: string | undefined;
  /** The seq of the event being applied. */
  let eventSeq: number | undefined;

  const withSeq = <T extends ChatItem>(item: T): T => (eventSeq === undefined ? item : { ...item, seq: eventSeq });
  const append = (item: ChatItem) => (items.value = placeBySeq(items.value, withSeq(item)));
  function update<T extends ChatItem>(key: string, change: (item: T) => T): void {
    const list = items.value;
    const index = list.findIndex((i) => i.key === key);
    if (index < 0) return;
    const next = list.slice();
    next[index] = change(list[index] as T);
    items.value = next;
  }
  /** A tool step or notice after a segment ends it on screen; more text starts a new one below. */
  function interruptSegments() {
    for (const key of open.values()) update<AssistantItem>(key, (a) => ({ ...a, streaming: false }));
    open = new Map();
  }

  function onChatDelta(e: ChatDeltaEvent) {
    currentTurn = e.targetEventId;
    const key = open.get(e.targetEventId);
    if (key !== undefined) {
      update<AssistantItem>(key, (a) => ({ ...a, content: a.content + e.delta.content, streaming: !e.finished }));
      if (e.finished) open.delete(e.targetEventId);
      return;
    }
    if (e.finished && e.delta.content === '') return;
    const item: AssistantItem = {
      kind: 'assistant',
      key: `a:${e.id}`,
      id: e.id,
      targetEventId: e.targetEventId,
      turn: e.targetEventId,
      content: e.delta.content,
      timestamp: e.timestamp,
      streaming: !e.finished,
      fromHistory: false,
    };
    append(item);
    if (!e.finished) open.set(e.targetEventId, item.key);
  }

  function onToolUsed(e: ToolUsedEvent) {
    // One tool call may run several browser actions (open = task_start, attach, wait, ...): a
    // step is one action when the event names it, else the whole tool call.
    const stepId = e.actionId ?? e.toolCallId;
    const key = toolKeys.get(stepId);
    if (key !== undefined && items.value.some((i) => i.key === key)) {
      update<ToolItem>(key, (t) => {
        const artifacts = [...t.artifacts];
        for (const a of e.artifacts ?? []) if (!artifacts.some((x) => x.artifactId === a.artifactId)) artifacts.push(a);
        const durationMs =
          e.durationMs ?? (e.phase === 'start' ? t.durationMs : Math.max(0, e.timestamp - t.timestamp));
        const next: ToolItem = {
          ...t,
          phase: e.phase,
          paramsSummary: e.paramsSummary || t.paramsSummary,
          artifacts,
          warnings: [...t.warnings, ...(e.warnings ?? []).filter((w) => !t.warnings.includes(w))],
        };
        if (durationMs !== undefined) next.durationMs = durationMs;
        // A step a Stop cut short that the browser had done anyway: it is done (with a warning), not canceled.
        if (e.phase === 'success' || e.phase === 'partial') {
          delete next.canceled;
          delete next.error;
        }
        if (e.error) next.error = e.error;
        if (e.target) next.target = e.target;
        // The server cancels the action in flight when the task stops (TASK_STOPPED): not a failure.
        if (e.error?.code === 'TASK_STOPPED') next.canceled = true;
        if (e.result) next.result = e.result;
        return next;
      });
      return;
    }
    const item: ToolItem = {
      kind: 'tool',
      key: `t:${stepId}`,
      toolCallId: e.toolCallId,
      ...(e.actionId ? { actionId: e.actionId } : {}),
      actionName: e.actionName,
      paramsSummary: e.paramsSummary,
      ...(e.target ? { target: e.target } : {}),
      ...(e.result ? { result: e.result } : {}),
      phase: e.phase,
      timestamp: e.timestamp,
      artifacts: [...(e.artifacts ?? [])],
      warnings: [...(e.warnings ?? [])],
      ...(e.durationMs !== undefined ? { durationMs: e.durationMs } : {}),
      ...(e.error ? { error: e.error } : {}),
      ...(e.error?.code === 'TASK_STOPPED' ? { canceled: true } : {}),
      ...(currentTurn ? { turn: currentTurn } : {}),
    };
    interruptSegments();
    toolKeys.set(stepId, item.key);
    append(item);
  }

  function onStructuredOutput(e: StructuredOutputEvent) {
    const item: NoticeItem = {
      kind: 'notice',
      key: `n:${e.id}`,
      id: e.id,
      status: e.status,
      message: e.error?.message ?? e.message ?? (e.status === 'success' ? 'Done.' : ''),
      timestamp: e.timestamp,
      ...(e.error ? { code: e.error.code, error: e.error } : {}),
      ...(e.error?.retryable !== undefined ? { retryable: e.error.retryable } : {}),
      ...(currentTurn ? { turn: currentTurn } : {}),
    };
    const detail = preview(e.data);
    if (detail !== undefined) item.detail = detail;
    if (e.error && e.message && e.message !== e.error.message)
      item.detail = item.detail ? `${e.message}\n${item.detail}` : e.message;
    interruptSegments();
    append(item);
  }

  /** The person's message as the server took it: shown in every window, at its place in the order. */
  function onUserMessage(e: UserMessageEvent) {
    currentTurn = e.messageId;
    const mine = items.value.find((i): i is UserItem => i.kind === 'user' && i.id === e.messageId);
    if (!mine) {
      append({
        kind: 'user',
        key: `u:${e.messageId}`,
        id: e.messageId,
        content: e.content,
        timestamp: e.timestamp,
        delivery: 'sent',
      });
      return;
    }
    // The message typed here: it now knows its place.
    const { error: _error, ...rest } = mine;
    items.value = sortBySeq(
      items.value.map((i) => (i === mine ? withSeq<UserItem>({ ...rest, delivery: 'sent' }) : i)),
    );
  }

  const handlers: Partial<{
    [T in FrontendEventPayload['type']]: (e: Extract<FrontendEventPayload, { type: T }>) => void;
  }> = {
    userMessage: onUserMessage,
    chatDelta: onChatDelta,
    toolUsed: onToolUsed,
    structuredOutput: onStructuredOutput,
    usage: (e) => void usage.apply(e),
  };

  return {
    items,
    streaming: computed(() => items.value.some((i) => i.kind === 'assistant' && i.streaming)),
    usage,
    addUserMessage(id, content, timestamp) {
      if (items.value.some((i) => i.kind === 'user' && i.id === id)) return;
      const item: UserItem = { kind: 'user', key: `u:${id}`, id, content, timestamp, delivery: 'sending' };
      currentTurn = id;
      append(item);
    },
    setDelivery(id, delivery, error) {
      const item = items.value.find((i): i is UserItem => i.kind === 'user' && i.id === id);
      if (!item) return;
      update<UserItem>(item.key, (u) => {
        const { error: _old, ...rest } = u;
        return error ? { ...rest, delivery, error } : { ...rest, delivery };
      });
    },
    applyEvent(event, seq) {
      const handler = handlers[event.type] as ((e: FrontendEventPayload) => void) | undefined;
      if (!handler || seen.has(event.id)) return false;
      seen.add(event.id);
      eventSeq = seq;
      try {
        handler(event);
      } finally {
        eventSeq = undefined;
      }
      return true;
    },
    loadHistory(messages) {
      const merged = mergeHistory(items.value, messages);
      const keys = new Set(merged.map((i) => i.key));
      open = new Map([...open].filter(([, key]) => keys.has(key)));
      toolKeys = new Map();
      for (const item of merged) if (item.kind === 'tool') toolKeys.set(item.actionId ?? item.toolCallId, item.key);
      const lastUser = [...merged].reverse().find((i) => i.kind === 'user');
      if (lastUser) currentTurn = lastUser.id;
      items.value = merged;
    },
    cancelRunning() {
      if (!items.value.some((i) => i.kind === 'tool' && i.phase === 'start' && !i.canceled)) return;
      items.value = items.value.map((i) => (i.kind === 'tool' && i.phase === 'start' ? { ...i, canceled: true } : i));
      interruptSegments();
    },
    reset() {
      items.value = [];
      usage.reset();
      seen = new Set();
      open = new Map();
      toolKeys = new Map();
      currentTurn = undefined;
    },
    find: (key) => items.value.find((i) => i.key === key),
  };
}
