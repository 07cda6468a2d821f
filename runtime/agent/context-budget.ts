// The per-step context budget: what of a page the LLM sees in one step, in real o200k tokens.
// The whole step context (this page + the browser-state message) stays within the budget
// (default 4k, MIMO_CONTEXT_TOKENS); elements in view and near the last action come first, then
// the readable text from its start; the rest is named in `paging` and read with the paging tools.
import type { PageContext, PageElement } from '../llm/llm-types.ts';
import type { BBox, FullPage } from './page-context.ts';
import { countTokens, tokenPrefixLengths } from './token-count.ts';

export const DEFAULT_CONTEXT_TOKENS = 4_000;
export const MIN_CONTEXT_TOKENS = 1_000;
export const MAX_CONTEXT_TOKENS = 1_000_000;
/** Share of the page budget elements may take when text and elements do not both fit. */
const ELEMENT_SHARE = 0.5;

export function parseContextTokens(
  text: string | undefined,
): { ok: true; value: number } | { ok: false; error: string } {
  if (text === undefined || text.trim() === '') return { ok: true, value: DEFAULT_CONTEXT_TOKENS };
  const value = Number(text);
  if (!Number.isInteger(value) || value < MIN_CONTEXT_TOKENS || value > MAX_CONTEXT_TOKENS) {
    return {
      ok: false,
      error: `MIMO_CONTEXT_TOKENS must be an integer from ${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS} (tokens per LLM step), not "${text}"`,
    };
  }
  return { ok: true, value };
}

const center = (b: BBox) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });

function inView(box: BBox | undefined, viewport: { width: number; height: number }): boolean {
  return (
    !!box &&
    box.w > 0 &&
    box.h > 0 &&
    box.y + box.h > 0 &&
    box.x + box.w > 0 &&
    box.y < viewport.height &&
    box.x < viewport.width
  );
}

const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

/** Elements by priority: in view first, each group nearest the focus (else top of the view) first. */
export function elementPriority(page: FullPage, focus?: BBox): PageElement[] {
  const viewport = page.viewport ?? DEFAULT_VIEWPORT;
  const anchor = focus ? center(focus) : { x: 0, y: 0 };
  const distance = (e: PageElement) => {
    const box = page.boxes.get(e.clickId);
    if (!box) return Number.MAX_SAFE_INTEGER;
    const c = center(box);
    return focus ? Math.hypot(c.x - anchor.x, c.y - anchor.y) : Math.abs(c.y) * 4 + Math.abs(c.x);
  };
  // Ties keep the page's order (the accessibility-tree model has no boxes; its stable ids are not in document order).
  return page.elements
    .map((element, order) => ({
      element,
      order,
      view: inView(page.boxes.get(element.clickId), viewport) ? 0 : 1,
      distance: distance(element),
    }))
    .sort((a, b) => a.view - b.view || a.distance - b.distance || a.order - b.order)
    .map((e) => e.element);
}

/**
 * Cuts of recent page texts: successive steps of a task fit the same page text to the same budget
 * (the page did not change), and a cut encodes tens of kilobytes. Bounded by characters of the
 * texts held (their strings are shared with the page, not copied), oldest out first.
 */
const CUTS_HELD_CHARS = 2_000_000;
const cuts = new Map<string, Map<number, number>>();
let cutsChars = 0;

/** Characters of page text whose cuts are held now (for tests: the bound). */
export const heldCutChars = () => cutsChars;

/** The end (exclusive) of the longest slice of `text` from `offset` within `maxTokens`, at a line or word boundary when one is near. */
export function cutText(text: string, offset: number, maxTokens: number): number {
  if (offset >= text.length || maxTokens <= 0) return offset;
  const key = offset * 1_048_576 + maxTokens; // exact while maxTokens < 2^20 (MAX_CONTEXT_TOKENS < 2^20)
  let ofText = cuts.get(text);
  const known = ofText?.get(key);
  if (known !== undefined) return known;
  const end = cutTextOnce(text, offset, maxTokens);
  if (text.length > CUTS_HELD_CHARS / 4) return end;
  if (!ofText) {
    ofText = new Map();
    cuts.set(text, ofText);
    cutsChars += text.length;
    for (const oldest of cuts.keys()) {
      if (cutsChars <= CUTS_HELD_CHARS) break;
      cuts.delete(oldest);
      cutsChars -= oldest.length;
    }
  }
  if (ofText.size < 64) ofText.set(key, end);
  return end;
}

