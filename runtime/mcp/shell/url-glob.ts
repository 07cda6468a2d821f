// `wait --url <pattern>`: `*` matches any run of characters (slashes included), everything
// else is literal. Matched in linear time, without regular expressions: the pattern is split at
// its stars, the first piece must be a prefix, the last a suffix, and the pieces between are
// found leftmost in order (greedy leftmost is exact for star-only globs), each with KMP, so the
// text is scanned once. A 2,000-character pattern of stars against an 8 KiB URL costs a few
// thousand steps, where `*` -> `.*` in a backtracking regex costs exponential time.

export interface GlobCounter {
  steps: number;
}

/** KMP failure table of `needle`. */
function failureTable(needle: string, counter?: GlobCounter): Int32Array {
  const table = new Int32Array(needle.length);
  let k = 0;
  for (let i = 1; i < needle.length; i++) {
    while (k > 0 && needle[i] !== needle[k]) {
      k = table[k - 1]!;
      if (counter) counter.steps++;
    }
    if (needle[i] === needle[k]) k++;
    table[i] = k;
    if (counter) counter.steps++;
  }
  return table;
}

/** Leftmost index >= from where `needle` ends at or before `end`, or -1. */
function findFrom(text: string, needle: string, from: number, end: number, counter?: GlobCounter): number {
  if (needle.length === 0) return from;
  const table = failureTable(needle, counter);
  let k = 0;
  for (let i = from; i < end; i++) {
    while (k > 0 && text[i] !== needle[k]) {
      k = table[k - 1]!;
      if (counter) counter.steps++;
    }
    if (text[i] === needle[k]) k++;
    if (counter) counter.steps++;
    if (k === needle.length) return i - needle.length + 1;
  }
  return -1;
}

/** Whether the whole `text` matches the glob `pattern`. */
export function globMatches(pattern: string, text: string, counter?: GlobCounter): boolean {
  const pieces = pattern.split(/\*+/);
  if (pieces.length === 1) return pattern === text;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (first.length + last.length > text.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let pos = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    const at = findFrom(text, piece, pos, end, counter);
    if (at === -1) return false;
    pos = at + piece.length;
  }
  return true;
}

/** `wait --url`: the pattern as a substring of the URL, or as a glob over the whole URL. */
export function urlMatchesPattern(url: string, pattern: string, counter?: GlobCounter): boolean {
  return url.includes(pattern) || globMatches(pattern, url, counter);
}
