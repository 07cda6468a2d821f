// Turns page preparation (screenshot + readability) and a DOM index into the full page the task
// keeps (all the text, every indexed element with its box). What the LLM sees of it in one step
// is cut to the context budget by context-budget.ts; the rest is read with the paging tools.
import type { ErrorValue } from '../../machines/index.ts';
import type { DomIndexElement } from '../../transport/contracts/actions.ts';
import type { PageElement } from '../llm/llm-types.ts';

export const ELEMENT_TEXT_MAX_CHARS = 80;
/** Options of one <select> listed in the context; the rest are counted in a warning-free `…` entry. */
export const ELEMENT_OPTIONS_MAX = 30;

export interface BBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One element of a DOM index result as the extension reports it (the contract's own type). */
export type IndexedElement = Omit<DomIndexElement, 'generation'>;

/** A page as read, before any budget: the agent's own copy, never sent whole. */
export interface FullPage {
  tabId: number;
  url: string;
  title?: string;
  /** All of the readable text (block boundaries kept as newlines). */
  text: string;
  /** The text was read back from the readability artifact (pages of 256 KB or more). */
  textFromArtifact?: boolean;
  elements: PageElement[];
  /** Viewport boxes by clickId, from the DOM index (for "in view" and "near the last action"). */
  boxes: Map<number, BBox>;
  viewport?: { width: number; height: number };
  warnings?: string[];
  missing?: string[];
  /** The load this read waited for did not give the page (HTTP 4xx/5xx, load timeout): see turn-outcome.ts. */
  loadFailure?: ErrorValue;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function pageElementOf(e: IndexedElement): PageElement {
  const out: PageElement = { clickId: e.clickId, tag: e.tag };
  // A checkbox or radio button without a value attribute reads "on": noise, not a name.
  const text =
    /^(?:checkbox|radio)$/i.test(e.type ?? '') && e.text?.trim() === 'on'
      ? undefined
      : e.text?.replace(/\s+/g, ' ').trim();
  if (text) out.text = clip(text, ELEMENT_TEXT_MAX_CHARS);
  for (const key of ['role', 'type', 'name', 'placeholder', 'href', 'target', 'value'] as const) {
    const value = e[key];
    if (value) out[key] = clip(value, ELEMENT_TEXT_MAX_CHARS);
  }
  const label = e.label?.replace(/\s+/g, ' ').trim();
  if (label && !out.text) out.text = clip(label, ELEMENT_TEXT_MAX_CHARS);
  else if (label && label !== out.text) out.label = clip(label, ELEMENT_TEXT_MAX_CHARS);
  for (const key of ['disabled', 'required', 'multiple', 'hiddenControl', 'invalid'] as const)
    if (e[key] === true) out[key] = true;
  // States where false says something too: unchecked, not pressed, collapsed, not selected.
  for (const key of ['checked', 'pressed'] as const) if (e[key] !== undefined) out[key] = e[key];
  for (const key of ['expanded', 'selected'] as const) if (e[key] !== undefined) out[key] = e[key];
  for (const key of ['level', 'valueNow', 'valueMin', 'valueMax'] as const) if (e[key] !== undefined) out[key] = e[key];
  if (e.sort) out.sort = e.sort;
  for (const key of ['current', 'hasPopup'] as const) if (e[key]) out[key] = clip(e[key], ELEMENT_TEXT_MAX_CHARS);
  if (e.frame) out.frame = clip(e.frame, ELEMENT_TEXT_MAX_CHARS);
  for (const key of ['min', 'max', 'step'] as const) if (e[key]) out[key] = e[key];
  if (e.options?.length) {
    out.options = e.options.slice(0, ELEMENT_OPTIONS_MAX).map((o) => ({
      value: clip(o.value, ELEMENT_TEXT_MAX_CHARS),
      label: clip(o.label, ELEMENT_TEXT_MAX_CHARS),
      ...(o.selected ? { selected: true } : {}),
      ...(o.disabled ? { disabled: true } : {}),
    }));
    if (e.options.length > ELEMENT_OPTIONS_MAX)
      out.options.push({ value: '…', label: `${e.options.length - ELEMENT_OPTIONS_MAX} more options` });
  }
  return out;
}

/** Structural equality of two JSON values (what a DOM index result is, parsed). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * What a page was made from, kept on the page (a symbol-keyed property: not in its JSON): a later
 * read of the same content reuses what was made of it.
 */
const SOURCE = Symbol('source');
type Sourced = FullPage & { [SOURCE]?: { text: string; elements: IndexedElement[] } };

export function fullPageOf(
  input: {
    tabId: number;
    url: string;
    title?: string | undefined;
    /** The readable text: inline from the extension, or read back from its artifact. */
    text: string;
    textFromArtifact?: boolean;
    elements: IndexedElement[];
    viewport?: { width: number; height: number } | undefined;
    warnings?: string[];
    missing?: string[];
  },
  /**
   * The task's previous page: its text and elements (the same objects) are reused when this read
   * brought the same text and the same DOM index (a step that did not change the page), so the
   * context cut from them (context-budget.ts) is not made again either.
   */
  previous?: FullPage | null,
): FullPage {
  const source = (previous as Sourced | null | undefined)?.[SOURCE];
  const sameText = source !== undefined && source.text === input.text;
  const sameElements = source !== undefined && sameJson(source.elements, input.elements);
  let boxes: Map<number, BBox>;
  if (sameElements) boxes = previous!.boxes;
  else {
    boxes = new Map<number, BBox>();
    for (const e of input.elements) if (e.bbox) boxes.set(e.clickId, e.bbox);
  }
  const page: FullPage = {
    tabId: input.tabId,
    url: input.url,
    ...(input.title ? { title: input.title } : {}),
    text: sameText
      ? previous!.text
      : input.text
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
    ...(input.textFromArtifact ? { textFromArtifact: true } : {}),
    elements: sameElements ? previous!.elements : input.elements.map(pageElementOf),
    boxes,
  };
  if (input.viewport && input.viewport.width > 0 && input.viewport.height > 0) page.viewport = input.viewport;
  if (input.warnings?.length) page.warnings = input.warnings;
  if (input.missing?.length) page.missing = input.missing;
  Object.defineProperty(page, SOURCE, {
    value: { text: sameText ? source.text : input.text, elements: sameElements ? source.elements : input.elements },
    enumerable: false,
  });
  return page;
}

/** The old estimate (characters of the JSON / 4), kept to show how far it is from real tokens. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}
