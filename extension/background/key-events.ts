// CDP Input.dispatchKeyEvent parameters for typing text like a keyboard: printable ASCII as
// keyDown (with text) + keyUp, newline as Enter; anything else goes through Input.insertText.

export type KeyStroke =
  { kind: 'key'; down: Record<string, unknown>; up: Record<string, unknown> } | { kind: 'insert'; text: string };

export const ENTER_DOWN = {
  type: 'keyDown',
  key: 'Enter',
  code: 'Enter',
  windowsVirtualKeyCode: 13,
  nativeVirtualKeyCode: 13,
  text: '\r',
  unmodifiedText: '\r',
};
export const ENTER_UP = {
  type: 'keyUp',
  key: 'Enter',
  code: 'Enter',
  windowsVirtualKeyCode: 13,
  nativeVirtualKeyCode: 13,
};

function codeOf(ch: string): { code: string; keyCode: number } {
  if (/^[a-z]$/i.test(ch)) return { code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0) };
  if (/^[0-9]$/.test(ch)) return { code: `Digit${ch}`, keyCode: ch.charCodeAt(0) };
  if (ch === ' ') return { code: 'Space', keyCode: 32 };
  return { code: '', keyCode: 0 };
}

/** Strokes for `text`; runs of non-ASCII characters become one insertText. */
export function keyStrokes(text: string): KeyStroke[] {
  const strokes: KeyStroke[] = [];
  for (const ch of text) {
    if (ch === '\n' || ch === '\r') {
      strokes.push({ kind: 'key', down: ENTER_DOWN, up: ENTER_UP });
    } else if (ch >= ' ' && ch <= '~') {
      const { code, keyCode } = codeOf(ch);
      const shift = /^[A-Z]$/.test(ch);
      const down: Record<string, unknown> = {
        type: 'keyDown',
        key: ch,
        text: ch,
        unmodifiedText: ch,
        windowsVirtualKeyCode: keyCode,
      };
      if (code) down.code = code;
      if (shift) down.modifiers = 8;
      const up: Record<string, unknown> = { type: 'keyUp', key: ch, windowsVirtualKeyCode: keyCode };
      if (code) up.code = code;
      if (shift) up.modifiers = 8;
      strokes.push({ kind: 'key', down, up });
    } else {
      const last = strokes[strokes.length - 1];
      if (last?.kind === 'insert') last.text += ch;
      else strokes.push({ kind: 'insert', text: ch });
    }
  }
  return strokes;
}
