// Raw LLM stream chunks as the recorder keeps them (MIMO_RECORD_DIR, `llm_chunk` entries), with
// the registered secrets taken out. The model streams text and tool-call arguments in
// fragments, so a secret ("hunter2-Xq" from the person's chat, typed by the model) reaches the
// recording split over several chunks, where replacing whole values (redact.ts) cannot see it.
// Each stream (task, attempt, choice, and the content or one tool call's arguments) goes through
// a stream redactor (redacting-event-sink.ts): a tail that could still become a secret is held
// and moved into the next fragment of the same stream, or into the chunk that finishes the choice.
// Works on the OpenAI `chat.completion.chunk` shape; anything else passes unchanged.
import type { SecretRegistry } from './redact.ts';
import { createStreamRedactor, type StreamRedactor } from './redacting-event-sink.ts';

/** Open streams beyond this many are dropped, oldest first (a stream that never finished). */
const MAX_STREAMS = 512;

type Delta = { content?: unknown; tool_calls?: Array<{ index?: number; function?: { arguments?: unknown } }> } & Record<
  string,
  unknown
>;
type Choice = { index?: number; delta?: Delta; finish_reason?: unknown } & Record<string, unknown>;

export function createChunkRedactor(
  secrets: SecretRegistry,
): (chunk: unknown, info: { taskId: string; attempt: number }) => unknown {
  const streams = new Map<string, StreamRedactor>();
  const streamOf = (key: string) => {
    let stream = streams.get(key);
    if (!stream) {
      if (streams.size >= MAX_STREAMS) streams.delete(streams.keys().next().value!);
      stream = createStreamRedactor(secrets);
      streams.set(key, stream);
    }
    return stream;
  };
  /** Flushes every stream of this choice; returns the held text per slot ('content' or a tool index). */
  const finish = (prefix: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const [key, stream] of [...streams]) {
      if (!key.startsWith(prefix)) continue;
      const rest = stream.flush();
      if (rest) out.set(key.slice(prefix.length), rest);
      streams.delete(key);
    }
    return out;
  };

  return (chunk, info) => {
    if (
      secrets.size === 0 ||
      typeof chunk !== 'object' ||
      chunk === null ||
      !Array.isArray((chunk as { choices?: unknown }).choices)
    )
      return chunk;
    const choices = (chunk as { choices: Choice[] }).choices.map((choice) => {
      if (typeof choice !== 'object' || choice === null) return choice;
      const prefix = `${info.taskId}\u0000${info.attempt}\u0000${choice.index ?? 0}\u0000`;
      const delta: Delta = { ...(choice.delta ?? {}) };
      if (typeof delta.content === 'string') delta.content = streamOf(`${prefix}content`).push(delta.content);
      if (Array.isArray(delta.tool_calls)) {
        delta.tool_calls = delta.tool_calls.map((call) => {
          const args = call?.function?.arguments;
          if (typeof args !== 'string') return call;
          return {
            ...call,
            function: { ...call.function, arguments: streamOf(`${prefix}tool${call.index ?? 0}`).push(args) },
          };
        });
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
        for (const [slot, rest] of finish(prefix)) {
          if (slot === 'content') delta.content = `${typeof delta.content === 'string' ? delta.content : ''}${rest}`;
          else
            delta.tool_calls = [
              ...(delta.tool_calls ?? []),
              { index: Number(slot.slice(4)), function: { arguments: rest } },
            ];
        }
      }
      return { ...choice, delta };
    });
    return { ...(chunk as object), choices };
  };
}
