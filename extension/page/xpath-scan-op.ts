// browser_xpath_scan in the page: visible interactive elements and elements carrying their own
// text, each with an XPath (and its clickId when the current index numbered it).
import { bboxOf, collapse, inScope, INTERACTIVE_SELECTOR, textOf, xpathOf } from './element-lookup.ts';
import type { PageOps, ScannedElement } from './page-ops.ts';

export const MAX_SCANNED_ELEMENTS = 1_500;
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'html', 'body']);

function ownText(element: Element): string {
  let text = '';
  for (const node of Array.from(element.childNodes))
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
  return collapse(text);
}

export function xpathScan(args: PageOps['xpathScan']['args']): PageOps['xpathScan']['result'] {
  const elements: ScannedElement[] = [];
  let truncated = false;
  for (const element of Array.from(document.body ? document.body.querySelectorAll('*') : [])) {
    if (SKIP.has(element.localName) || element.closest('[data-mimo-overlay]')) continue;
    const interactive = element.matches(INTERACTIVE_SELECTOR);
    const text = interactive ? textOf(element) : ownText(element);
    if (!interactive && !text) continue;
    if (!inScope(element, args.scope)) continue;
    if (elements.length >= MAX_SCANNED_ELEMENTS) {
      truncated = true;
      break;
    }
    const entry: ScannedElement = { xpath: xpathOf(element), tag: element.localName, bbox: bboxOf(element) };
    if (text) entry.text = text;
    const id = args.attr ? Number(element.getAttribute(args.attr)) : NaN;
    if (Number.isInteger(id) && id >= 0 && element.hasAttribute(args.attr!)) entry.clickId = id;
    elements.push(entry);
  }
  return { ok: true, elements, truncated };
}
