// `snapshot -i` from the extension's DOM index: every element becomes a ref `e<clickId>` (clickIds
// are unique per tab across index generations, so a ref from an older snapshot is recognisably
// old instead of naming a new element), an agent-browser-like line, and a refs map. The refs of
// the latest snapshot are the only ones click/fill accept; the extension checks them again.
import type { DomIndexElement } from '../../../transport/contracts/index.ts';

export const SNAPSHOT_MAX_REFS = 300;

export interface RefTable {
  /** ref -> element of the latest snapshot. */
  refs: Map<string, DomIndexElement>;
  firstId: number;
  lastId: number;
}

export type RefLookup = { ok: true; element: DomIndexElement } | { ok: false; message: string };

export function roleOf(e: DomIndexElement): string {
  if (e.role) return e.role;
  const type = (e.type ?? '').toLowerCase();
  switch (e.tag) {
    case 'a':
      return 'link';
    case 'button':
      return 'button';
    case 'select':
      return e.multiple ? 'listbox' : 'combobox';
    case 'textarea':
      return 'textbox';
    case 'input':
      if (type === 'checkbox' || type === 'radio') return type;
      if (['submit', 'button', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'range') return 'slider';
      return 'textbox';
    default:
      return e.tag;
  }
}

function nameOf(e: DomIndexElement): string {
  const idFromXpath = e.xpath ? /@id="([^"]+)"\]$/.exec(e.xpath)?.[1] : undefined;
  // Accessible-name order: label, content, placeholder; then the form name or id as a last resort.
  return (e.label ?? e.text ?? e.placeholder ?? e.name ?? idFromXpath ?? '').replace(/\s+/g, ' ').trim().slice(0, 100);
}

const isPassword = (e: DomIndexElement) => (e.type ?? '').toLowerCase() === 'password';

export function buildSnapshot(elements: DomIndexElement[]): {
  table: RefTable;
  lines: string[];
  refs: Record<string, Record<string, unknown>>;
  truncated: boolean;
} {
  const table: RefTable = { refs: new Map(), firstId: Infinity, lastId: -Infinity };
  for (const e of elements) {
    table.refs.set(`e${e.clickId}`, e);
    table.firstId = Math.min(table.firstId, e.clickId);
    table.lastId = Math.max(table.lastId, e.clickId);
  }
  const shown = elements.slice(0, SNAPSHOT_MAX_REFS);
  const refs: Record<string, Record<string, unknown>> = {};
  const lines = shown.map((e) => {
    const ref = `e${e.clickId}`;
    const role = roleOf(e);
    const name = nameOf(e);
    const entry: Record<string, unknown> = { role, name, tag: e.tag };
    if (e.type) entry.type = e.type;
    if (e.placeholder) entry.placeholder = e.placeholder;
    if (e.href) entry.href = e.href;
    if (e.value !== undefined && !isPassword(e)) entry.value = e.value;
    // Control state, so a caller can check, select or slide without another read.
    Object.assign(entry, statesOf(e));
    if (e.options)
      entry.options = e.options.map(
        (o) =>
          (o.label === o.value ? o.label : `${o.label} (${o.value})`) +
          (o.selected ? ' [selected]' : '') +
          (o.disabled ? ' [disabled]' : ''),
      );
    if (e.min !== undefined) entry.min = e.min;
    if (e.max !== undefined) entry.max = e.max;
    if (e.hiddenControl) entry.hidden = 'operated through its label';
    refs[ref] = entry;
    const extras = [
      e.placeholder ? `placeholder: ${e.placeholder}` : '',
      e.href ? `href: ${e.href.slice(0, 200)}` : '',
      e.value && !isPassword(e) ? `value: ${e.value.slice(0, 100)}` : '',
      ...stateWords(e),
      e.frame ? `in frame: ${e.frame.slice(0, 100)}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `- ${role}${name ? ` ${JSON.stringify(name)}` : ''} [ref=${ref}]${extras ? ` (${extras})` : ''}`;
  });
  return { table, lines, refs, truncated: elements.length > shown.length };
}

const STATE_KEYS = [
  'checked',
  'pressed',
  'selected',
  'expanded',
  'disabled',
  'required',
  'readonly',
  'invalid',
  'focused',
  'level',
  'valueNow',
  'valueMin',
  'valueMax',
  'valueText',
  'sort',
  'current',
  'hasPopup',
  'frame',
] as const;

/** The element's ARIA states as they go into the refs map. */
function statesOf(e: DomIndexElement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of STATE_KEYS) if (e[key] !== undefined && e[key] !== false) out[key] = e[key];
  // false is a state worth saying for these: unchecked, not pressed, collapsed, not selected.
  for (const key of ['checked', 'pressed', 'expanded', 'selected'] as const) if (e[key] === false) out[key] = false;
  return out;
}

/** The states in words on the snapshot line, as a screen reader would say them. */
function stateWords(e: DomIndexElement): string[] {
  const words: string[] = [];
  if (e.checked !== undefined)
    words.push(e.checked === 'mixed' ? 'checked=mixed' : e.checked ? 'checked' : 'unchecked');
  if (e.pressed !== undefined)
    words.push(e.pressed === 'mixed' ? 'pressed=mixed' : e.pressed ? 'pressed' : 'not pressed');
  if (e.expanded !== undefined) words.push(e.expanded ? 'expanded' : 'collapsed');
  if (e.selected) words.push('selected');
  if (e.level !== undefined) words.push(`level=${e.level}`);
  if (e.valueNow !== undefined)
    words.push(
      `valuenow=${e.valueNow}${e.valueMin !== undefined || e.valueMax !== undefined ? ` (${e.valueMin ?? ''}..${e.valueMax ?? ''})` : ''}`,
    );
  if (e.sort) words.push(`sort=${e.sort}`);
  if (e.current) words.push(`current=${e.current}`);
  if (e.hasPopup) words.push(`haspopup=${e.hasPopup}`);
  for (const key of ['focused', 'disabled', 'required', 'readonly', 'invalid'] as const) if (e[key]) words.push(key);
  return words;
}

export function lookupRef(table: RefTable | undefined, ref: string): RefLookup {
  if (!table || table.refs.size === 0)
    return { ok: false, message: `no snapshot yet: run "snapshot -i" and use one of its refs (got @${ref})` };
  const element = table.refs.get(ref);
  if (element) return { ok: true, element };
  const id = Number(ref.slice(1));
  if (id < table.firstId)
    return {
      ok: false,
      message: `@${ref} is from an older snapshot (the current refs are @e${table.firstId}-@e${table.lastId}); run "snapshot -i" again`,
    };
  return {
    ok: false,
    message: `@${ref} is not in the latest snapshot (refs are @e${table.firstId}-@e${table.lastId})`,
  };
}
