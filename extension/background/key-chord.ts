// Key chords for browser_press ("Enter", "a", "Control+A", "Shift+Tab", "Meta+Shift+ArrowLeft")
// as CDP Input.dispatchKeyEvent parameters: modifiers pressed in order, the key (keyDown with
// text when it types something, rawKeyDown when a modifier turns it into a shortcut), released
// in reverse. Key names follow the DOM `key` values Playwright accepts. Pure.

export interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  /** What the key types (none for Tab, arrows, Escape...). */
  text?: string;
}

export interface Chord {
  /** The chord as given, normalised ("Control+a" -> "Control+A" stays as typed, modifiers spelled out). */
  name: string;
  modifiers: KeyDef[];
  key: KeyDef;
  /** CDP modifiers bitmask: Alt 1, Control 2, Meta 4, Shift 8. */
  mask: number;
}

const MODIFIERS: Record<string, KeyDef & { bit: number }> = {
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, bit: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, bit: 2 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, bit: 4 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, bit: 8 },
};

const MODIFIER_ALIASES: Record<string, string> = {
  alt: 'Alt',
  option: 'Alt',
  control: 'Control',
  ctrl: 'Control',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  super: 'Meta',
  shift: 'Shift',
};

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ContextMenu: { key: 'ContextMenu', code: 'ContextMenu', keyCode: 93 },
};
for (let n = 1; n <= 12; n++) NAMED[`F${n}`] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };

const NAMED_ALIASES: Record<string, string> = {
  return: 'Enter',
  esc: 'Escape',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  spacebar: 'Space',
};

const PUNCTUATION: Record<string, [string, number]> = {
  '-': ['Minus', 189],
  '=': ['Equal', 187],
  '[': ['BracketLeft', 219],
  ']': ['BracketRight', 221],
  '\\': ['Backslash', 220],
  ';': ['Semicolon', 186],
  "'": ['Quote', 222],
  ',': ['Comma', 188],
  '.': ['Period', 190],
  '/': ['Slash', 191],
  '`': ['Backquote', 192],
};

function charKey(ch: string, shift: boolean): KeyDef | null {
  if (/^[a-z]$/i.test(ch)) {
    const upper = ch.toUpperCase();
    const key = shift ? upper : ch;
    return { key, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: key };
  }
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const punct = PUNCTUATION[ch];
  if (punct) return { key: ch, code: punct[0], keyCode: punct[1], text: ch };
  if (ch === ' ') return NAMED.Space!;
  // Any other single printable character: typed as text, no physical key code.
  if (ch.length > 0 && [...ch].length === 1 && ch >= ' ') return { key: ch, code: '', keyCode: 0, text: ch };
  return null;
}

export type ChordResult = { ok: true; chord: Chord } | { ok: false; message: string };

const KNOWN =
  'Enter, Tab, Backspace, Delete, Escape, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, Space, F1-F12 or one character, with Control/Alt/Shift/Meta+';

/** Parses "Control+Shift+ArrowLeft"; "ControlOrMeta" is Meta on macOS and Control elsewhere. A lone "+" is the plus key. */
export function parseChord(input: string, mac: boolean): ChordResult {
  const trimmed = input.trim();
  const parts =
    trimmed === '+' ? ['+'] : trimmed.endsWith('++') ? [...trimmed.slice(0, -2).split('+'), '+'] : trimmed.split('+');
  if (parts.some((p) => p === ''))
    return { ok: false, message: `"${input}" is not a key chord (use e.g. Control+A); keys: ${KNOWN}` };
  const last = parts.pop()!;
  const modifiers: KeyDef[] = [];
  let mask = 0;
  for (const part of parts) {
    const lower = part.toLowerCase();
    const name = lower === 'controlormeta' ? (mac ? 'Meta' : 'Control') : MODIFIER_ALIASES[lower];
    if (!name) return { ok: false, message: `"${part}" in "${input}" is not a modifier (Control, Alt, Shift, Meta)` };
    const mod = MODIFIERS[name]!;
    if (mask & mod.bit) continue;
    mask |= mod.bit;
    modifiers.push({ key: mod.key, code: mod.code, keyCode: mod.keyCode });
  }
  const named =
    NAMED[last] ??
    NAMED[Object.keys(NAMED).find((k) => k.toLowerCase() === last.toLowerCase()) ?? ''] ??
    NAMED[NAMED_ALIASES[last.toLowerCase()] ?? ''];
  const key = named ?? ([...last].length === 1 ? charKey(last, (mask & 8) !== 0) : null);
  if (!key) return { ok: false, message: `unknown key "${last}" in "${input}"; keys: ${KNOWN}` };
  return {
    ok: true,
    chord: {
      name: [...modifiers.map((m) => m.key), key.key === ' ' ? 'Space' : key.key].join('+'),
      modifiers,
      key,
      mask,
    },
  };
}

/** macOS has no native Ctrl/Meta editing shortcuts in CDP key events: name the editing command. */
const MAC_COMMANDS: Record<string, string> = { a: 'selectAll', c: 'copy', x: 'cut', v: 'paste', z: 'undo' };

/** The Input.dispatchKeyEvent parameter list for a chord, in order. */
export function chordEvents(chord: Chord, mac: boolean): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  let mask = 0;
  const bitOf = (key: string) => MODIFIERS[key]?.bit ?? 0;
  for (const mod of chord.modifiers) {
    mask |= bitOf(mod.key);
    events.push({
      type: 'rawKeyDown',
      key: mod.key,
      code: mod.code,
      windowsVirtualKeyCode: mod.keyCode,
      modifiers: mask,
    });
  }
  const { key } = chord;
  // Control / Alt / Meta turn a typing key into a shortcut: no text.
  const types = key.text !== undefined && (mask & (1 | 2 | 4)) === 0;
  const down: Record<string, unknown> = {
    type: types ? 'keyDown' : 'rawKeyDown',
    key: key.key,
    windowsVirtualKeyCode: key.keyCode,
    modifiers: mask,
  };
  if (key.code) down.code = key.code;
  if (types) {
    down.text = key.text;
    down.unmodifiedText = key.text;
  }
  const command = mac && mask & 4 ? MAC_COMMANDS[key.key.toLowerCase()] : undefined;
  if (command) down.commands = [mask & 8 && command === 'undo' ? 'redo' : command];
  events.push(down);
  const up: Record<string, unknown> = {
    type: 'keyUp',
    key: key.key,
    windowsVirtualKeyCode: key.keyCode,
    modifiers: mask,
  };
  if (key.code) up.code = key.code;
  events.push(up);
  for (const mod of [...chord.modifiers].reverse()) {
    mask &= ~bitOf(mod.key);
    events.push({ type: 'keyUp', key: mod.key, code: mod.code, windowsVirtualKeyCode: mod.keyCode, modifiers: mask });
  }
  return events;
}
