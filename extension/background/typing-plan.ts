// How browser_type enters a text: short texts key by key, as a person would (pages
// with autocomplete or per-key validation listen to keydown/keyup); long texts with CDP
// Input.insertText in chunks (one renderer round trip per chunk instead of two per character,
// which in a background tab took over 10 s for 220 characters), with key events only where the
// page needs them: each newline is an Enter key (a textarea's line break, an input's submit, as
// when typed) and the last character is a real key stroke, so keydown/keyup listeners hear that
// the entry changed. Pure: type-text.ts runs the plan over CDP.
import { ENTER_DOWN, ENTER_UP, keyStrokes, type KeyStroke } from './key-events.ts';
import { OWN_INPUT_ARM_MS } from '../shared/own-input-guard.ts';

/** Texts of up to this many characters are typed key by key. */
export const KEY_BY_KEY_MAX_CHARS = 32;
/** Characters per Input.insertText call for longer texts. */
export const INSERT_CHUNK_CHARS = 500;
/** What one key stroke or one insert chunk may take in a busy background tab (own-input guard). */
const KEY_STROKE_MS = 40;
const INSERT_CHUNK_MS = 1_000;

function chunked(text: string, strokes: KeyStroke[]): void {
  const chars = [...text];
  for (let i = 0; i < chars.length; i += INSERT_CHUNK_CHARS)
    strokes.push({ kind: 'insert', text: chars.slice(i, i + INSERT_CHUNK_CHARS).join('') });
}

/** The strokes that enter `text`: key by key when short, else insert chunks with keys only at newlines and at the end. */
export function typingPlan(text: string): KeyStroke[] {
  const chars = [...text];
  if (chars.length <= KEY_BY_KEY_MAX_CHARS) return keyStrokes(text);
  const body = chars.slice(0, -1).join('');
  const strokes: KeyStroke[] = [];
  const lines = body.split(/\r\n|\r|\n/);
  lines.forEach((line, index) => {
    if (index > 0) strokes.push({ kind: 'key', down: ENTER_DOWN, up: ENTER_UP });
    if (line) chunked(line, strokes);
  });
  strokes.push(...keyStrokes(chars.at(-1)!));
  return strokes;
}

/** How long the own-input guard is armed for a plan (the content script ignores trusted input meanwhile; trimmed when the action settles). */
export function typingGuardMs(plan: readonly KeyStroke[]): number {
  let ms = OWN_INPUT_ARM_MS;
  for (const stroke of plan) ms += stroke.kind === 'key' ? KEY_STROKE_MS : INSERT_CHUNK_MS;
  return ms;
}
