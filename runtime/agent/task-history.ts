// What the orchestrator writes into a task's history and title, and the URL check an agent task
// uses when no URL policy is configured.
import { toolResultError, toolResultOk } from '../../transport/contracts/index.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import { createKeyedQueue } from '../store/keyed-queue.ts';
import type { Message, TaskStore, TaskUsage } from '../store/task-types.ts';
import type { StepRecord, UrlCheck } from './task-browser-types.ts';

export const basicUrlCheck: UrlCheck = async (url) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      ok: false,
      error: { code: 'SCHEMA_VALIDATION_FAILED', message: `"${url}" is not an absolute URL`, retryable: false },
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      error: {
        code: 'URL_BLOCKED',
        message: `only http(s) URLs can be opened, not ${parsed.protocol}`,
        retryable: false,
      },
    };
  }
  return { ok: true };
};

/** The task title: the first non-empty line of its first message, at most 80 characters. */
export function titleFrom(content: string): string {
  const line =
    content
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? 'New task';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A finished browser action as the `tool` message of the task's history (seed 000 tool-result JSON). */
export function toolMessageOf(
  record: StepRecord,
  at: { id: string; timestamp: number; traceId?: string | undefined },
): Message {
  const content = JSON.stringify(
    record.ok
      ? toolResultOk(
          record.toolCallId,
          record.actionName,
          record.result ?? {},
          Array.isArray(record.result?.warnings) ? { warnings: record.result.warnings as string[] } : {},
        )
      : toolResultError(record.toolCallId, record.actionName, {
          code: record.error?.code ?? 'INTERNAL',
          message: record.error?.message ?? 'the action failed',
          retryable: record.error?.retryable ?? false,
        }),
  );
  return {
    id: at.id,
    role: 'tool',
    content,
    timestamp: at.timestamp,
    meta: {
      toolCallId: record.toolCallId,
      actionId: record.actionId,
      actionName: record.actionName,
      paramsSummary: record.paramsSummary,
      durationMs: record.durationMs,
      ok: record.ok,
      ...(record.target ? { target: record.target } : {}),
      ...(at.traceId ? { traceId: at.traceId } : {}),
      ...(record.seq !== undefined ? { seq: record.seq } : {}),
      ...(record.settleSeq !== undefined ? { settleSeq: record.settleSeq } : {}),
    },
  };
}

/**
 * The conversation the LLM sees before the user message `messageId`: each earlier user message
 * followed by its answer (`meta.replyTo`). The log holds them in the order they were stored, and
 * a message sent while a turn ran is stored before that turn's answer; an answer stored without
 * `replyTo` (older logs) keeps its place. The last 20 entries.
 */
export function conversationBefore(
  messages: readonly Message[],
  messageId: string,
): Array<{ role: 'user' | 'assistant'; content: string }> {
  const replyTo = (m: Message) =>
    m.role === 'assistant' && typeof m.meta?.replyTo === 'string' ? m.meta.replyTo : undefined;
  const answers = new Map<string, Message[]>();
  for (const m of messages) {
    const to = replyTo(m);
    if (to !== undefined) answers.set(to, [...(answers.get(to) ?? []), m]);
  }
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const m of messages) {
    if (m.id === messageId) break;
    if (m.role === 'user') {
      out.push({ role: 'user', content: m.content });
      for (const answer of answers.get(m.id) ?? []) out.push({ role: 'assistant', content: answer.content });
    } else if (m.role === 'assistant' && replyTo(m) === undefined) out.push({ role: 'assistant', content: m.content });
  }
  return out.slice(-20);
}

/**
 * A task's token usage: one `usage` event per LLM call with that call's tokens, sent at once; the
 * task total is their sum, stored afterwards as task.usage. The additions run one at a time
 * (a keyed queue): each reads the total and writes the sum, so two reports in flight together (a
 * slow store, steps a moment apart) would otherwise both read the same total and one would be lost.
 */
export function createUsageAccumulator(deps: { events: FrontendEventSink; taskStore: TaskStore }, taskId: string) {
  const additions = createKeyedQueue();
  return (usage: TaskUsage): Promise<void> => {
    deps.events.toTask(taskId, { type: 'usage', ...usage });
    return additions.run(taskId, async () => {
      const task = await deps.taskStore.getTask(taskId);
      const before = task?.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
      await deps.taskStore.updateTask(taskId, {
        usage: {
          promptTokens: before.promptTokens + usage.promptTokens,
          completionTokens: before.completionTokens + usage.completionTokens,
          totalTokens: before.totalTokens + usage.totalTokens,
        },
      });
    });
  };
}
