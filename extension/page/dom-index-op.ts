// browser_dom_index in the page: number the interactive elements in scope with `attr`
// (default data-mimo_click_id), starting at the id the background hands out, after clearing
// the previous generation's numbers so an old id can never point at a new element.
import { bboxOf, inScope, INTERACTIVE_SELECTOR, textOf, xpathOf } from './element-lookup.ts';
import type { IndexedElement, PageOps, RefGeneration } from './page-ops.ts';

export const MAX_INDEXED_ELEMENTS = 1_000;

export function domIndex(
  args: PageOps['domIndex']['args'],
  state: { docToken: string; current: RefGeneration | null },
): PageOps['domIndex']['result'] {
  for (const attr of new Set([args.attr, state.current?.attr].filter((a): a is string => !!a))) {
    for (const old of Array.from(document.querySelectorAll(`[${CSS.escape(attr)}]`))) old.removeAttribute(attr);
  }
  const elements: IndexedElement[] = [];
  let truncated = false;
  let next = args.firstId;
  for (const element of Array.from(document.querySelectorAll(INTERACTIVE_SELECTOR))) {
    if (!inScope(element, args.scope)) continue;
    if (elements.length >= MAX_INDEXED_ELEMENTS) {
      truncated = true;
      break;
    }
    const clickId = next++;
    element.setAttribute(args.attr, String(clickId));
    const entry: IndexedElement = { clickId, tag: element.localName, xpath: xpathOf(element), bbox: bboxOf(element) };
    const text = textOf(element);
    if (text) entry.text = text;
    describe(element, entry);
    elements.push(entry);
  }
  const lastId = Math.max(args.firstId, next - 1);
  state.current = { docToken: state.docToken, attr: args.attr, firstId: args.firstId, lastId };
  return { ok: true, elements, docToken: state.docToken, lastId, truncated };
}

const MAX_ATTRIBUTE_CHARS = 200;
const clip = (value: string) => (value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value);

/**
 * What a planner needs to choose a target without seeing the page: role, input type, name,
 * label (label[for], a wrapping label, aria-label), placeholder, link href (absolute) and target.
 * Never a field's value: it may be a password or personal data.
 */
function describe(element: Element, entry: IndexedElement): void {
  const attr = (name: string) => element.getAttribute(name)?.trim() || undefined;
  const role = attr('role');
  if (role) entry.role = clip(role);
  const type = element instanceof HTMLInputElement || element instanceof HTMLButtonElement ? element.type : undefined;
  if (type) entry.type = type;
  const name = attr('name');
  if (name) entry.name = clip(name);
  const placeholder = attr('placeholder');
  if (placeholder) entry.placeholder = clip(placeholder);
  const label = labelOf(element);
  if (label) entry.label = clip(label);
  if (element instanceof HTMLAnchorElement && element.href) {
    entry.href = clip(element.href);
    if (element.target) entry.target = element.target;
  }
}

function labelOf(element: Element): string | undefined {
  const aria = element.getAttribute('aria-label')?.trim();
  if (aria) return aria;
  const labels = (element as HTMLInputElement).labels;
  const text = labels && labels.length > 0 ? Array.from(labels, (l) => l.textContent?.trim() ?? '').join(' ').trim() : '';
  return text || undefined;
}
