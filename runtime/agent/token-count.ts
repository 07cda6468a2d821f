// Real token counts for what the LLM receives: OpenAI's o200k_base encoding (gpt-4o, gpt-4.1,
// o-series) through `gpt-tokenizer`, a pure-JS BPE with the rank table bundled in the package
// (no WASM, no download at run time, synchronous). chars / 4 undercounts element JSON by 20-35 %.
import { countTokens as countO200k, decode, encode, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';

// The tokenizer memoizes merged chunks in a process-wide map of up to 100,000 entries by default
// (string -> token array). Page text and tool results keep bringing new chunks (ids, URLs, numbers),
// so under load the map keeps filling for minutes: in the soak the heap at rest rose ~2.4 MB per
// 15 s load cycle and two heap snapshots showed only strings and arrays growing (what this map
// holds). 20,000 entries bound it sooner (60 s soak rest slope 14 MB/min before, 4 after,
// one run each on a shared machine under different load: indicative, not proven).
setMergeCacheSize(20_000);

export const TOKENIZER = 'o200k_base';

/**
 * The counts of recently counted texts: a step counts the same browser state message and page
 * parts several times (budget checks before and after each tool call). Bounded by characters held
 * (about 2 MB), oldest out first.
 */
const RECENT_CHARS = 1_000_000;
const recent = new Map<string, number>();
let recentChars = 0;

function countText(text: string): number {
  const known = recent.get(text);
  if (known !== undefined) return known;
  const count = countO200k(text);
  if (text.length <= RECENT_CHARS / 8) {
    recent.set(text, count);
    recentChars += text.length;
    for (const oldest of recent.keys()) {
      if (recentChars <= RECENT_CHARS) break;
      recent.delete(oldest);
      recentChars -= oldest.length;
    }
  }
  return count;
}

/** Characters of text whose counts are held now (for tests: the bound). */
export const heldCountChars = () => recentChars;

/** Tokens of a string, or of a value's JSON (what goes into a message). */
export function countTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length === 0 ? 0 : countText(text);
}

/** Tokens of a chat message list, content only (the per-message framing is a few tokens each). */
export function countMessageTokens(messages: ReadonlyArray<{ content: string; toolCalls?: unknown }>): number {
  let total = 0;
  for (const message of messages) {
    total += 4 + countTokens(message.content);
    if (message.toolCalls) total += countTokens(message.toolCalls);
  }
  return total;
}

/**
 * The character lengths of the text of `text`'s first `counts[i]` tokens (one encoding), or
 * undefined for a count whose tokens do not decode to a prefix of `text` (a character split
 * between tokens). A hint: what fits is decided by counting the slice itself.
 */
export function tokenPrefixLengths(text: string, counts: readonly number[]): Array<number | undefined> {
  const tokens = encode(text);
  return counts.map((n) => {
    if (n >= tokens.length) return text.length;
    const prefix = decode(tokens.slice(0, n));
    return text.startsWith(prefix) ? prefix.length : undefined;
  });
}
