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

export function buildSnapshot(elements: DomIndexElement[]): { table: RefTable; lines: string[]; refs: Record<string, Record<string, unknown>>; truncated: boolean } {
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
    if (e.checked !== undefined) entry.checked = e.checked;
    if (e.disabled) entry.disabled = true;
    if (e.required) entry.required = true;
    if (e.options) entry.options = e.options.map((o) => (o.label === o.value ? o.label : `${o.label} (${o.value})`) + (o.selected ? ' [selected]' : '') + (o.disabled ? ' [disabled]' : ''));
    if (e.min !== undefined) entry.min = e.min;
    if (e.max !== undefined) entry.max = e.max;
    if (e.hiddenControl) entry.hidden = 'operated through its label';
    refs[ref] = entry;
    const extras = [
      e.placeholder ? `placeholder: ${e.placeholder}` : '',
      e.href ? `href: ${e.href.slice(0, 200)}` : '',
      e.value && !isPassword(e) ? `value: ${e.value.slice(0, 100)}` : '',
      e.checked !== undefined ? (e.checked ? 'checked' : 'unchecked') : '',
      e.disabled ? 'disabled' : '',
      e.required ? 'required' : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `- ${role}${name ? ` ${JSON.stringify(name)}` : ''} [ref=${ref}]${extras ? ` (${extras})` : ''}`;
  });
  return { table, lines, refs, truncated: elements.length > shown.length };
}

export function lookupRef(table: RefTable | undefined, ref: string): RefLookup {
  if (!table || table.refs.size === 0) return { ok: false, message: `no snapshot yet: run "snapshot -i" and use one of its refs (got @${ref})` };
  const element = table.refs.get(ref);
  if (element) return { ok: true, element };
  const id = Number(ref.slice(1));
  if (id < table.firstId) return { ok: false, message: `@${ref} is from an older snapshot (the current refs are @e${table.firstId}-@e${table.lastId}); run "snapshot -i" again` };
  return { ok: false, message: `@${ref} is not in the latest snapshot (refs are @e${table.firstId}-@e${table.lastId})` };
}