function cutTextOnce(text: string, offset: number, maxTokens: number): number {
  if (offset >= text.length || maxTokens <= 0) return offset;
  if (countTokens(text.slice(offset, offset + maxTokens * 12)) <= maxTokens && offset + maxTokens * 12 >= text.length)
    return text.length;
  let lo = offset;
  let hi = Math.min(text.length, offset + maxTokens * 12);
  // One encoding narrows the search: the text of the first maxTokens tokens fits, that of
  // maxTokens + 2 does not (each checked by counting the slice, as the search does), so only the
  // characters between them are searched (a few counts instead of about fifteen).
  const [fit, over] = tokenPrefixLengths(text.slice(lo, hi), [maxTokens, maxTokens + 2]);
  if (fit !== undefined && fit > 0 && countTokens(text.slice(offset, offset + fit)) <= maxTokens) lo = offset + fit;
  if (over !== undefined && offset + over <= hi && countTokens(text.slice(offset, offset + over)) > maxTokens)
    hi = Math.max(lo, offset + over - 1);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(text.slice(offset, mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  if (lo >= text.length) return text.length;
  const window = text.slice(offset, lo);
  const line = window.lastIndexOf('\n');
  if (line > window.length * 0.6) return offset + line + 1;
  const space = window.lastIndexOf(' ');
  return space > window.length * 0.8 ? offset + space + 1 : lo;
}

/**
 * The text's share of a step, rounded down to a multiple of TEXT_BUDGET_STEP tokens: each step's
 * budget differs by a few tokens (the browser state and the tool result around the page), and a
 * rounded budget lets successive steps on an unchanged page reuse its cut (cutText) instead of
 * tokenizing it again. At most TEXT_BUDGET_STEP - 1 tokens of text are left out.
 */
const TEXT_BUDGET_STEP = 32;
const textBudget = (tokens: number) =>
  tokens > TEXT_BUDGET_STEP * 4 ? tokens - (tokens % TEXT_BUDGET_STEP) : Math.max(0, tokens);

function howTo(textEnd: number, textTotal: number, shown: number, total: number): string {
  const parts: string[] = [];
  if (textEnd < textTotal) parts.push(`more text: browser_read_page_text {"offset": ${textEnd}}`);
  if (shown < total)
    parts.push(
      `${total - shown} more elements (shown: in view and near your last action first): browser_list_elements {"page": 1} or {"query": "words"}`,
    );
  return parts.join('; ');
}

/**
 * What was counted and cut from one element list, kept on the list itself (a symbol-keyed
 * property: not in its JSON, gone with the list; a later read of the same page reuses the list,
 * page-context.ts): each element's tokens in a context (its JSON and the comma after it) by
 * clickId, and the last cut with what else it was cut from, so a step on an unchanged page with
 * the same budget and focus gets the same cut without counting it again.
 */
const FITTED = Symbol('fitted');
interface Fitted {
  costs: Map<number, number>;
  last?: { page: FullPage; budgetTokens: number; focus: BBox | undefined; fitted: PageContext };
}
type FittedList = PageElement[] & { [FITTED]?: Fitted };

function fittedOf(elements: PageElement[]): Fitted {
  const list = elements as FittedList;
  let fitted = list[FITTED];
  if (!fitted) {
    fitted = { costs: new Map(elements.map((e) => [e.clickId, countTokens(e) + 1])) };
    Object.defineProperty(list, FITTED, { value: fitted, enumerable: false, writable: true });
  }
  return fitted;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));
const sameBox = (a: BBox | undefined, b: BBox | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h);

function samePageParts(a: FullPage, b: FullPage): boolean {
  return (
    a.tabId === b.tabId &&
    a.url === b.url &&
    a.title === b.title &&
    a.text === b.text &&
    a.boxes === b.boxes &&
    a.viewport?.width === b.viewport?.width &&
    a.viewport?.height === b.viewport?.height &&
    sameList(a.warnings, b.warnings) &&
    sameList(a.missing, b.missing)
  );
}

/** A copy a caller may change without changing the cached cut. */
const copyOf = (fitted: PageContext): PageContext => ({
  ...fitted,
  elements: [...fitted.elements],
  ...(fitted.warnings ? { warnings: [...fitted.warnings] } : {}),
  ...(fitted.missing ? { missing: [...fitted.missing] } : {}),
  ...(fitted.paging ? { paging: { ...fitted.paging } } : {}),
});

/** The page as one step's context: at most `budgetTokens` tokens of JSON. */
export function fitPage(page: FullPage, options: { budgetTokens: number; focus?: BBox | undefined }): PageContext {
  const kept = fittedOf(page.elements);
  const last = kept.last;
  if (
    last &&
    last.budgetTokens === options.budgetTokens &&
    sameBox(last.focus, options.focus) &&
    samePageParts(last.page, page)
  )
    return copyOf(last.fitted);
  const fitted = fitPageOnce(page, options, kept.costs);
  kept.last = {
    page,
    budgetTokens: options.budgetTokens,
    focus: options.focus && { ...options.focus },
    fitted: copyOf(fitted),
  };
  return fitted;
}

function fitPageOnce(
  page: FullPage,
  options: { budgetTokens: number; focus?: BBox | undefined },
  cost: Map<number, number>,
): PageContext {
  const base: PageContext = {
    tabId: page.tabId,
    url: page.url,
    ...(page.title ? { title: page.title } : {}),
    text: '',
    elements: [],
    ...(page.warnings ? { warnings: page.warnings } : {}),
    ...(page.missing ? { missing: page.missing } : {}),
  };
  const textTotal = page.text.length;
  const total = page.elements.length;
  const placeholderPaging = {
    textOffset: 0,
    textEnd: textTotal,
    textTotal,
    elementsShown: total,
    elementsTotal: total,
    howTo: howTo(0, 1, 0, 1),
  };
  const skeleton = countTokens({ ...base, truncated: true, paging: placeholderPaging });
  const available = Math.max(0, options.budgetTokens - skeleton);

  const ordered = elementPriority(page, options.focus);
  const elementsTokens = ordered.reduce((sum, e) => sum + cost.get(e.clickId)!, 0);
  const textTokens = countTokens(page.text);

  let chosen: PageElement[];
  let textEnd: number;
  if (textTokens + elementsTokens <= available) {
    chosen = ordered;
    textEnd = textTotal;
  } else {
    const elementShare = Math.min(
      elementsTokens,
      Math.max(Math.floor(available * ELEMENT_SHARE), available - textTokens),
    );
    chosen = [];
    let used = 0;
    for (const e of ordered) {
      const c = cost.get(e.clickId)!;
      if (used + c > elementShare) continue;
      chosen.push(e);
      used += c;
    }
    textEnd = cutText(page.text, 0, textBudget(available - used));
  }

  const assemble = (): PageContext => {
    const shown = [...chosen].sort((a, b) => a.clickId - b.clickId);
    const out: PageContext = { ...base, text: page.text.slice(0, textEnd), elements: shown };
    if (textEnd < textTotal || shown.length < total) {
      out.truncated = true;
      out.paging = {
        textOffset: 0,
        textEnd,
        textTotal,
        elementsShown: shown.length,
        elementsTotal: total,
        howTo: howTo(textEnd, textTotal, shown.length, total),
      };
    }
    return out;
  };
  let fitted = assemble();
  // Joining pieces can cost a few tokens more than their sum: trim until the JSON itself fits.
  for (let guard = 0; guard < 200 && countTokens(fitted) > options.budgetTokens; guard++) {
    if (textEnd > 0) textEnd = Math.max(0, Math.floor(textEnd * 0.9) - 1);
    else if (chosen.length > 0) chosen = chosen.slice(0, -1);
    else break;
    fitted = assemble();
  }
  return fitted;
}

/** browser_read_page_text: the readable text from `offset`, within `budgetTokens`. */
export function readTextWindow(page: FullPage, offset: number, budgetTokens: number) {
  const start = Math.max(0, Math.min(offset, page.text.length));
  let end = cutText(page.text, start, Math.max(50, budgetTokens));
  const windowOf = (stop: number) => ({
    url: page.url,
    offset: start,
    end: stop,
    totalChars: page.text.length,
    text: page.text.slice(start, stop),
    ...(stop < page.text.length ? { nextOffset: stop } : { atEnd: true }),
  });
  // JSON escapes (newlines, quotes) cost tokens the raw text does not: shrink until the JSON fits.
  while (end > start && countTokens(windowOf(end)) > budgetTokens)
    end = cutText(page.text, start, Math.floor((countTokens(page.text.slice(start, end)) * 9) / 10));
  return windowOf(end);
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** browser_list_elements: page `n` (1-based) of the elements in document order, optionally those matching `query`. */
export function listElements(page: FullPage, args: { page?: number; query?: string }, budgetTokens: number) {
  const wanted = args.query ? words(args.query) : [];
  const matching = wanted.length
    ? page.elements.filter((e) => {
        const have = new Set(
          words([e.text, e.name, e.placeholder, e.value, e.role, e.type, e.tag, e.href].filter(Boolean).join(' ')),
        );
        return wanted.every((w) => have.has(w));
      })
    : page.elements;
  const pages: PageElement[][] = [[]];
  let used = 0;
  for (const e of matching) {
    const c = countTokens(e) + 1;
    if (used + c > budgetTokens && pages.at(-1)!.length > 0) {
      pages.push([]);
      used = 0;
    }
    pages.at(-1)!.push(e);
    used += c;
  }
  const n = Math.max(1, Math.min(args.page ?? 1, pages.length));
  return {
    url: page.url,
    ...(args.query ? { query: args.query } : {}),
    page: n,
    pages: pages.length,
    matching: matching.length,
    elements: pages[n - 1]!,
    ...(n < pages.length ? { nextPage: n + 1 } : {}),
  };
}
