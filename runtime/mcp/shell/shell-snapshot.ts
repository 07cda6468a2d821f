// The `snapshot` reply, fitted to browser-shell's stdout limit as valid JSON: when the whole
// does not fit, elements go first (those out of view before those in view), then the page text
// is shortened, and `truncated` says what was cut and how much. Never cut inside a string.
import type { DomIndexElement, ModalScope, PageModelSource } from '../../../transport/contracts/index.ts';
import { buildSnapshot, type RefTable } from './snapshot-refs.ts';

export interface SnapshotParts {
  url: string;
  title?: string;
  elements: DomIndexElement[];
  /** Page text (absent for `snapshot -i`). */
  text?: string;
  /** The text was already cut before it got here (size limit of the read). */
  textCut?: boolean;
  warnings?: string[];
  /** Which page model the elements come from: the accessibility tree (`ax`) or the DOM fallback (`dom`). */
  source?: PageModelSource;
  /** The modal dialog that scopes the elements. */
  modal?: ModalScope;
}

export interface FittedSnapshot {
  data: Record<string, unknown>;
  table: RefTable;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8') + 1;

/** Elements in the viewport (bbox inside the first screen) first, then document order. */
function byPriority(elements: DomIndexElement[]): DomIndexElement[] {
  const inView = (e: DomIndexElement) =>
    !e.bbox || (e.bbox.y + e.bbox.h > 0 && e.bbox.y < 900 && e.bbox.x < 1600 && e.bbox.x + e.bbox.w > 0);
  return [...elements.filter(inView), ...elements.filter((e) => !inView(e))];
}

function assemble(
  parts: SnapshotParts,
  shown: DomIndexElement[],
  text: string | undefined,
): { data: Record<string, unknown>; table: RefTable; refsTruncated: boolean } {
  // Refs keep document order so the listing reads like the page.
  const order = new Map(parts.elements.map((e, i) => [e, i]));
  const sorted = [...shown].sort((a, b) => order.get(a)! - order.get(b)!);
  const snap = buildSnapshot(sorted);
  const data: Record<string, unknown> = { url: parts.url };
  if (parts.title !== undefined) data.title = parts.title;
  if (parts.source) data.source = parts.source;
  if (parts.modal) data.modal = parts.modal;
  data.snapshot = snap.lines.join('\n');
  data.refs = snap.refs;
  if (text !== undefined) data.text = text;
  if (parts.warnings && parts.warnings.length > 0) data.warnings = parts.warnings;
  return { data, table: snap.table, refsTruncated: snap.truncated };
}

/** Fits the snapshot into `maxBytes` of JSON (plus newline). */
export function fitSnapshot(parts: SnapshotParts, maxBytes: number, textMaxChars: number): FittedSnapshot {
  const prioritized = byPriority(parts.elements);
  let text = parts.text?.slice(0, textMaxChars);
  const textCutForLimit = parts.text !== undefined && parts.text.length > textMaxChars;
  // Room for the `truncated` note itself.
  const budget = maxBytes - 600;
  let count = prioritized.length;
  let built = assemble(parts, prioritized, text);
  // Halve, then grow back, to find how many elements fit next to the full text.
  if (bytes(built.data) > budget) {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (bytes(assemble(parts, prioritized.slice(0, mid), text).data) <= budget) lo = mid;
      else hi = mid - 1;
    }
    count = lo;
    built = assemble(parts, prioritized.slice(0, count), text);
  }
  // Still too big with no elements at all: the text gives way too, from its end.
  let textCutForBytes = false;
  if (bytes(built.data) > budget && text !== undefined) {
    const over = bytes(built.data) - budget;
    text = text.slice(0, Math.max(0, text.length - over - 16));
    while (text.length > 0 && bytes(assemble(parts, [], text).data) > budget)
      text = text.slice(0, Math.floor(text.length * 0.9));
    textCutForBytes = true;
    built = assemble(parts, [], text);
  }
  const notes: Record<string, unknown> = {};
  const listed = Math.min(count, Object.keys(built.data.refs as object).length);
  if (count < prioritized.length || built.refsTruncated) {
    notes.elements = {
      shown: listed,
      total: parts.elements.length,
      reason:
        count < prioritized.length
          ? 'the output limit of 64 KB (elements in view kept first)'
          : 'at most 300 refs per snapshot',
    };
  }
  if (parts.text !== undefined && (textCutForLimit || textCutForBytes || parts.textCut)) {
    notes.text = {
      shownChars: text?.length ?? 0,
      totalChars: parts.text.length,
      reason: textCutForBytes
        ? 'the output limit of 64 KB'
        : parts.textCut
          ? 'the page text is larger than one read'
          : `at most ${textMaxChars} characters of page text`,
    };
  }
  if (Object.keys(notes).length > 0) built.data.truncated = notes;
  // The ref table holds every indexed element: a ref that was not listed still acts.
  const table = assemble(parts, parts.elements, undefined).table;
  return { data: built.data, table };
}
