// Builders for `chat.completion.chunk` objects as an OpenAI-compatible server streams them, and
// `chunksFromRecording` to turn a recorded stream back into such a list. A recording is a plain
// JSON array of chunk objects (also accepted: JSON Lines, or raw SSE text with `data:` lines).
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

export interface ChunkMeta {
  id?: string;
  model?: string;
  created?: number;
}

function base(meta: ChunkMeta = {}): Omit<ChatCompletionChunk, 'choices'> {
  return {
    id: meta.id ?? 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: meta.created ?? 1_700_000_000,
    model: meta.model ?? 'mock-model',
  };
}

function choiceChunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finishReason: ChatCompletionChunk.Choice['finish_reason'],
  meta?: ChunkMeta,
): ChatCompletionChunk {
  return { ...base(meta), choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] };
}

/** An assistant role chunk, then one chunk per piece of text (a string is split into words). */
export function textChunks(text: string | string[], meta?: ChunkMeta): ChatCompletionChunk[] {
  const pieces = Array.isArray(text) ? text : (text.match(/\S+\s*|\s+/g) ?? []);
  return [
    choiceChunk({ role: 'assistant', content: '' }, null, meta),
    ...pieces.map((piece) => choiceChunk({ content: piece }, null, meta)),
  ];
}

export interface MockToolCall {
  id: string;
  name: string;
  /** The raw arguments text, sent as is (so it can be malformed on purpose). */
  arguments: string;
  /** How many fragments the arguments are split into (default 3). */
  pieces?: number;
}

/** Tool calls the way OpenAI streams them: id + name first, then argument fragments per index. */
export function toolCallChunks(calls: MockToolCall[], meta?: ChunkMeta): ChatCompletionChunk[] {
  const out: ChatCompletionChunk[] = [];
  calls.forEach((call, index) => {
    out.push(
      choiceChunk(
        {
          ...(index === 0 ? { role: 'assistant' as const } : {}),
          tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
        },
        null,
        meta,
      ),
    );
    for (const fragment of splitInto(call.arguments, call.pieces ?? 3)) {
      out.push(choiceChunk({ tool_calls: [{ index, function: { arguments: fragment } }] }, null, meta));
    }
  });
  return out;
}

export function finishChunk(
  reason: NonNullable<ChatCompletionChunk.Choice['finish_reason']>,
  meta?: ChunkMeta,
): ChatCompletionChunk {
  return choiceChunk({}, reason, meta);
}

/** The final chunk sent with `stream_options.include_usage`: no choices, only usage. */
export function usageChunk(
  usage: { promptTokens: number; completionTokens: number },
  meta?: ChunkMeta,
): ChatCompletionChunk {
  return {
    ...base(meta),
    choices: [],
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    },
  };
}

/** A whole response: optional text, optional tool calls, the finish chunk and a usage chunk. */
export function completionChunks(
  spec: {
    text?: string | string[];
    toolCalls?: MockToolCall[];
    usage?: { promptTokens: number; completionTokens: number };
    finishReason?: NonNullable<ChatCompletionChunk.Choice['finish_reason']>;
  },
  meta?: ChunkMeta,
): ChatCompletionChunk[] {
  const out: ChatCompletionChunk[] = [];
  if (spec.text !== undefined) out.push(...textChunks(spec.text, meta));
  if (spec.toolCalls?.length) out.push(...toolCallChunks(spec.toolCalls, meta));
  out.push(finishChunk(spec.finishReason ?? (spec.toolCalls?.length ? 'tool_calls' : 'stop'), meta));
  out.push(usageChunk(spec.usage ?? { promptTokens: 10, completionTokens: 5 }, meta));
  return out;
}

export type RecordingParseResult = { ok: true; chunks: ChatCompletionChunk[] } | { ok: false; error: string };

/**
 * A recorded stream back as chunks: a JSON array (value or text) of chunk objects, JSON Lines, or
 * SSE text (`data: {...}` lines, `data: [DONE]` ignored). Every item must be a
 * `chat.completion.chunk` object; anything else is reported, not thrown.
 */
export function chunksFromRecording(recording: unknown): RecordingParseResult {
  let items: unknown[];
  if (Array.isArray(recording)) items = recording;
  else if (typeof recording === 'string') {
    const parsed = parseRecordingText(recording);
    if (!parsed.ok) return parsed;
    items = parsed.items;
  } else return { ok: false, error: 'a recording is a JSON array of chat.completion.chunk objects (or its text)' };
  for (const [index, item] of items.entries()) {
    if (
      typeof item !== 'object' ||
      item === null ||
      (item as { object?: unknown }).object !== 'chat.completion.chunk' ||
      !Array.isArray((item as { choices?: unknown }).choices)
    ) {
      return { ok: false, error: `recording item ${index} is not a chat.completion.chunk object` };
    }
  }
  return { ok: true, chunks: items as ChatCompletionChunk[] };
}

function parseRecordingText(text: string): { ok: true; items: unknown[] } | { ok: false; error: string } {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('[')) {
      const value: unknown = JSON.parse(trimmed);
      return Array.isArray(value) ? { ok: true, items: value } : { ok: false, error: 'recording JSON is not an array' };
    }
    const lines = trimmed
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    const sse = lines.some((line) => line.startsWith('data:'));
    const items: unknown[] = [];
    for (const line of lines) {
      if (sse && !line.startsWith('data:')) continue;
      const payload = sse ? line.slice(5).trim() : line;
      if (payload === '[DONE]') continue;
      items.push(JSON.parse(payload));
    }
    return { ok: true, items };
  } catch (error) {
    return { ok: false, error: `recording is not valid JSON: ${(error as Error).message}` };
  }
}

function splitInto(text: string, pieces: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
