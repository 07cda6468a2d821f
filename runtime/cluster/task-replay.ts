// Which user messages a node that takes a task over must run again: every message after the last
// one that has an answer, in order (the interrupted turn first, then those queued behind it).
// A user message is answered when an assistant message carries its traceId (turn-runner stores
// it with the answer); a message stored without a traceId counts as answered when an assistant
// message follows it. A turn that failed (h22a honest outcomes: the task went to `error` with an
// outcome note carrying the message's traceId) has ended too: it is not run again by a takeover
// (resume_task is how the user runs it again). Pure: the stored messages in, the replay list out.
import { turnOutcomeNoteOf } from '../../transport/contracts/index.ts';
import type { ReplayMessage } from '../agent/task-recovery.ts';

interface StoredMessage {
  id: string;
  role: string;
  content: string;
  meta?: { traceId?: string } | Record<string, unknown>;
}

const traceOf = (m: StoredMessage): string | undefined => {
  const trace = (m.meta as { traceId?: unknown } | undefined)?.traceId;
  return typeof trace === 'string' ? trace : undefined;
};

export function replayOf(messages: StoredMessage[]): ReplayMessage[] {
  const answeredTraces = new Set<string>();
  const ended = (m: StoredMessage) =>
    m.role === 'assistant' || (m.role === 'system' && turnOutcomeNoteOf(m.meta) !== null);
  for (const m of messages) if (ended(m) && traceOf(m)) answeredTraces.add(traceOf(m)!);
  let lastAnswered = -1;
  let assistantAfter = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (ended(m)) assistantAfter = true;
    if (m.role !== 'user') continue;
    const trace = traceOf(m);
    if ((trace && answeredTraces.has(trace)) || (!trace && assistantAfter)) {
      lastAnswered = i;
      break;
    }
  }
  return messages
    .slice(lastAnswered + 1)
    .filter((m) => m.role === 'user')
    .map((m) => ({ id: m.id, content: m.content, traceId: traceOf(m) ?? `trace-${m.id}` }));
}

export const takeoverNote = (nodeId: string, status: string) =>
  `The server node that was running this task stopped; node ${nodeId} took it over${status === 'running' ? ' and carries on where it was' : ''}.`;
